// spec 3.6 against the real server: a save is stale when the note changed since it was loaded.
// A modification time moved over the very same bytes (touch, a sync client copying the file
// back) is no change: the save is written. Any change of the bytes is still refused. And a note
// that is gone can be found where it went (GET /api/note/moved), so an open window's unsaved
// text can follow it instead of making the note again at its old path.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverForFile, waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const server = serverForFile();
const file = (p: string) => path.join(server.vault, p);
const read = (p: string) => fs.readFile(file(p), 'utf8');
const q = (p: string) => encodeURIComponent(p);
const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/** What `touch` does: the same bytes, a later modification time. */
async function touch(p: string): Promise<number> {
  const later = new Date(Date.now() + 5000);
  await fs.utimes(file(p), later, later);
  return (await fs.stat(file(p))).mtimeMs;
}

describe('a moved mtime over unchanged bytes is no change (spec 3.6)', () => {
  it('a save carrying the mtime it loaded, after a touch, is written; the answer names the bytes written', async () => {
    await writeFiles(server.vault, { 'Touched.md': 'loaded text\n' });
    const loaded = await server.admin('GET', '/api/note?path=Touched.md');
    expect(loaded.body.hash).toBe(sha1('loaded text\n'));
    const touched = await touch('Touched.md');
    expect(touched).not.toBe(loaded.body.mtimeMs);
    const res = await server.admin('PUT', '/api/note?path=Touched.md', { content: 'my text\n', baseMtimeMs: loaded.body.mtimeMs });
    expect(res.status).toBe(200);
    expect(res.body.hash).toBe(sha1('my text\n'));
    expect(await read('Touched.md')).toBe('my text\n');
    // What it replaced is kept as any save's is.
    const { versions } = (await server.admin('GET', '/api/versions?path=Touched.md')).body;
    expect(versions.map((v: { reason: string }) => v.reason)).toEqual(['Earlier save']);
  });

  it('a save based on its own earlier save, after a touch, is written', async () => {
    await writeFiles(server.vault, { 'Saved.md': 'one\n' });
    const loaded = await server.admin('GET', '/api/note?path=Saved.md');
    const first = await server.admin('PUT', '/api/note?path=Saved.md', { content: 'two\n', baseMtimeMs: loaded.body.mtimeMs });
    await touch('Saved.md');
    const res = await server.admin('PUT', '/api/note?path=Saved.md', { content: 'three\n', baseMtimeMs: first.body.mtimeMs });
    expect(res.status).toBe(200);
    expect(await read('Saved.md')).toBe('three\n');
  });

  it('with the hash it loaded, the save is written even when the server has read the note since', async () => {
    await writeFiles(server.vault, { 'Hashed.md': 'base\n' });
    const loaded = await server.admin('GET', '/api/note?path=Hashed.md');
    await touch('Hashed.md');
    // Another window reads it at its new mtime: the server's memory of the first read is gone.
    await server.admin('GET', '/api/note?path=Hashed.md');
    const res = await server.admin('PUT', '/api/note?path=Hashed.md', { content: 'mine\n', baseMtimeMs: loaded.body.mtimeMs, baseHash: loaded.body.hash });
    expect(res.status).toBe(200);
    expect(await read('Hashed.md')).toBe('mine\n');
  });

  it('a real change is still refused with 409 stale, mtime or hash alike, and nothing is written', async () => {
    await writeFiles(server.vault, { 'Changed.md': 'base\n' });
    const loaded = await server.admin('GET', '/api/note?path=Changed.md');
    await fs.writeFile(file('Changed.md'), 'theirs\n');
    const diskMtime = await touch('Changed.md');
    for (const body of [{ baseMtimeMs: loaded.body.mtimeMs }, { baseMtimeMs: loaded.body.mtimeMs, baseHash: loaded.body.hash }]) {
      const res = await server.admin('PUT', '/api/note?path=Changed.md', { content: 'mine\n', ...body });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'stale', mtimeMs: diskMtime });
    }
    expect(await read('Changed.md')).toBe('theirs\n');
  });

  it('the same length with other bytes, at the very same size, is a change', async () => {
    await writeFiles(server.vault, { 'Same size.md': 'aaaa\n' });
    const loaded = await server.admin('GET', `/api/note?path=${q('Same size.md')}`);
    await fs.writeFile(file('Same size.md'), 'bbbb\n');
    await touch('Same size.md');
    const res = await server.admin('PUT', `/api/note?path=${q('Same size.md')}`, { content: 'mine\n', baseMtimeMs: loaded.body.mtimeMs });
    expect(res.status).toBe(409);
    expect(await read('Same size.md')).toBe('bbbb\n');
  });

  it('a baseHash that is not a hash is refused as bad input', async () => {
    await writeFiles(server.vault, { 'Bad.md': 'x' });
    const res = await server.admin('PUT', '/api/note?path=Bad.md', { content: 'y', baseMtimeMs: 1, baseHash: '../etc' });
    expect(res.status).toBe(400);
    expect(await read('Bad.md')).toBe('x');
  });
});

describe('GET /api/note/moved: where a gone note went', () => {
  it('a rename through the admin is known, with or without the hash', async () => {
    await writeFiles(server.vault, { 'Home.md': '# Welcome\n' });
    expect((await server.admin('GET', '/api/note/moved?path=Home.md')).body.movedTo).toBeNull();
    expect((await server.admin('POST', '/api/note/rename', { path: 'Home.md', to: 'Sub/Home renamed.md' })).status).toBe(200);
    expect((await server.admin('GET', '/api/note/moved?path=Home.md')).body).toEqual({ path: 'Home.md', movedTo: 'Sub/Home renamed.md' });
    // Renamed again: the chain is followed.
    await server.admin('POST', '/api/note/rename', { path: 'Sub/Home renamed.md', to: 'Home again.md' });
    expect((await server.admin('GET', '/api/note/moved?path=Home.md')).body.movedTo).toBe('Home again.md');
  });

  it('a note in a folder the admin moved is found in the moved folder', async () => {
    await writeFiles(server.vault, { 'Trip/Day one.md': 'Day one.\n' });
    await server.admin('POST', '/api/note/rename', { path: 'Trip', to: 'Travel/Trip 2026' });
    expect((await server.admin('GET', `/api/note/moved?path=${q('Trip/Day one.md')}`)).body.movedTo).toBe('Travel/Trip 2026/Day one.md');
  });

  it('a move another program made (a delete and a new file with the same bytes) is found by the hash loaded', async () => {
    await writeFiles(server.vault, { 'Obsidian.md': 'moved by Obsidian\n' });
    const loaded = await server.admin('GET', '/api/note?path=Obsidian.md');
    await fs.mkdir(file('Elsewhere'), { recursive: true });
    await fs.rename(file('Obsidian.md'), file('Elsewhere/Obsidian moved.md'));
    const ask = () => server.admin('GET', `/api/note/moved?path=Obsidian.md&hash=${loaded.body.hash}`);
    await waitFor(async () => (await ask()).body.movedTo === 'Elsewhere/Obsidian moved.md');
    // Without the hash nothing is guessed.
    expect((await server.admin('GET', '/api/note/moved?path=Obsidian.md')).body.movedTo).toBeNull();
    // A second copy of the same text: two candidates tell nothing.
    await fs.writeFile(file('Copy.md'), 'moved by Obsidian\n');
    await waitFor(async () => (await ask()).body.movedTo === null);
  });

  it('a note still at its path has not moved', async () => {
    await writeFiles(server.vault, { 'Stays.md': 'here\n' });
    const loaded = await server.admin('GET', '/api/note?path=Stays.md');
    expect((await server.admin('GET', `/api/note/moved?path=Stays.md&hash=${loaded.body.hash}`)).body.movedTo).toBeNull();
  });
});
