// Each entry of the bin stands apart, so erasing one never erases another (a reviewer's
// find): `T/c.md` trashed after the folder `T` landed inside `.trash/T/`, and erasing the
// older folder's entry took the newer note with it, its last text gone.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeEach, expect, it } from 'vitest';
import { serverForFile } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const server = serverForFile();
const q = encodeURIComponent;
const inVault = (p: string) => path.join(server.vault, p);
const trash = async () => (await server.admin('GET', '/api/trash')).body.entries as { id: string; path: string; trashPath: string }[];

beforeEach(async () => {
  await fs.rm(inVault('.trash'), { recursive: true, force: true });
  await fs.rm(inVault('T'), { recursive: true, force: true });
});

it('a note trashed from a folder of the name of a trashed folder is placed beside it; erasing the folder keeps it', async () => {
  await writeFiles(server.vault, { 'T/a.md': 'old folder note\n' });
  const folder = await server.admin('DELETE', `/api/note?path=T`);
  expect(folder.status).toBe(200);
  await writeFiles(server.vault, { 'T/c.md': 'the newer note\n' });
  const note = await server.admin('DELETE', `/api/note?path=${q('T/c.md')}`);
  expect(note.status).toBe(200);
  expect(note.body.trashPath.startsWith(`${folder.body.trashPath}/`)).toBe(false);
  expect((await server.admin('DELETE', `/api/trash?id=${q(folder.body.id)}`)).status).toBe(200);
  expect((await trash()).map((e) => e.path)).toEqual(['T/c.md']);
  const restored = await server.admin('POST', '/api/trash/restore', { id: note.body.id });
  expect(restored.status).toBe(200);
  expect(await fs.readFile(inVault(restored.body.path), 'utf8')).toBe('the newer note\n');
});

it('a bin from before, with one entry inside another: erasing the outer one moves the inner one out first', async () => {
  await writeFiles(server.vault, { '.trash/T/a.md': 'old\n', '.trash/T/c.md': 'inner\n' });
  const deletedAt = '2026-01-01T10:00:00.000Z';
  await fs.writeFile(
    inVault('.trash/.service-trash.json'),
    JSON.stringify({ entries: [
      { id: 'outer', path: 'T', trashPath: '.trash/T', kind: 'folder', deletedAt },
      { id: 'inner', path: 'T/c.md', trashPath: '.trash/T/c.md', kind: 'note', deletedAt: '2026-01-02T10:00:00.000Z' },
    ] }),
  );
  expect((await server.admin('DELETE', '/api/trash?id=outer')).status).toBe(200);
  const left = await trash();
  expect(left.map((e) => e.id)).toEqual(['inner']);
  expect(await fs.readFile(inVault(left[0]!.trashPath), 'utf8')).toBe('inner\n');
  const restored = await server.admin('POST', '/api/trash/restore', { id: 'inner' });
  expect(restored.status).toBe(200);
  expect(await fs.readFile(inVault(restored.body.path), 'utf8')).toBe('inner\n');
});

it('DELETE /api/trash with a question it does not know (a typo of id) is refused, and the bin stays whole', async () => {
  await writeFiles(server.vault, { 'Keep.md': 'keep\n' });
  const entry = await server.admin('DELETE', '/api/note?path=Keep.md');
  expect(entry.status).toBe(200);
  for (const query of [`ID=${q(entry.body.id)}`, `entry=${q(entry.body.id)}`, `id=${q(entry.body.id)}&all=1`]) {
    const res = await server.admin('DELETE', `/api/trash?${query}`);
    expect(res.status, query).toBe(400);
    expect(res.body.code).toBe('bad_query');
  }
  expect((await trash()).map((e) => e.id)).toEqual([entry.body.id]);
});

it('a note restored where a name differing only in case is taken comes back beside it, not as its twin', async () => {
  await writeFiles(server.vault, { 'Twin.md': 'the first\n' });
  const entry = await server.admin('DELETE', '/api/note?path=Twin.md');
  expect(entry.status).toBe(200);
  await writeFiles(server.vault, { 'twin.md': 'the second\n' });
  const restored = await server.admin('POST', '/api/trash/restore', { id: entry.body.id });
  expect(restored.status).toBe(200);
  expect(restored.body.path.toLowerCase()).not.toBe('twin.md');
  expect(await fs.readFile(inVault(restored.body.path), 'utf8')).toBe('the first\n');
  await fs.rm(inVault('twin.md'));
  await fs.rm(inVault(restored.body.path));
});
