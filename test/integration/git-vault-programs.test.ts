// CONTRACT §11: git never runs a program the vault's own .git/ names (hooks,
// core.hooksPath, core.fsmonitor, core.sshCommand, core.askPass, credential helpers,
// filter and diff drivers, gpg, alternate-refs command, remote upload/receive-pack)
// unless SERVICE_GIT_HOOKS=on. Each program is planted in a real vault and writes a
// marker file when run; status, snapshot, sync (HTTPS and SSH) and history run; no
// marker appears. Plain git in the same vault, as a control, does run them.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCredentials } from '../../admin/git/credentials.ts';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, git, sshStandIn, startHttpsGitServer, type HttpsGitServer } from '../helpers/git-remotes.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const TOKEN = `tok_${randomBytes(18).toString('hex')}`;
const USER = 'alice';
const HOOKS = [
  'pre-commit', 'prepare-commit-msg', 'commit-msg', 'post-commit', 'pre-push', 'post-merge', 'post-checkout',
  'reference-transaction', 'post-index-change', 'pre-auto-gc', 'pre-merge-commit', 'post-rewrite', 'fsmonitor-watchman',
];

let base: string;
let markers: string;
let mark: string;
const servers: TestServer[] = [];

async function markerNames(): Promise<string[]> {
  return (await fs.readdir(markers)).sort();
}

/** A script that records its name in the marker folder; as a filter or textconv it passes bytes through. */
async function makeMarkScript(): Promise<string> {
  const file = path.join(base, 'mark.sh');
  await fs.writeFile(file, `#!/bin/sh\ntouch '${markers}'/"$1"\ncase "$1" in *clean|*smudge) cat ;; esac\nexit 0\n`, { mode: 0o755 });
  // gpg is called with gpg's own arguments: a script of its own.
  await fs.writeFile(path.join(base, 'gpg.sh'), `#!/bin/sh\ntouch '${markers}/gpg'\nexit 1\n`, { mode: 0o755 });
  return file;
}

/** Plants every program-naming setting in `vault`'s .git (and .gitattributes selecting the drivers). */
async function plant(vault: string, options: { hooksPath?: boolean } = {}): Promise<void> {
  const gitDir = path.join(vault, '.git');
  const hooksDir = options.hooksPath ? path.join(gitDir, 'elsewhere-hooks') : path.join(gitDir, 'hooks');
  await fs.mkdir(hooksDir, { recursive: true });
  for (const hook of HOOKS) {
    await fs.writeFile(path.join(hooksDir, hook), `#!/bin/sh\n'${mark}' ${options.hooksPath ? 'hookspath-' : 'hook-'}${hook}\nexit 0\n`, { mode: 0o755 });
  }
  // An alternate object store makes fetch consult core.alternateRefsCommand.
  const alternate = await bareRepo(path.join(base, `alternate-${path.basename(vault)}.git`));
  await fs.writeFile(path.join(gitDir, 'objects', 'info', 'alternates'), path.join(alternate, 'objects') + '\n');
  await fs.writeFile(path.join(gitDir, 'included.inc'), `[filter "inc"]\n\tclean = '${mark}' include-clean\n\tsmudge = '${mark}' include-smudge\n`);
  const config = [
    '[core]',
    `\tfsmonitor = '${mark}' fsmonitor`,
    `\tsshCommand = '${mark}' ssh-command`,
    `\taskPass = '${mark}' askpass`,
    `\talternateRefsCommand = '${mark}' alternate-refs`,
    `\tpager = '${mark}' pager`,
    `\teditor = '${mark}' editor`,
    ...(options.hooksPath ? [`\thooksPath = ${hooksDir}`] : []),
    '[credential]',
    `\thelper = !'${mark}' credential-helper`,
    `[credential "https://127.0.0.1"]`,
    `\thelper = !'${mark}' credential-url-helper`,
    '[filter "evil"]',
    `\tclean = '${mark}' clean`,
    `\tsmudge = '${mark}' smudge`,
    '[diff "evil"]',
    `\ttextconv = '${mark}' textconv`,
    `\tcommand = '${mark}' diff-command`,
    '[diff]',
    `\texternal = '${mark}' diff-external`,
    '[commit]',
    '\tgpgSign = true',
    '[log]',
    '\tshowSignature = true',
    '[merge]',
    '\tverifySignatures = true',
    '[gpg]',
    `\tprogram = ${path.join(base, 'gpg.sh')}`,
    '[uploadpack]',
    `\tpackObjectsHook = '${mark}' pack-objects-hook`,
    '[remote "origin"]',
    `\tuploadpack = '${mark}' upload-pack; git-upload-pack`,
    `\treceivepack = '${mark}' receive-pack; git-receive-pack`,
    '[include]',
    `\tpath = ${path.join(gitDir, 'included.inc')}`,
    '',
  ].join('\n');
  await fs.appendFile(path.join(gitDir, 'config'), config);
  await fs.writeFile(path.join(vault, '.gitattributes'), '*.md filter=evil diff=evil\n*.txt filter=inc\n');
}

/** A vault that is already a repository with one commit, its origin at `remoteUrl`. */
async function repoVault(name: string, remoteUrl: string): Promise<string> {
  const vault = path.join(base, name);
  await writeFiles(vault, { 'Home.md': '# Home\n', 'Notes/A.md': 'one\n', 'Notes/B.txt': 'plain\n' });
  git(vault, 'init', '-q', '--initial-branch=main');
  git(vault, 'add', '-A');
  git(vault, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'first');
  git(vault, 'remote', 'add', 'origin', remoteUrl);
  return vault;
}

async function syncSettings(data: string, remoteUrl: string): Promise<void> {
  await writeJsonAtomic(path.join(data, 'settings.json'), {
    sync: { enabled: true, remoteUrl, branch: 'main', pullFirst: true, intervalMinutes: 0, username: USER },
  });
}

async function start(vault: string, env: Record<string, string>): Promise<TestServer> {
  const data = path.join(base, `${path.basename(vault)}-data`);
  await fs.mkdir(data, { recursive: true });
  return startIn(vault, data, env);
}

async function startIn(vault: string, data: string, env: Record<string, string>): Promise<TestServer> {
  const s = await startServer({ vault, data, env });
  servers.push(s);
  // The start-up pass (spec 8) runs first: wait until it is over.
  await waitFor(async () => (await s.admin('GET', '/api/sync/status')).body.state !== 'running', 20_000);
  return s;
}

/** Another clone pushes a change, so Pull first fast-forwards (checkout: smudge, post-merge). */
async function pushFromElsewhere(remotePath: string, file: string): Promise<void> {
  const other = path.join(base, `other-${randomBytes(3).toString('hex')}`);
  git(base, 'clone', '-q', remotePath, other);
  await writeFiles(other, { [file]: `from elsewhere ${file}\n` });
  git(other, 'add', '-A');
  git(other, '-c', 'user.name=o', '-c', 'user.email=o@o', 'commit', '-q', '-m', `elsewhere ${file}`);
  git(other, 'push', '-q', 'origin', 'HEAD:main');
}

beforeAll(async () => {
  base = await tempDir('vs-git-programs-');
  markers = path.join(base, 'markers');
  await fs.mkdir(markers);
  mark = await makeMarkScript();
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  await cleanupTempDirs();
});

describe('HTTPS remote: status, snapshot, sync with Pull first, history', () => {
  let https: HttpsGitServer;
  let server: TestServer;
  let remote: string;

  beforeAll(async () => {
    const remotes = path.join(base, 'https-remotes');
    remote = await bareRepo(path.join(remotes, 'vault.git'));
    await fs.mkdir(path.join(base, 'certs'));
    https = await startHttpsGitServer({ root: remotes, certDir: path.join(base, 'certs'), username: USER, token: TOKEN });
    const vault = await repoVault('https-vault', https.url('vault.git'));
    git(vault, 'push', '-q', remote, 'HEAD:main');
    await plant(vault);
    const data = path.join(base, 'https-data');
    await fs.mkdir(data);
    await syncSettings(data, https.url('vault.git'));
    await writeCredentials(data, { token: TOKEN, username: USER, host: '127.0.0.1' });
    server = await startIn(vault, data, { GIT_SSL_CAINFO: https.caFile });
  });
  afterAll(async () => {
    await https?.close();
  });

  it('status reads the repository', async () => {
    await writeFiles(server.vault, { 'Notes/A.md': 'one, edited\n', 'Notes/B.txt': 'plain, edited\n' });
    const status = await server.admin('GET', '/api/sync/status');
    expect(status.status).toBe(200);
    expect(status.body.uncommitted).toBeGreaterThan(0);
  });

  it('Snapshot now commits', async () => {
    const res = await server.admin('POST', '/api/sync/snapshot');
    expect(res.status).toBe(200);
    expect(res.body.committed).toBe(true);
  });

  it('Sync now pushes the snapshot', async () => {
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toBe('pushed');
  });

  it('Sync now fetches, fast-forwards the other clone’s commit, commits and pushes', async () => {
    await pushFromElsewhere(remote, 'Notes/Elsewhere.md');
    await writeFiles(server.vault, { 'Notes/C.md': 'three\n', 'Notes/D.txt': 'four\n' });
    const res = await server.admin('POST', '/api/sync/now');
    expect(res.body).toMatchObject({ outcome: 'pushed' });
    expect(await fs.readFile(path.join(server.vault, 'Notes/Elsewhere.md'), 'utf8')).toBe('from elsewhere Notes/Elsewhere.md\n');
    expect(git(remote, 'log', '-1', '--format=%s', 'main')).toMatch(/^service sync:/);
  });

  it('history lists and reads revisions', async () => {
    const history = await server.admin('GET', '/api/history?path=Notes/A.md');
    expect(history.body.revisions.length).toBeGreaterThanOrEqual(2);
    const blob = await server.admin('GET', `/api/history/blob?path=Notes/A.md&sha=${history.body.revisions[0].sha}`);
    expect(blob.body.content).toBe('one, edited\n');
  });

  it('none of the planted programs ran', async () => {
    expect(await markerNames()).toEqual([]);
  });

  it('with core.hooksPath pointing at planted hooks, a snapshot and a sync run none of them either', async () => {
    await plant(server.vault, { hooksPath: true });
    await writeFiles(server.vault, { 'Notes/E.md': 'five\n' });
    expect((await server.admin('POST', '/api/sync/snapshot')).body.committed).toBe(true);
    await writeFiles(server.vault, { 'Notes/F.md': 'six\n' });
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toBe('pushed');
    await pushFromElsewhere(remote, 'Notes/Elsewhere2.md');
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toBe('nothing');
    expect(await fs.readFile(path.join(server.vault, 'Notes/Elsewhere2.md'), 'utf8')).toContain('from elsewhere');
    expect(await markerNames()).toEqual([]);
  });

  it('control: plain git in the same vault does run them', async () => {
    await writeFiles(server.vault, { 'Notes/G.md': 'seven\n', 'Notes/H.txt': 'eight\n' });
    git(server.vault, 'status', '--porcelain');
    git(server.vault, 'add', '-A');
    try {
      git(server.vault, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'control');
    } catch {
      /* the planted gpg.program fails the signed commit: it ran */
    }
    const seen = await markerNames();
    await fs.rm(markers, { recursive: true });
    await fs.mkdir(markers);
    expect(seen).toEqual(expect.arrayContaining(['fsmonitor', 'clean', 'include-clean', 'gpg', 'hookspath-pre-commit']));
  });

  it('a URL rewritten by the vault’s config (url.*.insteadOf) never receives the token', async () => {
    const elsewhere = await startHttpsGitServer({ root: path.join(base, 'https-remotes'), certDir: path.join(base, 'certs'), username: USER, token: 'other-token' });
    try {
      const from = https.url('');
      const to = elsewhere.url('');
      git(server.vault, 'config', `url.${to}.insteadOf`, from);
      await writeFiles(server.vault, { 'Notes/I.md': 'nine\n' });
      const res = await server.admin('POST', '/api/sync/now');
      expect(res.body.outcome).toBe('failed');
      // Refused by name before any server is asked (git-vault-config.test.ts has the rest).
      expect(res.body.message).toMatch(/insteadof/);
      expect(elsewhere.authorizations.join('\n')).not.toContain(Buffer.from(`${USER}:${TOKEN}`).toString('base64'));
    } finally {
      git(server.vault, 'config', '--remove-section', `url.${elsewhere.url('')}`);
      await elsewhere.close();
    }
  });
});

describe('SSH remote', () => {
  it('with SERVICE_GIT_SSH_COMMAND: a sync with Pull first runs none of the planted programs (upload-pack and receive-pack are git’s own)', async () => {
    const remote = await bareRepo(path.join(base, 'ssh-remote.git'));
    const ssh = await sshStandIn(path.join(base, 'ssh'));
    const remoteUrl = `git@localhost:${remote}`;
    const vault = await repoVault('ssh-vault', remoteUrl);
    git(vault, 'push', '-q', remote, 'HEAD:main');
    await plant(vault);
    const data = path.join(base, 'ssh-vault-data');
    await fs.mkdir(data);
    await syncSettings(data, remoteUrl);
    const server = await startIn(vault, data, { SERVICE_GIT_SSH_COMMAND: ssh.command });
    await pushFromElsewhere(remote, 'Notes/FromSsh.md');
    await writeFiles(vault, { 'Notes/S.md': 'ssh\n' });
    const res = await server.admin('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('pushed');
    expect(await fs.readFile(path.join(vault, 'Notes/FromSsh.md'), 'utf8')).toContain('from elsewhere');
    // The stand-in ran git's own programs, never the planted names.
    expect(await fs.readFile(ssh.logFile, 'utf8')).toMatch(/^git-upload-pack /m);
    expect(await markerNames()).toEqual([]);
  });

  it('without SERVICE_GIT_SSH_COMMAND: the vault’s core.sshCommand is not run (ssh itself is)', async () => {
    // Port 1 on loopback: ssh fails at once, with its own message.
    const remoteUrl = 'ssh://git@127.0.0.1:1/nowhere/vault.git';
    const vault = await repoVault('ssh-plain-vault', remoteUrl);
    await plant(vault);
    const data = path.join(base, 'ssh-plain-data');
    await fs.mkdir(data);
    await syncSettings(data, remoteUrl);
    const server = await startIn(vault, data, {});
    await writeFiles(vault, { 'Notes/P.md': 'plain ssh\n' });
    const res = await server.admin('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('failed');
    expect(res.body.error).toBeTruthy();
    expect(await markerNames()).toEqual([]);
  });
});

describe('SERVICE_GIT_HOOKS=on (what a git-lfs vault needs)', () => {
  it('lets the vault’s hooks run', async () => {
    const vault = path.join(base, 'hooks-on-vault');
    await writeFiles(vault, { 'Home.md': 'hi\n' });
    git(vault, 'init', '-q', '--initial-branch=main');
    await fs.writeFile(path.join(vault, '.git', 'hooks', 'post-commit'), `#!/bin/sh\n'${mark}' hooks-on-post-commit\n`, { mode: 0o755 });
    const server = await start(vault, { SERVICE_GIT_HOOKS: 'on' });
    const res = await server.admin('POST', '/api/sync/snapshot');
    expect(res.body.committed).toBe(true);
    expect(await markerNames()).toEqual(['hooks-on-post-commit']);
  });

  it('is validated like every variable', async () => {
    const { loadConfig, ConfigError } = await import('../../shared/config.ts');
    expect(() => loadConfig({ SERVICE_GIT_HOOKS: 'maybe' }, [])).toThrow(ConfigError);
    expect(loadConfig({}, []).gitHooks).toBe(false);
    expect(loadConfig({ SERVICE_GIT_HOOKS: 'on' }, []).gitHooks).toBe(true);
  });
});
