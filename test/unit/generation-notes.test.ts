// A restart serves the last generation at once unless a note it publishes was removed or
// unpublished while the server was down (CONTRACT §6: unpublished equals missing). Each note
// remembered with the stamp of the file it was read from (inode, size, ctime) is known
// unchanged by one lstat; any other is read again and its text compared (the reads
// and hashes of 7,000 notes were a quarter of a restart).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileStamp, stampSettled } from '../../shared/file-stamp.ts';
import { NoteReader } from '../../shared/model/note-reader.ts';
import { hashText } from '../../shared/note/text-hash.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { retractedWhileDown, type GenerationState } from '../../site/write/generation.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const PUBLISHED = '---\npublish: true\n---\nA post.\n';
const UNPUBLISHED = '---\npublish: false\n---\nA post.\n';

const stateOf = (notes: GenerationState['notes']): GenerationState =>
  ({ format: 0, dir: 'gen-1', vault: '', code: '', frame: '', nav: '', pages: [], notes, search: null }) as GenerationState;

async function vaultWith(text: string): Promise<{ vault: string; file: string }> {
  const vault = await tempDir('vs-gen-notes-');
  const file = path.join(vault, 'Post.md');
  await fs.writeFile(file, text);
  return { vault, file };
}

describe('a note the generation published, checked at a restart', () => {
  it('whose file has its stamp is taken as it was, without reading it', async () => {
    // The text says unpublished and the hash is no text's: only the stamp can vouch for it.
    const { vault, file } = await vaultWith(UNPUBLISHED);
    const stamp = fileStamp(await fs.lstat(file));
    expect(retractedWhileDown(vault, stateOf([['Post.md', 'f'.repeat(40), stamp]]))).toBe(0);
  });

  it('whose file changed since (another stamp) or was remembered without one is read: unpublished, it counts', async () => {
    const { vault } = await vaultWith(UNPUBLISHED);
    expect(retractedWhileDown(vault, stateOf([['Post.md', hashText(PUBLISHED), '1/2/3']]))).toBe(1);
    expect(retractedWhileDown(vault, stateOf([['Post.md', hashText(PUBLISHED), null]]))).toBe(1);
    expect(retractedWhileDown(vault, stateOf([['Post.md', hashText(PUBLISHED)]]))).toBe(1);
  });

  it('edited but still published, or untouched and read again, it does not count', async () => {
    const { vault } = await vaultWith(PUBLISHED.replace('A post.', 'An edited post.'));
    expect(retractedWhileDown(vault, stateOf([['Post.md', hashText(PUBLISHED), '1/2/3']]))).toBe(0);
  });

  it('removed, or swapped for a link to a file with the stamp, it counts', async () => {
    const { vault, file } = await vaultWith(PUBLISHED);
    const stamp = fileStamp(await fs.lstat(file));
    await fs.rename(file, path.join(vault, 'Elsewhere.md'));
    expect(retractedWhileDown(vault, stateOf([['Post.md', hashText(PUBLISHED), stamp]]))).toBe(1);
    await fs.symlink(path.join(vault, 'Elsewhere.md'), file);
    expect(retractedWhileDown(vault, stateOf([['Post.md', hashText(PUBLISHED), stamp]]))).toBe(1);
  });

  it('a note is stamped as read, unless it changed within the last moment (a same-tick write could follow unseen)', async () => {
    const { vault, file } = await vaultWith(PUBLISHED);
    const reader = new NoteReader({ vaultDir: vault, dataDir: null, useGit: false });
    await reader.prepare(true);
    expect(reader.read('Post.md' as VaultPath)!.stamp).toBeNull();
    const past = new Date(Date.now() - 60_000);
    await fs.utimes(file, past, past); // ctime: now, still
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(reader.read('Post.md' as VaultPath)!.stamp).toBe(fileStamp(await fs.lstat(file)));
  });

  it('on a volume that keeps whole seconds (FAT, HFS+), a file changed in its last two seconds is not stamped either', () => {
    const second = Date.UTC(2026, 11, 6, 12, 0, 0);
    expect(stampSettled(second, second + 150)).toBe(false);
    expect(stampSettled(second, second + 1_999)).toBe(false);
    expect(stampSettled(second, second + 2_001)).toBe(true);
    // A clock with fractions of a second: a tenth of one is enough.
    expect(stampSettled(second + 0.25, second + 50)).toBe(false);
    expect(stampSettled(second + 0.25, second + 150)).toBe(true);
    // A ctime ahead of this clock (a volume another machine writes) never is.
    expect(stampSettled(second + 5_000.5, second)).toBe(false);
  });
});
