// spec 2.3: the data directory may lie inside the vault. It is never read through the
// API, and the folders holding it are never moved, renamed or deleted: a move would carry
// the live data (the git token included) into the vault's notes and the bin.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { serverForFile, startServer } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const server = serverForFile(async () => {
  const vault = path.join(await tempDir('vs-data-in-vault-'), 'vault');
  await writeFiles(vault, { 'Sys/Note.md': 'a note beside the data\n', 'Home.md': 'home\n' });
  return { vault, data: path.join(vault, 'Sys', 'data') };
});

const q = encodeURIComponent;
const inVault = (p: string) => path.join(server.vault, p);
const exists = (p: string) => fs.lstat(inVault(p)).then(() => true, () => false);
const rename = (from: string, to: string) => server.admin('POST', '/api/note/rename', { path: from, to });
const answer = (res: { status: number; body: { code?: string } }) => ({ status: res.status, code: res.body?.code });

describe('the folder holding the data directory', () => {
  it('is not renamed or moved: 409 holds_data_dir, the data stays', async () => {
    // The server may still be writing its data as it starts: files come, none of them goes.
    const dataFiles = async () => (await fs.readdir(server.data)).filter((n) => !n.startsWith('.~'));
    const before = await dataFiles();
    expect(before.length).toBeGreaterThan(0);
    expect(answer(await rename('Sys', 'Moved2'))).toEqual({ status: 409, code: 'holds_data_dir' });
    expect(answer(await rename('Sys', 'Elsewhere/Sys'))).toEqual({ status: 409, code: 'holds_data_dir' });
    expect(await exists('Moved2')).toBe(false);
    expect(await dataFiles()).toEqual(expect.arrayContaining(before));
  });

  it('is not deleted: 409, nothing goes to the bin', async () => {
    const res = await server.admin('DELETE', `/api/note?path=${q('Sys')}`);
    expect(answer(res)).toEqual({ status: 409, code: 'holds_data_dir' });
    expect(res.body.error).not.toContain(server.vault);
    expect(await exists('Sys/data')).toBe(true);
    expect((await server.admin('GET', '/api/trash')).body.entries).toEqual([]);
  });

  it('the data directory itself stays refused for reads and moves', async () => {
    expect((await server.admin('GET', `/api/file?path=${q('Sys/data/settings.json')}`)).status).toBe(400);
    expect((await rename('Sys/data', 'Data')).status).toBe(400);
    expect((await server.admin('DELETE', `/api/note?path=${q('Sys/data')}`)).status).toBe(400);
    expect(await exists('Sys/data')).toBe(true);
  });

  it('a note inside it is read, renamed and deleted as usual', async () => {
    expect((await server.admin('GET', `/api/note?path=${q('Sys/Note.md')}`)).body.content).toBe('a note beside the data\n');
    expect((await rename('Sys/Note.md', 'Sys/Renamed.md')).status).toBe(200);
    expect((await server.admin('DELETE', `/api/note?path=${q('Sys/Renamed.md')}`)).status).toBe(200);
    expect(await exists('Sys/Renamed.md')).toBe(false);
  });
});

describe('a data directory that is the vault itself', () => {
  it('is refused at start with the reason: it could not be ignored, and a sync would commit the token', async () => {
    const vault = path.join(await tempDir('vs-data-is-vault-'), 'vault');
    await writeFiles(vault, { 'Home.md': 'home\n' });
    const started = startServer({ vault, data: vault });
    await expect(started).rejects.toThrow(/SERVICE_DATA is the vault itself/);
    expect((await fs.readdir(vault)).sort()).toEqual(['Home.md']);
  });
});
