// spec 3.3: .trash/.service-trash.json is a file inside the vault that Obsidian, another
// device or a git pull may write. Its entries are checked like user input: an entry whose
// paths leave the vault or the bin, or reach a reserved folder, is never listed, restored
// or erased (4xx, nothing changed); and the bin is never reached through a link.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { serverForFile } from '../helpers/server.ts';
import { filesUnder, writeFiles } from '../helpers/tmp.ts';

const server = serverForFile();

const q = encodeURIComponent;
const inVault = (p: string) => path.join(server.vault, p);
const exists = (abs: string) => fs.lstat(abs).then(() => true, () => false);
/** Beside the vault, in the server's own temp folder: what an escape would reach. */
const outside = (name: string) => path.join(path.dirname(server.vault), name);
const MANIFEST = '.trash/.service-trash.json';
const readManifest = async () => JSON.parse(await fs.readFile(inVault(MANIFEST), 'utf8'));
const entry = (id: string, p: string, trashPath: string, kind = 'note') => ({ id, path: p, trashPath, kind, deletedAt: '2024-05-01T10:00:00.000Z' });

async function plant(entries: unknown[]) {
  await fs.mkdir(inVault('.trash'), { recursive: true });
  await fs.writeFile(inVault(MANIFEST), JSON.stringify({ entries }));
}

beforeEach(async () => {
  await fs.rm(inVault('.trash'), { recursive: true, force: true });
  await fs.rm(outside('victim'), { recursive: true, force: true });
  await writeFiles(outside('victim'), { 'keep.md': 'not the vault\n', 'deep/also.md': 'also\n' });
});

describe('an entry whose trashPath leaves the bin', () => {
  const evil = entry('evil3', 'Old folder', '../victim', 'folder');

  it('is not listed', async () => {
    await plant([evil]);
    expect((await server.admin('GET', '/api/trash')).body.entries).toEqual([]);
  });

  it('erasing it answers 409 bad_entry and erases nothing outside the vault', async () => {
    await plant([evil]);
    const res = await server.admin('DELETE', `/api/trash?id=${q('evil3')}`);
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'bad_entry' });
    expect(await filesUnder(outside('victim'))).toHaveLength(2);
    expect((await readManifest()).entries).toEqual([evil]);
  });

  it('emptying the bin leaves what it names alone, and keeps the entry as it was', async () => {
    await plant([evil, entry('evil4', 'x.md', '.trash/../../victim/keep.md')]);
    await writeFiles(inVault('.trash'), { 'Obsidian deleted.md': 'gone\n' });
    const res = await server.admin('DELETE', '/api/trash');
    expect(res.status).toBe(200);
    expect(await filesUnder(outside('victim'))).toHaveLength(2);
    expect(await exists(inVault('.trash/Obsidian deleted.md'))).toBe(false);
    expect((await readManifest()).entries.map((e: { id: string }) => e.id)).toEqual(['evil3', 'evil4']);
  });

  it('restoring it answers 409 and moves nothing into the vault', async () => {
    await plant([entry('evil5', 'Stolen', '../victim', 'folder')]);
    const res = await server.admin('POST', '/api/trash/restore', { id: 'evil5' });
    expect(res.status).toBe(409);
    expect(await exists(inVault('Stolen'))).toBe(false);
    expect(await filesUnder(outside('victim'))).toHaveLength(2);
  });

  it('an entry naming the record itself is refused too', async () => {
    await plant([entry('self', 'Record.md', '.trash/.service-trash.json')]);
    const res = await server.admin('POST', '/api/trash/restore', { id: 'self' });
    expect(res.status).toBe(409);
    expect(await exists(inVault('Record.md'))).toBe(false);
    expect((await readManifest()).entries).toHaveLength(1);
  });
});

describe('an entry whose path is one the API would refuse', () => {
  it('restoring it into .service/ answers 409 and writes nothing there', async () => {
    await writeFiles(inVault('.trash'), { 'TrashMe.md': '{"planted":true}' });
    await plant([entry('evil2', '.service/planted.json', '.trash/TrashMe.md', 'attachment')]);
    const res = await server.admin('POST', '/api/trash/restore', { id: 'evil2' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'bad_entry' });
    expect(await exists(inVault('.service/planted.json'))).toBe(false);
    expect(await exists(inVault('.trash/TrashMe.md'))).toBe(true);
  });

  it('a sound entry beside it restores as usual, and the bad one stays in the record untouched', async () => {
    expect((await server.admin('PUT', `/api/note?path=${q('Sound.md')}`, { content: 'sound\n' })).status).toBe(200);
    const removed = await server.admin('DELETE', `/api/note?path=${q('Sound.md')}`);
    const bad = entry('evil6', '../../etc/x.md', '.trash/Sound.md');
    const record = await readManifest();
    await plant([...record.entries, bad]);
    expect((await server.admin('GET', '/api/trash')).body.entries.map((e: { id: string }) => e.id)).toEqual([removed.body.id]);
    const res = await server.admin('POST', '/api/trash/restore', { id: removed.body.id });
    expect({ status: res.status, path: res.body.path }).toEqual({ status: 200, path: 'Sound.md' });
    expect(await fs.readFile(inVault('Sound.md'), 'utf8')).toBe('sound\n');
    expect((await readManifest()).entries).toEqual([bad]);
  });
});

describe('the bin is never reached through a link', () => {
  it('an entry inside a linked folder of the bin is refused; emptying refuses before erasing anything', async () => {
    await fs.mkdir(inVault('.trash'), { recursive: true });
    await fs.symlink(outside('victim'), inVault('.trash/Linked'));
    await writeFiles(inVault('.trash'), { 'Other.md': 'other\n' });
    await plant([entry('lnk', 'Linked/keep.md', '.trash/Linked/keep.md'), entry('other', 'Other.md', '.trash/Other.md')]);
    const erase = await server.admin('DELETE', `/api/trash?id=lnk`);
    expect({ status: erase.status, code: erase.body.code }).toEqual({ status: 409, code: 'bad_trash' });
    const empty = await server.admin('DELETE', '/api/trash');
    expect(empty.status).toBe(409);
    expect(await filesUnder(outside('victim'))).toHaveLength(2);
    expect(await exists(inVault('.trash/Other.md'))).toBe(true);
    expect(empty.body.error).not.toContain(server.vault);
  });

  it('a note is not deleted into a .trash that is a link out of the vault', async () => {
    await fs.rm(inVault('.trash'), { recursive: true, force: true });
    await fs.symlink(outside('victim'), inVault('.trash'));
    try {
      expect((await server.admin('PUT', `/api/note?path=${q('Bin.md')}`, { content: 'bin\n' })).status).toBe(200);
      const res = await server.admin('DELETE', `/api/note?path=${q('Bin.md')}`);
      expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'bad_trash' });
      expect(await fs.readFile(inVault('Bin.md'), 'utf8')).toBe('bin\n');
      expect((await server.admin('DELETE', '/api/trash')).status).toBe(409);
      expect(await filesUnder(outside('victim'))).toHaveLength(2);
    } finally {
      await fs.rm(inVault('.trash'));
    }
  });
});

describe('a record that cannot be read (a sync conflict, an edit by hand)', () => {
  const conflicted = `<<<<<<< HEAD\n${JSON.stringify({ entries: [entry('kept1', 'A.md', '.trash/A.md')] })}\n=======\n{}\n>>>>>>> theirs\n`;

  it('is never written over: a delete and an empty are refused with 409, the bin and the note stay as they are', async () => {
    await writeFiles(server.vault, { '.trash/A.md': 'in the bin\n', 'Live.md': 'still here\n' });
    await fs.writeFile(inVault(MANIFEST), conflicted);
    // The positive signal: the bin answers (listed as empty while unreadable).
    expect((await server.admin('GET', '/api/trash')).status).toBe(200);
    const del = await server.admin('DELETE', '/api/note?path=Live.md');
    expect(del.status).toBe(409);
    expect(del.body.code).toBe('bad_trash');
    expect((await server.admin('DELETE', '/api/trash')).status).toBe(409);
    expect(await fs.readFile(inVault(MANIFEST), 'utf8')).toBe(conflicted);
    expect(await fs.readFile(inVault('.trash/A.md'), 'utf8')).toBe('in the bin\n');
    expect(await fs.readFile(inVault('Live.md'), 'utf8')).toBe('still here\n');
  });
});
