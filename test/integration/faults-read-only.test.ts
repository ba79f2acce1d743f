// Issue 9, the "cannot write" faults on every machine (the full-disk ones need a tmpfs):
// a folder the server may not write, made so by its mode. chmod does not stop root, so
// when the tests run as root the server drops to `nobody` before it starts (a preload
// given in NODE_OPTIONS) and owns its vault and data directory as that user; the folder
// is then read-only to it exactly as to any other user.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, filesUnder, tempDir, writeFiles } from '../helpers/tmp.ts';

const AS_ROOT = process.getuid?.() === 0;
const NOBODY = 65534;

/** The server on a temp vault and data directory, never with root's power over file modes. */
async function startUnprivileged(files: Record<string, string>): Promise<TestServer> {
  const base = await tempDir('vs-read-only-');
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  await writeFiles(vault, files);
  await fs.mkdir(data);
  const env: Record<string, string> = { NOTE_VERSIONS: 'on' };
  if (AS_ROOT) {
    // The builder child inherits NODE_OPTIONS as `nobody` already: only root drops.
    const preload = path.join(base, 'drop-root.mjs');
    await fs.writeFile(preload, `if (process.getuid() === 0) { process.setgroups([]); process.setgid(${NOBODY}); process.setuid(${NOBODY}); }\n`);
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, base]);
    env.NODE_OPTIONS = `--import ${pathToFileURL(preload).href}`;
  }
  return startServer({ vault, data, env });
}

/** Every folder under `dir` (itself included) r-x, every file r--; `writable` puts u+w back. */
async function setWritable(dir: string, writable: boolean): Promise<void> {
  for (const file of await filesUnder(dir)) await fs.chmod(file, writable ? 0o644 : 0o444);
  const folders = [dir];
  for (let i = 0; i < folders.length; i++) {
    for (const e of await fs.readdir(folders[i]!, { withFileTypes: true })) if (e.isDirectory()) folders.push(path.join(folders[i]!, e.name));
  }
  for (const folder of folders) await fs.chmod(folder, writable ? 0o755 : 0o555);
}

const tempFilesIn = async (dir: string) => (await filesUnder(dir)).filter((f) => path.basename(f).startsWith('.~vs-'));
const q = encodeURIComponent;

let server: TestServer;
const locked: string[] = [];
const readOnly = async (dir: string) => {
  locked.push(dir);
  await setWritable(dir, false);
};

beforeAll(async () => {
  server = await startUnprivileged({ 'Locked/Note.md': 'the previous text\n', 'Open/Free.md': 'free\n' });
  // The positive signal: this server can write where the mode lets it.
  expect((await server.admin('PUT', `/api/note?path=${q('Open/Free.md')}`, { content: 'saved\n' })).status).toBe(200);
  expect(await fs.readFile(path.join(server.vault, 'Open/Free.md'), 'utf8')).toBe('saved\n');
}, 60_000);
afterAll(async () => {
  for (const dir of locked) await setWritable(dir, true).catch(() => {});
  await server?.stop();
  await cleanupTempDirs();
});

describe('a note folder the server cannot write (read-only by its mode)', () => {
  beforeAll(() => readOnly(path.join(server.vault, 'Locked')));

  it('a save answers 503 not_writable; the note keeps its previous text; no temp file is left', async () => {
    const res = await server.admin('PUT', `/api/note?path=${q('Locked/Note.md')}`, { content: 'the new text\n' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'not_writable' });
    expect(res.body.error).toMatch(/cannot be written \(EACCES\).*unchanged/);
    expect(await fs.readFile(path.join(server.vault, 'Locked/Note.md'), 'utf8')).toBe('the previous text\n');
    expect(await tempFilesIn(server.vault)).toEqual([]);
  });

  it('a new note there: 503 as well, nothing made', async () => {
    const res = await server.admin('PUT', `/api/note?path=${q('Locked/New.md')}`, { content: 'new\n' });
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 503, code: 'not_writable' });
    await expect(fs.stat(path.join(server.vault, 'Locked/New.md'))).rejects.toThrow();
    expect(await tempFilesIn(server.vault)).toEqual([]);
  });

  it('a rename into it or out of it answers 503 not_writable, not 500; both notes stay where they were', async () => {
    const into = await server.admin('POST', '/api/note/rename', { path: 'Open/Free.md', to: 'Locked/Free.md' });
    expect({ status: into.status, code: into.body.code }).toEqual({ status: 503, code: 'not_writable' });
    const out = await server.admin('POST', '/api/note/rename', { path: 'Locked/Note.md', to: 'Open/Note.md' });
    expect({ status: out.status, code: out.body.code }).toEqual({ status: 503, code: 'not_writable' });
    expect(out.body.error).not.toContain(server.vault);
    expect(await fs.readFile(path.join(server.vault, 'Open/Free.md'), 'utf8')).toBe('saved\n');
    expect(await fs.readFile(path.join(server.vault, 'Locked/Note.md'), 'utf8')).toBe('the previous text\n');
    await expect(fs.stat(path.join(server.vault, 'Locked/Free.md'))).rejects.toThrow();
    await expect(fs.stat(path.join(server.vault, 'Open/Note.md'))).rejects.toThrow();
  });

  it('the server keeps answering, and the save lands once the folder is writable again', async () => {
    expect((await server.admin('GET', '/api/me')).body).toEqual({ admin: true });
    await setWritable(path.join(server.vault, 'Locked'), true);
    const res = await server.admin('PUT', `/api/note?path=${q('Locked/Note.md')}`, { content: 'the new text\n' });
    expect(res.status).toBe(200);
    expect(await fs.readFile(path.join(server.vault, 'Locked/Note.md'), 'utf8')).toBe('the new text\n');
  });
});

describe('a rename whose versions cannot follow (issue 9: a rename completes or changes nothing)', () => {
  it('answers 200 with the note at its new path, and says in the log what stayed behind', async () => {
    const put = (content: string) => server.admin('PUT', `/api/note?path=${q('Moves/A.md')}`, { content });
    expect((await put('first\n')).status).toBe(200);
    expect((await put('second\n')).status).toBe(200);
    expect((await server.admin('GET', `/api/versions?path=${q('Moves/A.md')}`)).body.versions).toHaveLength(1);
    await readOnly(path.join(server.data, 'versions'));
    const res = await server.admin('POST', '/api/note/rename', { path: 'Moves/A.md', to: 'Moves/B.md' });
    expect(res.status).toBe(200);
    expect(res.body.path).toBe('Moves/B.md');
    expect(await fs.readFile(path.join(server.vault, 'Moves/B.md'), 'utf8')).toBe('second\n');
    await expect(fs.stat(path.join(server.vault, 'Moves/A.md'))).rejects.toThrow();
    expect(server.output()).toMatch(/Moves\/B\.md has moved, but the versions of Moves\/A\.md could not move with it/);
    // The tree shows the note where it went.
    const paths = (await server.admin('GET', '/api/tree')).body.entries.map((e: any) => e.path);
    expect(paths).toContain('Moves/B.md');
    expect(paths).not.toContain('Moves/A.md');
  });
});
