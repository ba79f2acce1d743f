// spec 9: versions follow a note moved outside the app only when the delete and the new file
// come moments apart. The real watcher, store and vault, with the pairing's clock controlled:
// a note deleted and made again later elsewhere is a new note, and takes no history.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutsideMoves } from '../../admin/versions/outside-moves.ts';
import { VersionStore } from '../../admin/versions/version-store.ts';
import { VaultEvents, type VaultChange } from '../../shared/vault-events.ts';
import { VaultRoot, type VaultPath } from '../../shared/vault-path.ts';
import { startVaultWatcher } from '../../shared/vault-watcher.ts';
import { waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('a move is a delete and a new file moments apart', () => {
  it('a note deleted, and made again with its text seconds later, takes none of its versions', async () => {
    const vault = await tempDir('vs-outside-vault-');
    const data = await tempDir('vs-outside-data-');
    let t = Date.now();
    const events = new VaultEvents();
    const versions = new VersionStore(data);
    const moves = new OutsideMoves({ root: new VaultRoot(vault, [data]), versions, events, now: () => t });
    const seen: VaultChange[] = [];
    events.onChange((change) => seen.push(change));
    await writeFiles(vault, { 'Notes/Gone.md': 'gone text\n', 'Control/Old.md': 'control text\n' });
    for (const p of ['Notes/Gone.md', 'Control/Old.md']) await versions.keep(p, { data: Buffer.from('earlier\n'), savedAtMs: t, reason: 'Earlier save' });
    // What the notes hold (they have versions) is learned at start.
    await moves.start();
    const watcher = startVaultWatcher({ vaultDir: vault, events });
    await watcher.ready;
    try {
      const reported = (p: string, kind: string) => waitFor(() => seen.some((c) => c.path === p && c.kind === kind));
      await fs.rm(path.join(vault, 'Notes/Gone.md'));
      await reported('Notes/Gone.md', 'delete');
      t += 20_000;
      await fs.writeFile(path.join(vault, 'Notes/Back.md'), 'gone text\n');
      await reported('Notes/Back.md', 'write');
      // The sign a pairing pass has run since: a move made moments apart is followed.
      await fs.rename(path.join(vault, 'Control/Old.md'), path.join(vault, 'Control/New.md'));
      await waitFor(async () => (await versions.list('Control/New.md')).length > 0);

      expect(await versions.list('Notes/Back.md' as VaultPath)).toEqual([]);
      expect(await versions.list('Notes/Gone.md' as VaultPath)).toHaveLength(1);
    } finally {
      moves.close();
      await watcher.close();
      await versions.flush();
    }
  });
});
