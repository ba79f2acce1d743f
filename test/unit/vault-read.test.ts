// CONTRACT §11: a file the server reads by name (the favicon, `.obsidian/app.json`, a
// search hit's line) or a note the walk found is never read through a symbolic link, and
// a name swapped for a FIFO never hangs the reader. Each of these read outside files (or
// would have waited for good) before shared/vault-read.ts and the note reader's O_NOFOLLOW.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NoteReader } from '../../shared/model/note-reader.ts';
import { tagsOf } from '../../shared/note/fields.ts';
import { titleOf } from '../../shared/note/title.ts';
import { copyVaultFileSync, readRegularFile, readRegularFileSync, readVaultFile, readVaultFileSync, readVaultHeadSync, readVaultText } from '../../shared/vault-read.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { attachmentFolderFor } from '../../admin/ui/server/images.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

async function vaultWithOutside() {
  const root = await tempDir('vs-vault-read-');
  const vault = path.join(root, 'vault');
  const outside = path.join(root, 'outside');
  await writeFiles(outside, { 'secret.txt': 'OUTSIDE SECRET', 'app.json': JSON.stringify({ attachmentFolderPath: 'Leaked' }), 'note.md': '---\ntitle: Outside\n---\nOUTSIDE' });
  await writeFiles(vault, { 'real.txt': 'inside', 'folder/inner.txt': 'inner', 'Note.md': '---\ntitle: Inside\n---\nText' });
  return { vault, outside };
}

describe('readVaultFile: one read rule for files taken by name', () => {
  it('reads a regular file below the vault, through real folders', async () => {
    const { vault } = await vaultWithOutside();
    expect(await readVaultText(vault, 'real.txt')).toBe('inside');
    expect(await readVaultText(vault, 'folder/inner.txt')).toBe('inner');
  });

  it('refuses a file that is a link, a folder on the way that is a link, and dot segments', async () => {
    const { vault, outside } = await vaultWithOutside();
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(vault, 'favicon.ico'));
    await fs.symlink(outside, path.join(vault, 'linked'));
    expect(await readVaultFile(vault, 'favicon.ico')).toBeNull();
    expect(await readVaultFile(vault, 'linked/secret.txt')).toBeNull();
    expect(await readVaultFile(vault, '../outside/secret.txt')).toBeNull();
    expect(await readVaultFile(vault, 'folder/../real.txt')).toBeNull();
  });

  it('answers null for a FIFO at once instead of waiting for a writer, and for a file over the limit', async () => {
    const { vault } = await vaultWithOutside();
    execFileSync('mkfifo', [path.join(vault, 'favicon.png')]);
    expect(await readVaultFile(vault, 'favicon.png')).toBeNull();
    expect(await readVaultFile(vault, 'real.txt', 3)).toBeNull();
  });

  it('keeps .obsidian/app.json behind a link from choosing the attachment folder', async () => {
    const { vault, outside } = await vaultWithOutside();
    await fs.mkdir(path.join(vault, '.obsidian'));
    await fs.symlink(path.join(outside, 'app.json'), path.join(vault, '.obsidian', 'app.json'));
    expect(await attachmentFolderFor(vault, null)).toBe('Attachments');
    await fs.rm(path.join(vault, '.obsidian'), { recursive: true });
    await fs.symlink(outside, path.join(vault, '.obsidian'));
    expect(await attachmentFolderFor(vault, null)).toBe('Attachments');
    await fs.rm(path.join(vault, '.obsidian'));
    await writeFiles(vault, { '.obsidian/app.json': JSON.stringify({ attachmentFolderPath: 'Media' }) });
    expect(await attachmentFolderFor(vault, null)).toBe('Media');
  });
});

describe('readRegularFile: a note or an attachment is read only when it is a regular file', () => {
  it('reads one, answers null where nothing is, and refuses a FIFO, a socket, a folder and an oversize file at once', async () => {
    const { vault } = await vaultWithOutside();
    const at = (name: string) => path.join(vault, name);
    const read = await readRegularFile(at('Note.md'), 1024);
    expect(read?.data.toString()).toContain('Inside');
    expect(read?.stats.isFile()).toBe(true);
    expect(await readRegularFile(at('Gone.md'), 1024)).toBeNull();
    expect(await readRegularFile(at('real.txt/below.md'), 1024)).toBeNull();
    execFileSync('mkfifo', [at('Pipe.md')]);
    const socket = net.createServer();
    await new Promise<void>((resolve) => socket.listen(at('Sock.md'), resolve));
    try {
      const code = (p: Promise<unknown>) => p.then(() => 'read', (err: { code?: string }) => err.code);
      expect(await code(readRegularFile(at('Pipe.md'), 1024))).toBe('not_a_file');
      expect(await code(readRegularFile(at('Sock.md'), 1024))).toBe('not_a_file');
      expect(await code(readRegularFile(at('folder'), 1024))).toBe('is_folder');
      expect(await code(readRegularFile(at('Note.md'), 10))).toBe('too_large');
      expect(readRegularFileSync(at('Pipe.md'))).toBeNull();
      expect(readRegularFileSync(at('Note.md'), 10)).toBeNull();
      expect(readRegularFileSync(at('real.txt'))?.toString()).toBe('inside');
    } finally {
      socket.close();
    }
  });
});

describe('copyVaultFileSync and readVaultFileSync: a builder copies an attachment swapped since the walk', () => {
  it('copies a regular file whole, and nothing through a link, a FIFO, a folder or a path leaving the vault', async () => {
    const { vault, outside } = await vaultWithOutside();
    const out = path.join(path.dirname(vault), 'site');
    await fs.mkdir(out);
    const target = (name: string) => path.join(out, name);
    // Positive first: a regular file (bigger than one chunk) arrives byte for byte.
    const big = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    await fs.writeFile(path.join(vault, 'folder', 'big.bin'), big);
    expect(copyVaultFileSync(vault, 'folder/big.bin', target('big.bin'))).toBe(true);
    expect((await fs.readFile(target('big.bin'))).equals(big)).toBe(true);
    expect(readVaultFileSync(vault, 'real.txt')?.toString()).toBe('inside');
    expect(readVaultHeadSync(vault, 'folder/big.bin', 10)).toEqual(Buffer.alloc(10, 7));
    expect(readVaultHeadSync(vault, 'real.txt', 100)?.toString()).toBe('inside');
    // What the walk saw as a picture, swapped for a link out of the vault (as a pull checks one out).
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(vault, 'pic.png'));
    await fs.symlink(outside, path.join(vault, 'linked'));
    execFileSync('mkfifo', [path.join(vault, 'pipe.png')]);
    for (const rel of ['pic.png', 'linked/secret.txt', 'pipe.png', 'folder', '../outside/secret.txt', 'gone.png']) {
      const started = Date.now();
      expect(copyVaultFileSync(vault, rel, target('copy')), rel).toBe(false);
      expect(readVaultFileSync(vault, rel), rel).toBeNull();
      expect(readVaultHeadSync(vault, rel, 100), rel).toBeNull();
      expect(Date.now() - started, rel).toBeLessThan(1000);
      await expect(fs.stat(target('copy')), rel).rejects.toThrow();
    }
    expect(readVaultFileSync(vault, 'real.txt', 3)).toBeNull();
  });
});

describe('NoteReader.read: a note swapped after the walk met it', () => {
  it('reads nothing through a note name that became a link, and does not wait on one that became a FIFO', async () => {
    const { vault, outside } = await vaultWithOutside();
    const reader = new NoteReader({ vaultDir: vault, dataDir: null, useGit: false });
    expect(reader.read('Note.md' as VaultPath)?.title).toBe('Inside');
    await fs.rm(path.join(vault, 'Note.md'));
    await fs.symlink(path.join(outside, 'note.md'), path.join(vault, 'Note.md'));
    expect(reader.read('Note.md' as VaultPath)).toBeNull();
    await fs.rm(path.join(vault, 'Note.md'));
    execFileSync('mkfifo', [path.join(vault, 'Note.md')]);
    expect(reader.read('Note.md' as VaultPath)).toBeNull();
  });
});

describe('titleOf: a title is one line of text', () => {
  it('turns line breaks and tabs into spaces and drops control characters', () => {
    expect(titleOf({ title: 'Bell\u0007 and\u001b[31m escape' }, '', 'x.md')).toBe('Bell and[31m escape');
    expect(titleOf({ title: 'Two\nlines\r\n\tand a tab\n' }, '', 'x.md')).toBe('Two lines and a tab');
    expect(titleOf({ title: '\u0000\u0001' }, '# Heading\u0008 text', 'x.md')).toBe('Heading text');
    expect(titleOf({}, '', 'C1\u0085 next\u009b.md')).toBe('C1 next');
  });
});

describe('tagsOf: a tag carries no control characters', () => {
  it('drops them from frontmatter tags, so no topic page is named with one', () => {
    expect(tagsOf({ tags: ['bell\u0007tag', '\u001b'] })).toEqual(['belltag']);
  });
});
