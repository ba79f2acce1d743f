// spec 3.2 and 7: the lock file `.git/service-sync.lock` between processes, and the
// in-process rule (a second sync answers 409 at once). Real servers, real git.
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fs, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, git, processesWith, sshStandIn } from '../helpers/git-remotes.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const BUSY = /^Another service is syncing this vault \(pid (\d+)\) — this pass did nothing$/;

let base: string;
let ssh: Awaited<ReturnType<typeof sshStandIn>>;
const servers: TestServer[] = [];

async function syncSettings(dataDir: string, remoteUrl: string | null): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  await writeJsonAtomic(path.join(dataDir, 'settings.json'), {
    sync: { enabled: true, remoteUrl, branch: 'main', pullFirst: false, intervalMinutes: 0 },
  });
}

async function start(vault: string, data: string, env: Record<string, string> = {}): Promise<TestServer> {
  const s = await startServer({ vault, data, env: { SERVICE_GIT_SSH_COMMAND: ssh.command, ...env } });
  servers.push(s);
  await waitFor(async () => (await s.admin('GET', '/api/sync/status')).body.state !== 'running');
  return s;
}

const lockFile = (vault: string) => path.join(vault, '.git', 'service-sync.lock');

async function writeLock(vault: string, record: { pid: number; hostname: string }, ageMs = 0): Promise<void> {
  await fs.writeFile(lockFile(vault), JSON.stringify({ ...record, token: 'f'.repeat(32), since: new Date(Date.now() - ageMs).toISOString() }));
  if (ageMs) {
    const t = new Date(Date.now() - ageMs);
    await fs.utimes(lockFile(vault), t, t);
  }
}

/** A pid that belonged to a process which has exited. */
function deadPid(): number {
  const child = spawnSync('sh', ['-c', 'echo $$'], { encoding: 'utf8' });
  return Number(child.stdout.trim());
}

beforeAll(async () => {
  base = await tempDir('vs-sync-lock-');
  ssh = await sshStandIn(path.join(base, 'ssh'));
});

afterAll(async () => {
  await fs.rm(ssh.hangFile, { force: true });
  for (const s of servers) await s.stop();
  await cleanupTempDirs();
});

describe('lock held by another live process (spec 3.2)', () => {
  let s: TestServer;
  beforeAll(async () => {
    const vault = path.join(base, 'v1');
    await writeFiles(vault, { 'A.md': 'a\n' });
    git(vault, 'init', '-q', '-b', 'main');
    await syncSettings(path.join(base, 'd1'), null);
    s = await start(vault, path.join(base, 'd1'));
  });

  it('Sync now does nothing and says so: 200, outcome busy, the spec sentence; no retry, no record', async () => {
    const lastBefore = (await s.admin('GET', '/api/sync/status')).body.last;
    await writeFiles(s.vault, { 'B.md': 'b\n' });
    await writeLock(s.vault, { pid: process.pid, hostname: os.hostname() });
    const res = await s.admin('POST', '/api/sync/now');
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('busy');
    expect(res.body.message).toMatch(BUSY);
    expect(res.body.message).toContain(`(pid ${process.pid})`);
    expect(git(s.vault, 'status', '--porcelain')).toContain('B.md');
    const status = (await s.admin('GET', '/api/sync/status')).body;
    expect(status.state).toBe('busy');
    expect(status.holder.pid).toBe(process.pid);
    expect(status.last).toEqual(lastBefore);
  });

  it('Snapshot now and Initialize repository answer 409 with the same sentence', async () => {
    const snap = await s.admin('POST', '/api/sync/snapshot');
    expect(snap.status).toBe(409);
    expect(snap.body.code).toBe('busy');
    expect(snap.body.error).toMatch(BUSY);
    const init = await s.admin('POST', '/api/sync/init');
    expect(init.status).toBe(409);
    expect(init.body.error).toMatch(BUSY);
  });

  it('a live lock from another host is respected while it is fresh', async () => {
    await writeLock(s.vault, { pid: 1, hostname: 'some-other-host' }, 60_000);
    expect((await s.admin('POST', '/api/sync/now')).body.outcome).toBe('busy');
  });

  it('a lock untouched for 15 minutes is stale: broken with a warning naming the holder, then taken', async () => {
    await writeLock(s.vault, { pid: 4242, hostname: 'some-other-host' }, 16 * 60_000);
    const res = await s.admin('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('committed');
    expect(s.output()).toMatch(/broke the stale lock of pid 4242 on some-other-host \(untouched for 16 minutes\)/);
    await expect(fs.stat(lockFile(s.vault))).rejects.toThrow();
  });

  it('a lock whose holder process is gone on this host is broken with a warning, then taken', async () => {
    const pid = deadPid();
    await writeLock(s.vault, { pid, hostname: os.hostname() });
    await writeFiles(s.vault, { 'C.md': 'c\n' });
    const res = await s.admin('POST', '/api/sync/snapshot');
    expect(res.status).toBe(200);
    expect(res.body.committed).toBe(true);
    expect(s.output()).toContain(`broke the stale lock of pid ${pid} on ${os.hostname()} (its process is gone)`);
    expect(git(s.vault, 'log', '-1', '--format=%s')).toMatch(/^service snapshot: /);
  });
});

describe('inside one process (spec 3.2, 7: a second sync answers 409 at once)', () => {
  let s: TestServer;
  let remote: string;
  beforeAll(async () => {
    remote = await bareRepo(path.join(base, 'r2.git'));
    const vault = path.join(base, 'v2');
    await writeFiles(vault, { 'A.md': 'a\n' });
    git(vault, 'init', '-q', '-b', 'main');
    await syncSettings(path.join(base, 'd2'), `git@localhost:${remote}`);
    s = await start(vault, path.join(base, 'd2'));
  });

  it('while a pass holds the lock: the lock records pid, hostname and token; another sync, snapshot or init gets 409; status says running', async () => {
    await writeFiles(s.vault, { 'Slow.md': 'slow\n' });
    await fs.writeFile(ssh.hangFile, '');
    const first = s.admin('POST', '/api/sync/now');
    await waitFor(() => processesWith(ssh.command).length > 0);
    const record = JSON.parse(await fs.readFile(lockFile(s.vault), 'utf8'));
    expect(record).toMatchObject({ pid: s.proc.pid, hostname: os.hostname() });
    expect(record.token).toMatch(/^[0-9a-f]{32}$/);
    const started = Date.now();
    const second = await s.admin('POST', '/api/sync/now');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(second.status).toBe(409);
    expect(second.body.code).toBe('sync_running');
    expect((await s.admin('POST', '/api/sync/snapshot')).status).toBe(409);
    expect((await s.admin('POST', '/api/sync/init')).status).toBe(409);
    expect((await s.admin('POST', '/api/sync/open')).body).toEqual({ ran: false });
    expect((await s.admin('GET', '/api/sync/status')).body.state).toBe('running');
    await fs.rm(ssh.hangFile);
    expect((await first).body.outcome).toBe('pushed');
    await expect(fs.stat(lockFile(s.vault))).rejects.toThrow();
  });

  it('window open runs no pass when one ran in the last 5 minutes', async () => {
    expect((await s.admin('POST', '/api/sync/open')).body).toEqual({ ran: false });
  });
});

describe('two server processes on one vault (spec 3.2)', () => {
  // Each round is a race between the two servers' passes; every round must end with one push, and
  // nearly every round has one pass meet the other's lock, so ten rounds show the contention.
  const ROUNDS = 10;
  let a: TestServer;
  let b: TestServer;
  let remote: string;
  let gitLog: string;

  beforeAll(async () => {
    remote = await bareRepo(path.join(base, 'r3.git'));
    const vault = path.join(base, 'v3');
    await writeFiles(vault, { 'Start.md': 'start\n' });
    git(vault, 'init', '-q', '-b', 'main');
    // A git that records when each of its runs starts and ends (then runs the real git).
    const shimDir = path.join(base, 'shim');
    gitLog = path.join(base, 'git-runs.log');
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    await fs.mkdir(shimDir);
    await fs.writeFile(
      path.join(shimDir, 'git'),
      `#!/bin/sh\necho "S $VS_TAG $$ $(date +%s%N) $*" >> '${gitLog}'\n'${realGit}' "$@"\nrc=$?\necho "E $VS_TAG $$ $(date +%s%N)" >> '${gitLog}'\nexit $rc\n`,
      { mode: 0o755 },
    );
    const url = `git@localhost:${remote}`;
    await syncSettings(path.join(base, 'd3a'), url);
    await syncSettings(path.join(base, 'd3b'), url);
    const PATH = `${shimDir}:${process.env.PATH}`;
    [a, b] = await Promise.all([
      start(vault, path.join(base, 'd3a'), { PATH, VS_TAG: 'A' }),
      start(vault, path.join(base, 'd3b'), { PATH, VS_TAG: 'B' }),
    ]);
  });

  it(`${ROUNDS} rounds of simultaneous Sync now: every pass ran or reported busy, and no two passes ran git at the same time`, async () => {
    // Only git runs of the rounds count (start-up status reads may overlap a pass: they take no lock).
    const skip = (await fs.stat(gitLog)).size;
    const outcomes: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      await writeFiles(a.vault, { 'Round.md': `round ${round}\n` });
      const answers = await Promise.all([a.admin('POST', '/api/sync/now'), b.admin('POST', '/api/sync/now')]);
      for (const ans of answers) {
        expect(ans.status).toBe(200);
        expect(['pushed', 'nothing', 'busy'], JSON.stringify(ans.body)).toContain(ans.body.outcome);
        if (ans.body.outcome === 'busy') expect(ans.body.message).toMatch(BUSY);
        outcomes.push(ans.body.outcome);
      }
      expect(answers.some((ans) => ans.body.outcome === 'pushed')).toBe(true);
    }
    expect(git(remote, 'show', 'main:Round.md')).toBe(`round ${ROUNDS - 1}\n`);
    expect(outcomes.filter((o) => o === 'pushed')).toHaveLength(ROUNDS);
    // The two servers really did contend: some passes met the other's lock.
    expect(outcomes.filter((o) => o === 'busy').length).toBeGreaterThan(0);

    // Intervals of git runs, per server; runs of the two servers never overlap.
    const runs = new Map<string, { tag: string; start: bigint; end?: bigint; args: string }>();
    for (const line of readFileSync(gitLog).subarray(skip).toString('utf8').split('\n').filter(Boolean)) {
      const [kind, tag, pid, time, ...args] = line.split(' ');
      const key = `${tag}:${pid}`;
      if (kind === 'S') runs.set(key, { tag: tag!, start: BigInt(time!), args: args.join(' ') });
      else if (runs.has(key)) runs.get(key)!.end = BigInt(time!);
    }
    // The git commands of a pass (the public site's read-only `git log` for post dates is not one).
    const PASS_COMMANDS = new Set(['config', 'rev-parse', 'rev-list', 'remote', 'for-each-ref', 'update-ref', 'fetch', 'merge', 'check-ignore', 'add', 'rm', 'diff', 'commit', 'push']);
    const subcommand = (args: string) => {
      const words = args.split(' ');
      for (let i = 0; i < words.length; i++) {
        if (words[i] === '-c') i++;
        else if (!words[i]!.startsWith('-')) return words[i]!;
      }
      return '';
    };
    // The settings query before every git call (shared/git-safety.ts CONFIG_QUERY) reads and
    // takes no lock: the public site's `git log` has one too.
    const all = [...runs.values()].filter((r) => PASS_COMMANDS.has(subcommand(r.args)) && !r.args.includes('--show-scope'));
    expect(all.length).toBeGreaterThan(ROUNDS * 4);
    expect(all.every((r) => r.end !== undefined)).toBe(true);
    all.sort((x, y) => (x.start < y.start ? -1 : 1));
    const overlaps: string[] = [];
    for (let i = 1; i < all.length; i++) {
      for (let j = i - 1; j >= 0 && j >= i - 20; j--) {
        if (all[j]!.tag !== all[i]!.tag && all[j]!.end! > all[i]!.start) overlaps.push(`${all[j]!.tag} ${all[j]!.args} || ${all[i]!.tag} ${all[i]!.args}`);
      }
    }
    expect(overlaps).toEqual([]);
  }, 240_000);

  it('a SIGKILLed holder’s lock is broken by the next pass, with a warning naming the dead holder', async () => {
    await writeFiles(a.vault, { 'Killed.md': 'mid-pass\n' });
    await fs.writeFile(ssh.hangFile, '');
    void a.admin('POST', '/api/sync/now').catch(() => {});
    await waitFor(() => processesWith(ssh.command).length > 0);
    const holder = JSON.parse(await fs.readFile(lockFile(a.vault), 'utf8'));
    expect(holder.pid).toBe(a.proc.pid);
    await a.kill();
    // The killed server's own git push is orphaned: end it (and its ssh stand-in) by pid.
    for (const p of processesWith(ssh.command)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    await fs.rm(ssh.hangFile);
    expect(JSON.parse(await fs.readFile(lockFile(a.vault), 'utf8')).pid).toBe(a.proc.pid);
    const res = await b.admin('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('pushed');
    expect(b.output()).toContain(`broke the stale lock of pid ${a.proc.pid} on ${os.hostname()} (its process is gone)`);
    expect(git(remote, 'show', 'main:Killed.md')).toBe('mid-pass\n');
  }, 60_000);
});
