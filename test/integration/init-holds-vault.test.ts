// Several servers on one vault (spec 1, 3.5): Initialize repository changes the vault (git
// init, .gitignore, the first commit), so it runs with every other server's changes held off.
// It once ran `git init` without the vault write lock, and with .git there the lock moved
// into it, so a save went ahead past another server's live lock (a reviewer's third server).
import os from 'node:os';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { VAULT_LOCK_DIR, VAULT_LOCK_NAME } from '../../admin/vault/vault-lock.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let server: TestServer | null = null;
afterAll(async () => {
  await server?.stop();
  await cleanupTempDirs();
});

it("waits for another server's live vault write lock, and answers busy rather than init the vault past it", async () => {
  const base = await tempDir('vs-init-lock-');
  const vault = path.join(base, 'vault');
  await writeFiles(vault, { 'Home.md': '# Home\n' });
  server = await startServer({ vault, data: path.join(base, 'data') });
  // Another live server (this test's own process, on this host) holds the vault write lock.
  const lock = path.join(vault, VAULT_LOCK_DIR, VAULT_LOCK_NAME);
  await fs.mkdir(path.dirname(lock), { recursive: true });
  await fs.writeFile(lock, JSON.stringify({ pid: process.pid, hostname: os.hostname(), token: 'another-server', since: new Date().toISOString() }) + '\n');
  const keepFresh = setInterval(() => void fs.utimes(lock, new Date(), new Date()).catch(() => {}), 1000);
  try {
    const res = await server.admin('POST', '/api/sync/init');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('busy');
    await expect(fs.stat(path.join(vault, '.git'))).rejects.toThrow();
  } finally {
    clearInterval(keepFresh);
  }
  await fs.rm(lock);
  expect((await server.admin('POST', '/api/sync/init')).status).toBe(200);
  expect((await fs.stat(path.join(vault, '.git'))).isDirectory()).toBe(true);
}, 60_000);
