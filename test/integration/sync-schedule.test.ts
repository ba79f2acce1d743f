// spec 8 and 7: when passes run without a click. A sync at server start, on window open
// unless one ran in the last 5 minutes, on the period from settings (re-read each tick),
// a tick while a pass runs skipped, a failing scheduled sync logged once.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, git, sshStandIn } from '../helpers/git-remotes.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let base: string;
let ssh: Awaited<ReturnType<typeof sshStandIn>>;
const servers: TestServer[] = [];

async function settings(dataDir: string, sync: Record<string, unknown>): Promise<void> {
  await fs.mkdir(dataDir, { recursive: true });
  await writeJsonAtomic(path.join(dataDir, 'settings.json'), {
    sync: { enabled: true, branch: 'main', pullFirst: false, intervalMinutes: 0, ...sync },
  });
}

async function repoVault(name: string): Promise<string> {
  const vault = path.join(base, name);
  await writeFiles(vault, { 'Note.md': 'note\n' });
  git(vault, 'init', '-q', '-b', 'main');
  return vault;
}

async function start(vault: string, data: string): Promise<TestServer> {
  const s = await startServer({ vault, data, env: { SERVICE_GIT_SSH_COMMAND: ssh.command } });
  servers.push(s);
  return s;
}

const count = (text: string, re: RegExp) => (text.match(new RegExp(re.source, 'g')) ?? []).length;

beforeAll(async () => {
  base = await tempDir('vs-sync-schedule-');
  ssh = await sshStandIn(path.join(base, 'ssh'));
});

afterAll(async () => {
  await fs.rm(ssh.hangFile, { force: true });
  for (const s of servers) await s.stop();
  await cleanupTempDirs();
});

describe('a sync at server start (spec 8)', () => {
  it('pushes what the vault holds without any request (Pull first on an empty remote is no failure)', async () => {
    const remote = await bareRepo(path.join(base, 'start.git'));
    const data = path.join(base, 'start-data');
    await settings(data, { remoteUrl: `git@localhost:${remote}`, pullFirst: true });
    await start(await repoVault('start-vault'), data);
    await waitFor(() => git(remote, 'for-each-ref', 'refs/heads/main').trim() !== '');
    expect(git(remote, 'show', 'main:Note.md')).toBe('note\n');
  });
});

describe('window open (POST /api/sync/open)', () => {
  it('runs a pass when none ran in the last 5 minutes, then not again', async () => {
    const remote = await bareRepo(path.join(base, 'open.git'));
    const data = path.join(base, 'open-data');
    // Off at start (so no start-up pass); the last pass was 10 minutes ago.
    await settings(data, { enabled: false, remoteUrl: `git@localhost:${remote}` });
    await writeJsonAtomic(path.join(data, 'sync-last.json'), { at: new Date(Date.now() - 10 * 60_000).toISOString(), ok: true, outcome: 'pushed', message: 'earlier' });
    const s = await start(await repoVault('open-vault'), data);
    expect((await s.admin('POST', '/api/sync/open')).body).toEqual({ ran: false });
    await settings(data, { enabled: true, remoteUrl: `git@localhost:${remote}` });
    const first = await s.admin('POST', '/api/sync/open');
    expect(first.body).toMatchObject({ ran: true, outcome: 'pushed' });
    expect((await s.admin('POST', '/api/sync/open')).body).toEqual({ ran: false });
  });
});

describe('the period from settings', () => {
  let s: TestServer;
  let remotePath: string;
  let data: string;

  beforeAll(async () => {
    // The remote does not exist yet: every pass fails the same way.
    remotePath = path.join(base, 'later.git');
    data = path.join(base, 'period-data');
    await settings(data, { remoteUrl: `git@localhost:${remotePath}`, intervalMinutes: 0.01 });
    s = await start(await repoVault('period-vault'), data);
  });

  it('ticks again and again, but a failing scheduled sync is logged once, not once per tick', async () => {
    const passes = () => count(s.output(), /sync lock taken for sync/);
    await waitFor(() => passes() >= 4, 15_000);
    // Between two ticks the indicator is red.
    const status = await waitFor(async () => {
      const body = (await s.admin('GET', '/api/sync/status')).body;
      return body.state === 'failed' ? body : null;
    });
    expect(status.last.error).toMatch(/does not appear to be a git repository|Could not read from remote/);
    expect(count(s.output(), /warn +sync \((start|scheduled)\) failed/)).toBe(1);
  });

  it('a tick while a pass runs is skipped, and the next success is picked up at once', async () => {
    await bareRepo(remotePath);
    await fs.writeFile(ssh.hangFile, '');
    await waitFor(async () => (await s.admin('GET', '/api/sync/status')).body.state === 'running', 10_000);
    const startedBefore = count(s.output(), /sync lock taken for sync/);
    await new Promise((r) => setTimeout(r, 2000)); // over 3 periods
    expect(count(s.output(), /sync lock taken for sync/)).toBe(startedBefore);
    await fs.rm(ssh.hangFile);
    await waitFor(async () => (await s.admin('GET', '/api/sync/status')).body.last?.ok === true, 10_000);
    expect(git(remotePath, 'show', 'main:Note.md')).toBe('note\n');
  });

  it('a changed period is picked up without a restart: Manual stops the ticks', async () => {
    await settings(data, { remoteUrl: `git@localhost:${remotePath}`, intervalMinutes: 0 });
    await new Promise((r) => setTimeout(r, 1000));
    const before = count(s.output(), /sync lock taken for sync/);
    await new Promise((r) => setTimeout(r, 3000));
    expect(count(s.output(), /sync lock taken for sync/)).toBe(before);
  });
});
