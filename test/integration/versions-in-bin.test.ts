// A note's history is its own, whatever happens at its path (spec 3.3, a reviewer's finds):
// a trashed note's versions wait in the bin with its entry, so no later note at the same
// path, renamed onto it or saved there, ever shares, takes or loses history with it. They
// were once told apart by time alone: a note renamed onto the path of a trashed one lost
// its older versions when that entry was erased, and a restore beside a taken name took
// the live note's. An entry the bin's record names by hand (the record is a file in the
// vault) moves and erases no history.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { serverForFile } from '../helpers/server.ts';

const server = serverForFile();
const q = encodeURIComponent;
const put = async (p: string, content: string) => expect((await server.admin('PUT', `/api/note?path=${q(p)}`, { content })).status).toBeLessThan(300);
const trash = async (p: string) => (await server.admin('DELETE', `/api/note?path=${q(p)}`)).body.id as string;
async function texts(p: string): Promise<string[]> {
  const { versions } = (await server.admin('GET', `/api/versions?path=${q(p)}`)).body as { versions: { at: string }[] };
  const out: string[] = [];
  for (const v of versions) out.push((await server.admin('GET', `/api/versions/one?path=${q(p)}&at=${v.at}`)).body.content);
  return out.sort();
}

it('a note renamed onto a trashed note’s path keeps its history when that entry is erased, and gets it back restored', async () => {
  await put('A/X.md', 'X one');
  await put('A/X.md', 'X two');
  await put('A/Y.md', 'Y one');
  await put('A/Y.md', 'Y two');
  const x = await trash('A/X.md');
  expect((await server.admin('POST', '/api/note/rename', { path: 'A/Y.md', to: 'A/X.md' })).status).toBe(200);
  expect(await texts('A/X.md')).toEqual(['Y one']);
  const y = await trash('A/X.md');
  expect((await server.admin('DELETE', `/api/trash?id=${q(x)}`)).status).toBe(200);
  expect((await server.admin('POST', '/api/trash/restore', { id: y })).body).toEqual({ path: 'A/X.md' });
  expect(await texts('A/X.md')).toEqual(['Y one']);
});

it('restored beside a name taken since, an entry takes exactly its own versions; the live note keeps its whole history', async () => {
  await put('B/X.md', 'X one');
  await put('B/X.md', 'X two');
  await put('B/Y.md', 'Y one');
  await put('B/Y.md', 'Y two');
  const x = await trash('B/X.md');
  expect((await server.admin('POST', '/api/note/rename', { path: 'B/Y.md', to: 'B/X.md' })).status).toBe(200);
  expect((await server.admin('POST', '/api/trash/restore', { id: x })).body).toEqual({ path: 'B/X 2.md' });
  expect(await texts('B/X.md')).toEqual(['Y one']);
  expect(await texts('B/X 2.md')).toEqual(['X one']);
});

it('erased while a live note has taken its path, an entry’s history goes to that note (spec 3.3), beside its own', async () => {
  await put('C/N.md', 'old one');
  await put('C/N.md', 'old two');
  const old = await trash('C/N.md');
  await put('C/N.md', 'new one');
  await put('C/N.md', 'new two');
  expect(await texts('C/N.md')).toEqual(['new one']);
  expect((await server.admin('DELETE', `/api/trash?id=${q(old)}`)).status).toBe(200);
  expect(await texts('C/N.md')).toEqual(['new one', 'old one']);
});

it('an entry written into the bin’s record by hand moves and erases no history of a live note', async () => {
  await put('L/live.md', 'l1');
  await put('L/live.md', 'l2');
  await put('L/live.md', 'l3');
  expect(await texts('L/live.md')).toEqual(['l1']);
  const record = path.join(server.vault, '.trash/.service-trash.json');
  await fs.mkdir(path.dirname(record), { recursive: true });
  await fs.writeFile(path.join(server.vault, '.trash/planted.md'), 'junk');
  await fs.writeFile(path.join(server.vault, '.trash/planted-2.md'), 'junk');
  const { entries } = JSON.parse(await fs.readFile(record, 'utf8').catch(() => '{"entries":[]}')) as { entries: unknown[] };
  entries.push(
    { id: 'planted1', path: 'L/live.md', trashPath: '.trash/planted.md', kind: 'note', deletedAt: '2099-01-01T00:00:00.000Z' },
    { id: 'planted2', path: 'L/live.md', trashPath: '.trash/planted-2.md', kind: 'note', deletedAt: '2099-01-01T00:00:00.000Z', versions: 'apart' },
  );
  await fs.writeFile(record, JSON.stringify({ entries }));
  expect((await server.admin('POST', '/api/trash/restore', { id: 'planted1' })).body).toEqual({ path: 'L/live 2.md' });
  expect((await server.admin('DELETE', `/api/trash?id=planted2`)).status).toBe(200);
  expect(await texts('L/live.md')).toEqual(['l1']);
  expect(await texts('L/live 2.md')).toEqual([]);
});
