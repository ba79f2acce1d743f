// Another server's data directory inside the vault is left alone like this server's own (a
// reviewer's find): each server once protected only its own, so a second server on the vault
// listed the first one's files, read its git token through /api/file, moved its live data
// directory to the bin, and would have committed it with a sync.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { git } from '../helpers/git-remotes.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let a: TestServer;
let b: TestServer;
let vault: string;
const q = encodeURIComponent;

beforeAll(async () => {
  const base = await tempDir('vs-other-data-');
  vault = path.join(base, 'vault');
  await writeFiles(vault, { 'Note.md': '# Note\n', 'sub/Kept.md': 'kept\n' });
  git(vault, 'init', '-q', '-b', 'main');
  // B keeps its data inside the vault, A outside it.
  b = await startServer({ vault, data: path.join(vault, 'sub', 'svc-b') });
  await fs.writeFile(path.join(vault, 'sub', 'svc-b', 'git-credentials.json'), JSON.stringify({ token: 'tok_secret_of_b' }), { mode: 0o600 });
  a = await startServer({ vault, data: path.join(base, 'data-a') });
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await cleanupTempDirs();
});

it('is not listed, read, moved or trashed through the other server', async () => {
  const tree = (await a.admin('GET', '/api/tree')).body.entries as { path: string }[];
  expect(tree.map((e) => e.path)).toContain('sub/Kept.md');
  expect(tree.some((e) => e.path.startsWith('sub/svc-b/'))).toBe(false);
  const read = await a.admin('GET', `/api/file?path=${q('sub/svc-b/git-credentials.json')}`);
  expect(read.status).toBeGreaterThanOrEqual(400);
  expect(read.text).not.toContain('tok_secret_of_b');
  for (const target of ['sub/svc-b', 'sub']) {
    const del = await a.admin('DELETE', `/api/note?path=${q(target)}`);
    expect(del.status, target).toBeGreaterThanOrEqual(400);
  }
  expect((await a.admin('POST', '/api/note/rename', { path: 'sub', to: 'moved' })).status).toBeGreaterThanOrEqual(400);
  expect(await fs.readFile(path.join(vault, 'sub', 'svc-b', 'git-credentials.json'), 'utf8')).toContain('tok_secret_of_b');
});

it('a snapshot refuses to commit it until .gitignore ignores it, then commits the vault without it', async () => {
  const refused = await a.admin('POST', '/api/sync/snapshot');
  expect(refused.body.committed ?? false).toBe(false);
  expect(JSON.stringify(refused.body)).toMatch(/sub\/svc-b/);
  expect(git(vault, 'ls-files')).not.toMatch(/svc-b/);
  await fs.appendFile(path.join(vault, '.gitignore'), '/sub/svc-b/\n');
  const done = await a.admin('POST', '/api/sync/snapshot');
  expect(done.body.committed, JSON.stringify(done.body)).toBe(true);
  expect(git(vault, 'ls-files')).toMatch(/sub\/Kept\.md/);
  expect(git(vault, 'ls-files')).not.toMatch(/svc-b/);
});
