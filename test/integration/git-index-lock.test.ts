// Git's own .git/index.lock, left by a git that was killed, must not stop
// backups for good: untouched for 15 minutes (while we hold our sync lock) it is removed
// with a warning naming it; a fresh one makes the pass fail cleanly (409 for Snapshot
// now and Initialize repository, the red state for a sync pass), never a 500.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { git } from '../helpers/git-remotes.ts';
import { serverForFile } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

let indexLock: string;

const server = serverForFile(async () => {
  const base = await tempDir('vs-index-lock-');
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  await writeFiles(vault, { 'Home.md': '# Home\n' });
  await fs.mkdir(data);
  await writeJsonAtomic(path.join(data, 'settings.json'), { sync: { enabled: true, branch: 'main', intervalMinutes: 0 } });
  return { vault, data };
});
beforeAll(async () => {
  expect((await server.admin('POST', '/api/sync/init')).status).toBe(200);
  indexLock = path.join(server.vault, '.git', 'index.lock');
});

describe('a fresh .git/index.lock (a git may still be working)', () => {
  beforeAll(async () => {
    await fs.writeFile(indexLock, '');
    await writeFiles(server.vault, { 'New.md': 'new\n' });
  });

  it('Snapshot now answers 409 with a sentence naming the file, and commits nothing', async () => {
    const head = git(server.vault, 'rev-parse', 'HEAD');
    const res = await server.admin('POST', '/api/sync/snapshot');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('index_locked');
    expect(res.body.error).toContain('.git/index.lock');
    expect(git(server.vault, 'rev-parse', 'HEAD')).toBe(head);
  });

  it('Initialize repository answers 409 the same way', async () => {
    const res = await server.admin('POST', '/api/sync/init');
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('index_locked');
    expect(res.body.error).toContain('.git/index.lock');
  });

  it('a sync pass fails (the red state) with the same sentence, and lets go of its own lock', async () => {
    const res = await server.admin('POST', '/api/sync/now');
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('failed');
    expect(res.body.message).toContain('.git/index.lock');
    const status = await server.admin('GET', '/api/sync/status');
    expect(status.body.state).toBe('failed');
    expect(status.body.last.message).toContain('.git/index.lock');
    await expect(fs.stat(path.join(server.vault, '.git', 'service-sync.lock'))).rejects.toThrow();
  });

  it('the fresh lock is left where it is', async () => {
    expect((await fs.stat(indexLock)).isFile()).toBe(true);
  });
});

describe('a stale .git/index.lock (untouched 15 minutes: its git is gone)', () => {
  it('is removed with a warning naming it, and the snapshot commits', async () => {
    const old = new Date(Date.now() - 16 * 60_000);
    await fs.utimes(indexLock, old, old);
    const res = await server.admin('POST', '/api/sync/snapshot');
    expect(res.status).toBe(200);
    expect(res.body.committed).toBe(true);
    await expect(fs.stat(indexLock)).rejects.toThrow();
    expect(server.output()).toMatch(/removed the stale git lock file \S*\.git\/index\.lock/);
    expect(git(server.vault, 'ls-files')).toContain('New.md');
  });

  it('a sync pass then goes green again', async () => {
    const res = await server.admin('POST', '/api/sync/now');
    expect(res.body.outcome).not.toBe('failed');
    expect((await server.admin('GET', '/api/sync/status')).body.state).toBe('clean');
  });
});
