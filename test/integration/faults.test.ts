// Faults on the real filesystem and real processes: a note write and a data
// file write that fail midway (a full disk: a small tmpfs) answer a clear error, leave the
// previous content whole and the server running; a remote that accepts the connection
// and never answers ends the pass as failed within the git timeout, lock released; a
// SIGKILL during a sync pass leaves a vault the next pass commits and pushes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, promises as fs, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCredentials } from '../../admin/git/credentials.ts';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, git, processesWith, sshStandIn } from '../helpers/git-remotes.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, filesUnder, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

/** Mounts a tmpfs of `size` at `dir`; false where this machine does not allow it. */
function mountSmallDisk(dir: string, size: string): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether a small disk can be made here (root in a container that allows mount; CI's does). */
const CAN_MOUNT = (() => {
  const probe = mkdtempSync(path.join(os.tmpdir(), 'vs-mount-probe-'));
  const ok = mountSmallDisk(probe, '64k');
  if (ok) execFileSync('umount', [probe]);
  rmSync(probe, { recursive: true, force: true });
  if (!ok) process.stderr.write('faults.test.ts: this machine does not allow mounting a tmpfs; the full-disk tests are skipped\n');
  return ok;
})();

/** Fills the disk at `dir` until at most `leaveBytes` are free. */
async function fillDisk(dir: string, leaveBytes: number): Promise<string> {
  const filler = path.join(dir, 'filler.bin');
  const free = Number(execFileSync('df', ['-B1', '--output=avail', dir], { encoding: 'utf8' }).trim().split('\n')[1]);
  await fs.writeFile(filler, Buffer.alloc(Math.max(0, free - leaveBytes)));
  return filler;
}

const tempFilesIn = async (dir: string) => (await filesUnder(dir)).filter((f) => path.basename(f).startsWith('.~vs-'));

describe.skipIf(!CAN_MOUNT)('a write that fails midway (the disk is full)', () => {
  let disk: string;
  let server: TestServer;
  let filler: string;

  beforeAll(async () => {
    disk = await tempDir('vs-full-disk-');
    expect(mountSmallDisk(disk, '4m')).toBe(true);
    // The vault and the data directory both live on the small disk; the public site builds elsewhere.
    await writeFiles(path.join(disk, 'vault'), { 'Note.md': 'the previous text\n' });
    server = await startServer({ vault: path.join(disk, 'vault'), data: path.join(disk, 'data') });
    expect((await server.admin('PATCH', '/api/settings', { siteName: 'Before' })).status).toBe(200);
    // The public site (built under the data directory) is up before the disk fills.
    await waitFor(async () => (await (await fetch(server.url + '/')).text()).includes('Before'), 30_000, 200);
    filler = await fillDisk(disk, 16 * 1024);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    execFileSync('umount', ['-l', disk]);
  });

  it('a note save answers 507 no_space; the note keeps its previous text; no temp file is left', async () => {
    const res = await server.admin('PUT', '/api/note?path=Note.md', { content: 'x'.repeat(256 * 1024) });
    expect(res.status).toBe(507);
    expect(res.body.code).toBe('no_space');
    expect(res.body.error).toMatch(/disk is full.*unchanged/);
    expect(await fs.readFile(path.join(server.vault, 'Note.md'), 'utf8')).toBe('the previous text\n');
    expect(await tempFilesIn(server.vault)).toEqual([]);
  });

  it('a new note in a new folder: 507 as well, and nothing half-made is listed', async () => {
    const res = await server.admin('PUT', '/api/note?path=New/Big.md', { content: 'y'.repeat(256 * 1024) });
    expect(res.status).toBe(507);
    await expect(fs.stat(path.join(server.vault, 'New', 'Big.md'))).rejects.toThrow();
  });

  it('a settings save (a data file) answers 507; settings.json keeps its previous content', async () => {
    const before = await fs.readFile(path.join(server.data, 'settings.json'), 'utf8');
    const typography: Record<string, string> = {};
    for (let i = 0; i < 60; i++) typography[`k${i}`] = 'z'.repeat(480);
    const res = await server.admin('PATCH', '/api/settings', { siteName: 'After', typography });
    expect(res.status).toBe(507);
    expect(res.body.code).toBe('no_space');
    expect(await fs.readFile(path.join(server.data, 'settings.json'), 'utf8')).toBe(before);
    expect(await tempFilesIn(server.data)).toEqual([]);
  });

  it('the server keeps answering, and saves land again once there is room', async () => {
    expect((await server.admin('GET', '/api/me')).body).toEqual({ admin: true });
    expect((await fetch(server.url + '/')).status).toBeLessThan(500);
    await fs.rm(filler);
    const res = await server.admin('PUT', '/api/note?path=Note.md', { content: 'x'.repeat(256 * 1024) });
    expect(res.status).toBe(200);
    expect((await fs.stat(path.join(server.vault, 'Note.md'))).size).toBe(256 * 1024);
  });
});

describe('a remote that accepts the connection and never answers', () => {
  let silent: net.Server;
  let sockets: net.Socket[] = [];
  let server: TestServer;

  beforeAll(async () => {
    silent = net.createServer((socket) => {
      sockets.push(socket); // accepted, then never a byte back
      socket.on('error', () => {});
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as net.AddressInfo).port;
    const base = await tempDir('vs-silent-remote-');
    const vault = path.join(base, 'vault');
    const data = path.join(base, 'data');
    await writeFiles(vault, { 'Home.md': 'hi\n' });
    git(vault, 'init', '-q', '--initial-branch=main');
    await fs.mkdir(data);
    const remoteUrl = `https://127.0.0.1:${port}/vault.git`;
    await writeJsonAtomic(path.join(data, 'settings.json'), { sync: { enabled: true, remoteUrl, branch: 'main', intervalMinutes: 0, username: 'u' } });
    await writeCredentials(data, { token: 'silent-remote-token', username: 'u', host: '127.0.0.1' });
    server = await startServer({ vault, data, env: { SERVICE_GIT_TIMEOUT_SECONDS: '3' } });
    await waitFor(async () => (await server.admin('GET', '/api/sync/status')).body.state !== 'running', 20_000);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
    for (const s of sockets) s.destroy();
    await new Promise((r) => silent.close(r));
  });

  it('the pass fails within the timeout, says so, and lets go of the lock and of git', async () => {
    await writeFiles(server.vault, { 'New.md': 'new\n' });
    const connectionsBefore = sockets.length; // the start-up pass may have tried already
    const started = Date.now();
    const pending = server.admin('POST', '/api/sync/now');
    pending.catch(() => {});
    // While it hangs, the server answers and reports the pass as running.
    await waitFor(() => sockets.length > connectionsBefore, 10_000);
    expect((await server.admin('GET', '/api/sync/status')).body.state).toBe('running');
    const res = await pending;
    const took = Date.now() - started;
    expect(res.body.outcome).toBe('failed');
    expect(res.body.message).toMatch(/took longer than 3 s/);
    expect(took).toBeLessThan(10_000);
    await expect(fs.stat(path.join(server.vault, '.git', 'service-sync.lock'))).rejects.toThrow();
    expect(processesWith(`127.0.0.1:${(silent.address() as net.AddressInfo).port}`)).toEqual([]);
    expect((await server.admin('GET', '/api/sync/status')).body.state).toBe('failed');
    // The lock is free: a snapshot runs at once.
    const snapshot = await server.admin('POST', '/api/sync/snapshot');
    expect(snapshot.status).toBe(200);
  }, 30_000);
});

describe('SIGKILL during a sync pass', () => {
  it('the next pass, on a restarted server, commits and pushes without help (stale lock; index.lock once stale)', async () => {
    const base = await tempDir('vs-sigkill-');
    const remote = await bareRepo(path.join(base, 'remote.git'));
    const ssh = await sshStandIn(path.join(base, 'ssh'));
    const vault = path.join(base, 'vault');
    const data = path.join(base, 'data');
    const hang = path.join(base, 'filter-hang');
    // A clean filter that stalls while `hang` exists: git add holds .git/index.lock meanwhile.
    const filter = path.join(base, 'slow-filter.sh');
    await fs.writeFile(filter, `#!/bin/sh\nwhile [ -e '${hang}' ]; do sleep 0.05; done\ncat\n`, { mode: 0o755 });
    await writeFiles(vault, { 'Home.md': 'hi\n', '.gitattributes': '*.md filter=slow\n' });
    git(vault, 'init', '-q', '--initial-branch=main');
    git(vault, 'config', 'filter.slow.clean', filter);
    await fs.mkdir(data);
    await writeJsonAtomic(path.join(data, 'settings.json'), {
      sync: { enabled: true, remoteUrl: `git@localhost:${remote}`, branch: 'main', intervalMinutes: 0 },
    });
    const env = { SERVICE_GIT_SSH_COMMAND: ssh.command, SERVICE_GIT_HOOKS: 'on' };
    const a = await startServer({ vault, data, env });
    await waitFor(async () => (await a.admin('GET', '/api/sync/status')).body.state !== 'running', 20_000);
    // The start-up pass may have pushed already.
    expect(['pushed', 'nothing']).toContain((await a.admin('POST', '/api/sync/now')).body.outcome);
    expect(git(remote, 'rev-parse', 'main')).toBe(git(vault, 'rev-parse', 'HEAD'));

    // Mid-pass: git add is running the filter, holding index.lock. Kill the server and its git.
    await writeFiles(vault, { 'Killed.md': 'written just before the crash\n' });
    await fs.writeFile(hang, '');
    void a.admin('POST', '/api/sync/now').catch(() => {});
    const indexLock = path.join(vault, '.git', 'index.lock');
    await waitFor(() => fs.stat(indexLock).then(() => processesWith(filter).length > 0, () => false), 10_000);
    const groups = new Set(processesWith(filter).map((p) => Number(readFileSync(`/proc/${p.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[2])));
    await a.kill();
    for (const group of groups) process.kill(-group, 'SIGKILL');
    await waitFor(() => processesWith(filter).length === 0);
    await fs.rm(hang);
    expect((await fs.stat(indexLock)).isFile()).toBe(true);
    expect(JSON.parse(await fs.readFile(path.join(vault, '.git', 'service-sync.lock'), 'utf8')).pid).toBe(a.proc.pid);

    const b = await startServer({ vault, data, env });
    try {
      await waitFor(async () => (await b.admin('GET', '/api/sync/status')).body.state !== 'running', 20_000);
      // At once: the dead server's lock is broken; git's fresh index.lock stops the pass cleanly.
      const early = await b.admin('POST', '/api/sync/now');
      expect(early.body.outcome).toBe('failed');
      expect(early.body.message).toContain('.git/index.lock');
      expect(b.output()).toContain(`broke the stale lock of pid ${a.proc.pid}`);
      await expect(fs.stat(path.join(vault, '.git', 'service-sync.lock'))).rejects.toThrow();
      // Fifteen minutes later (the file's clock moved back): the next pass needs no one's help.
      const old = new Date(Date.now() - 16 * 60_000);
      await fs.utimes(indexLock, old, old);
      const next = await b.admin('POST', '/api/sync/now');
      expect(next.body.outcome).toBe('pushed');
      expect(b.output()).toMatch(/removed the stale git lock file \S*index\.lock/);
      expect(git(remote, 'show', 'main:Killed.md')).toBe('written just before the crash\n');
      expect(git(remote, 'rev-parse', 'main')).toBe(git(vault, 'rev-parse', 'HEAD'));
    } finally {
      await b.stop();
    }
  }, 90_000);
});
