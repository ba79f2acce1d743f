// spec 3.4 (the ordered pass), Appendix A (what sync never stages) and 5.5 (the git
// environment) against a real SSH-style remote: SERVICE_GIT_SSH_COMMAND names a script
// that runs the requested git command locally, as sshd would on the far side.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, git, sshStandIn } from '../helpers/git-remotes.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let base: string;
let remote: string;
let remoteUrl: string;
let ssh: Awaited<ReturnType<typeof sshStandIn>>;
const servers: TestServer[] = [];

interface SyncSettings {
  pullFirst?: boolean;
  remoteUrl?: string;
}

async function writeSyncSettings(dataDir: string, extra: SyncSettings = {}): Promise<void> {
  await writeJsonAtomic(path.join(dataDir, 'settings.json'), {
    sync: { enabled: true, remoteUrl, branch: 'main', pullFirst: false, intervalMinutes: 0, ...extra },
  });
}

/** Starts a server and waits until its start-up pass (spec 8) is over. */
async function start(vault: string, data: string, env: Record<string, string> = {}): Promise<TestServer> {
  const s = await startServer({ vault, data, env: { SERVICE_GIT_SSH_COMMAND: ssh.command, ...env } });
  servers.push(s);
  await waitFor(async () => (await s.admin('GET', '/api/sync/status')).body.state !== 'running');
  return s;
}

const remoteHead = () => git(remote, 'rev-parse', 'main').trim();
const read = (s: TestServer, p: string) => fs.readFile(path.join(s.vault, p), 'utf8');

beforeAll(async () => {
  base = await tempDir('vs-sync-ssh-');
  remote = await bareRepo(path.join(base, 'remote.git'));
  ssh = await sshStandIn(path.join(base, 'ssh'));
  remoteUrl = `git@localhost:${remote}`;
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  await cleanupTempDirs();
});

describe('two servers and one remote (spec 3.4 steps 2 and 5)', () => {
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    const dataA = path.join(base, 'dataA');
    await writeFiles(path.join(base, 'vaultA'), { 'Shared.md': 'one\n', 'Mine.md': 'A\n' });
    await fs.mkdir(dataA);
    await writeSyncSettings(dataA);
    a = await start(path.join(base, 'vaultA'), dataA, {
      // spec 5.5: these are removed from git's environment; if any leaked, the pass would fail or lie.
      GIT_DIR: path.join(base, 'elsewhere.git'),
      GIT_WORK_TREE: base,
      GIT_INDEX_FILE: path.join(base, 'evil-index'),
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'user.name',
      GIT_CONFIG_VALUE_0: 'Injected Name',
      GIT_SSH_COMMAND: '/bin/false',
      GIT_SSH: '/bin/false',
      GIT_PROXY_COMMAND: '/bin/false',
      GIT_EXTERNAL_DIFF: '/bin/false',
    });
  });

  it('server A initialises and pushes over ssh with SERVICE_GIT_SSH_COMMAND, ignoring hostile GIT_* variables', async () => {
    expect((await a.admin('POST', '/api/sync/init')).status).toBe(200);
    const res = await a.admin('POST', '/api/sync/now');
    expect(res.body).toMatchObject({ outcome: 'pushed' });
    expect(await fs.readFile(ssh.logFile, 'utf8')).toMatch(/git-receive-pack '.*remote\.git'/);
    expect(git(remote, 'log', '--format=%an', 'main')).not.toContain('Injected Name');
    await expect(fs.stat(path.join(base, 'elsewhere.git'))).rejects.toThrow();
    expect((await a.admin('GET', '/api/sync/status')).body).toMatchObject({ ahead: 0, behind: 0, state: 'clean' });
  });

  it('server B, on a clone, pushes a change: the remote moves ahead of A', async () => {
    git(base, 'clone', '-q', remote, path.join(base, 'vaultB'));
    const dataB = path.join(base, 'dataB');
    await fs.mkdir(dataB);
    await writeSyncSettings(dataB);
    b = await start(path.join(base, 'vaultB'), dataB);
    await writeFiles(b.vault, { 'Shared.md': 'one\ntwo from B\n' });
    expect((await b.admin('POST', '/api/sync/now')).body.outcome).toBe('pushed');
    expect(git(remote, 'show', 'main:Shared.md')).toBe('one\ntwo from B\n');
  });

  it('Pull first: fetch then fast-forward brings B’s change into A’s files (no git pull, pull.rebase has no effect)', async () => {
    git(a.vault, 'config', 'pull.rebase', 'true');
    await writeSyncSettings(a.data, { pullFirst: true });
    const res = await a.admin('POST', '/api/sync/now');
    expect(['nothing', 'pushed']).toContain(res.body.outcome);
    expect(await read(a, 'Shared.md')).toBe('one\ntwo from B\n');
    expect(git(a.vault, 'rev-parse', 'HEAD').trim()).toBe(remoteHead());
    // A fast-forward makes no merge commit.
    expect(git(a.vault, 'log', '--merges', '--format=%H').trim()).toBe('');
    expect((await a.admin('GET', '/api/sync/status')).body).toMatchObject({ ahead: 0, behind: 0 });
  });

  it('without Pull first, a push onto a moved remote is refused (never forced) and A learns it is behind', async () => {
    await writeSyncSettings(a.data, { pullFirst: false });
    // B moves the remote on. It pulls first: A's pass above may have pushed (its settings
    // travel into the vault's .service/), and B's push would then be the refused one.
    await writeSyncSettings(b.data, { pullFirst: true });
    await writeFiles(b.vault, { 'FromB.md': 'B again\n' });
    expect((await b.admin('POST', '/api/sync/now')).body.outcome).toBe('pushed');
    const bHead = remoteHead();
    await writeFiles(a.vault, { 'Mine.md': 'A edited\n' });
    const res = await a.admin('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('failed');
    expect(res.body.error).toMatch(/rejected|fetch first|non-fast-forward/);
    expect(remoteHead()).toBe(bHead);
    const status = (await a.admin('GET', '/api/sync/status')).body;
    expect(status).toMatchObject({ state: 'failed', ahead: 1, behind: 1 });
    expect(status.last.error).toMatch(/rejected/);
  });

  it('Pull first on diverged histories stops before touching any file, commits and pushes nothing', async () => {
    await writeSyncSettings(a.data, { pullFirst: true });
    // The settings just written reach the vault's .service/ now, not at a mirror tick in the middle of the checks.
    expect((await a.admin('POST', '/api/sync/travel')).status).toBe(200);
    await writeFiles(a.vault, { 'Unsaved.md': 'not committed yet\n' });
    const headBefore = git(a.vault, 'rev-parse', 'HEAD').trim();
    // git status first: it refreshes the index's stat cache (the settings travel rewrote
    // .service/ files), and that write of its own is not the pass touching the index.
    const statusBefore = git(a.vault, 'status', '--porcelain');
    const indexBefore = await fs.readFile(path.join(a.vault, '.git', 'index'));
    const remoteBefore = remoteHead();
    const res = await a.admin('POST', '/api/sync/now');
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('diverged');
    expect(res.body.message).toMatch(/diverged/);
    expect(git(a.vault, 'rev-parse', 'HEAD').trim()).toBe(headBefore);
    expect(await fs.readFile(path.join(a.vault, '.git', 'index'))).toEqual(indexBefore);
    expect(git(a.vault, 'status', '--porcelain')).toBe(statusBefore);
    await expect(fs.stat(path.join(a.vault, 'FromB.md'))).rejects.toThrow();
    expect(await read(a, 'Mine.md')).toBe('A edited\n');
    expect(remoteHead()).toBe(remoteBefore);
  });
});

describe('what sync never stages (Appendix A) and the data-directory check (spec 3.4)', () => {
  let c: TestServer;
  let remoteC: string;

  beforeAll(async () => {
    remoteC = await bareRepo(path.join(base, 'remoteC.git'));
    const vault = path.join(base, 'vaultC');
    // An older version committed .trash/ and the in-vault data directory, and ignores neither.
    await writeFiles(vault, { 'Note.md': 'note\n', '.trash/Gone.md': 'gone\n', '.data/old.json': '{}\n' });
    git(vault, 'init', '-q', '-b', 'main');
    git(vault, 'add', '-A');
    git(vault, 'commit', '-q', '-m', 'older tool committed everything');
    await writeJsonAtomic(path.join(vault, '.data', 'settings.json'), {
      sync: { enabled: true, remoteUrl: `git@localhost:${remoteC}`, branch: 'main', pullFirst: false, intervalMinutes: 0 },
    });
    // No git identity at all: HOME and XDG_CONFIG_HOME point at an empty folder.
    const home = await tempDir('vs-home-');
    c = await start(vault, path.join(vault, '.data'), { HOME: home, XDG_CONFIG_HOME: home });
  });

  it('refuses to run while the in-vault data directory is not ignored, and pushes nothing', async () => {
    const res = await c.admin('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('failed');
    expect(res.body.message).toMatch(/data directory.*not ignore|refuses/i);
    expect(git(remoteC, 'for-each-ref').trim()).toBe('');
  });

  it('Initialize on an existing repository adds the missing .gitignore rules, and then the pass runs', async () => {
    const init = await c.admin('POST', '/api/sync/init');
    expect(init.status).toBe(200);
    expect(init.body.created).toBe(false);
    const ignore = await fs.readFile(path.join(c.vault, '.gitignore'), 'utf8');
    expect(ignore.split('\n')).toEqual(expect.arrayContaining(['.trash/', '/.data/']));
    const res = await c.admin('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('pushed');
  });

  it('the remote head holds neither .trash/ nor the data directory, though older history still does', () => {
    const files = git(remoteC, 'ls-tree', '-r', '--name-only', 'main').split('\n').filter(Boolean);
    expect(files).toContain('Note.md');
    expect(files.filter((f) => f.startsWith('.trash/') || f.startsWith('.data/'))).toEqual([]);
    expect(git(remoteC, 'ls-tree', '-r', '--name-only', 'main~1')).toContain('.trash/Gone.md');
    // Untouched on disk: removal is from the index only.
    expect(git(c.vault, 'ls-files', '.trash', '.data').trim()).toBe('');
  });

  it('commits with the default identity when git has none', () => {
    expect(git(remoteC, 'log', '-1', '--format=%an <%ae>', 'main').trim()).toBe('service <service@localhost>');
  });

  it('the data directory files are still on disk', async () => {
    await expect(fs.stat(path.join(c.vault, '.data', 'settings.json'))).resolves.toBeTruthy();
    await expect(fs.stat(path.join(c.vault, '.trash', 'Gone.md'))).resolves.toBeTruthy();
  });
});
