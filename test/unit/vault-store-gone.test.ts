// Another program saving a note in place passes through a missing file (git's checkout,
// an editor's rename-then-write) or an empty one (truncate, then write). A read in that
// moment took the published page down until the write's own event (shared/model/vault-store.ts):
// such a read is looked at again a moment later, and only a note still gone or empty then
// leaves the site.
import { renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VaultStore } from '../../shared/model/vault-store.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const note = (body: string, publish = true) => `---\npublish: ${publish}\ndate: 2026-01-01\n---\n${body}\n`;
const SETTLE_MS = 300;

async function storeWith(files: Record<string, string>): Promise<{ store: VaultStore; vault: string }> {
  const vault = await tempDir('vs-gone-');
  await writeFiles(vault, files);
  const store = new VaultStore({ vaultDir: vault, dataDir: null, useGit: false, goneSettleMs: SETTLE_MS });
  await store.loadAll();
  return { store, vault };
}

/** The store's update of `rel`, with `finish` run 60 ms after it starts (its first read is long done by then). */
async function updateWhile(store: VaultStore, rel: string, finish: () => void) {
  const started = performance.now();
  const update = store.update([rel]);
  const finished = new Promise<void>((resolve) => setTimeout(() => (finish(), resolve()), 60));
  const [changes] = await Promise.all([update, finished]);
  return { changes, ms: performance.now() - started };
}

describe('a published note that reads missing or empty', () => {
  it('truncated, then written: the written text is what the update takes', async () => {
    const { store, vault } = await storeWith({ 'A.md': note('First') });
    const file = path.join(vault, 'A.md');
    truncateSync(file, 0);
    const { changes } = await updateWhile(store, 'A.md', () => writeFileSync(file, note('Second')));
    expect(changes.map((c) => [c.before?.body.trim(), c.after?.body.trim(), c.after?.publish])).toEqual([['First', 'Second', true]]);
  });

  it('moved away, then written again (an editor keeping a backup): the note stays, with its new text', async () => {
    const { store, vault } = await storeWith({ 'A.md': note('First') });
    const file = path.join(vault, 'A.md');
    renameSync(file, `${file}~`);
    const { changes } = await updateWhile(store, 'A.md', () => writeFileSync(file, note('Second')));
    expect(changes.map((c) => [c.before?.body.trim(), c.after?.body.trim()])).toEqual([['First', 'Second']]);
  });

  it('emptied for good, or deleted: it leaves the site once the moment has passed', async () => {
    const { store, vault } = await storeWith({ 'A.md': note('First'), 'B.md': note('Other') });
    truncateSync(path.join(vault, 'A.md'), 0);
    rmSync(path.join(vault, 'B.md'));
    const started = performance.now();
    const changes = await store.update(['A.md', 'B.md']);
    // One wait for both, not one each.
    expect(performance.now() - started).toBeGreaterThanOrEqual(SETTLE_MS - 5);
    expect(performance.now() - started).toBeLessThan(2 * SETTLE_MS);
    expect(changes.map((c) => [c.path, c.after === null ? 'gone' : c.after.publish])).toEqual([
      ['A.md', false],
      ['B.md', 'gone'],
    ]);
    expect(store.records.has('B.md' as never)).toBe(false);
  });

  it('an unpublished note, or a published one edited, is taken at once', async () => {
    const { store, vault } = await storeWith({ 'A.md': note('Draft', false), 'B.md': note('First') });
    rmSync(path.join(vault, 'A.md'));
    writeFileSync(path.join(vault, 'B.md'), note('Second'));
    const started = performance.now();
    const changes = await store.update(['A.md', 'B.md']);
    expect(performance.now() - started).toBeLessThan(SETTLE_MS / 2);
    expect(changes.map((c) => [c.path, c.after?.body.trim() ?? 'gone'])).toEqual([
      ['A.md', 'gone'],
      ['B.md', 'Second'],
    ]);
  });
});
