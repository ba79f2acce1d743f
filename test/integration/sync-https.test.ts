// spec 3.4, 3.5, 2.10 and 5.4 against a real HTTPS remote on loopback: git http-backend
// behind a Node https server with a self-signed certificate and a basic-auth token check.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { writeCredentials } from '../../admin/git/credentials.ts';
import { bareRepo, filesContaining, git, processesWith, startHttpsGitServer, type HttpsGitServer } from '../helpers/git-remotes.ts';
import { startServer, type ApiAnswer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const TOKEN = `tok_${randomBytes(18).toString('hex')}`;
const USER = 'alice';

let base: string;
let remotes: string;
let https: HttpsGitServer;
let server: TestServer;
const answers: ApiAnswer[] = [];

async function call(method: string, route: string, body?: unknown): Promise<ApiAnswer> {
  const res = await server.admin(method, route, body);
  answers.push(res);
  return res;
}

function remoteFiles(): string[] {
  return git(path.join(remotes, 'vault.git'), 'ls-tree', '-r', '--name-only', 'main').split('\n').filter(Boolean);
}

beforeAll(async () => {
  base = await tempDir('vs-sync-https-');
  remotes = path.join(base, 'remotes');
  await bareRepo(path.join(remotes, 'vault.git'));
  await fs.mkdir(path.join(base, 'certs'));
  https = await startHttpsGitServer({ root: remotes, certDir: path.join(base, 'certs'), username: USER, token: TOKEN });
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  await writeFiles(vault, {
    'Home.md': '# Home\n',
    'Posts/First.md': '---\npublish: true\n---\nHello\n',
    '.trash/Old.md': 'deleted note\n',
    '.obsidian/workspace.json': '{}',
    // A save in flight: the atomic writer's temp file beside its note.
    'Posts/.~vs-0123456789ab.tmp': 'half-written\n',
  });
  await fs.mkdir(data, { recursive: true });
  await writeJsonAtomic(path.join(data, 'settings.json'), {
    sync: { enabled: true, remoteUrl: https.url('vault.git'), branch: 'main', pullFirst: false, intervalMinutes: 0, username: USER },
  });
  await writeCredentials(data, { token: TOKEN, username: USER });
  server = await startServer({ vault, data, env: { GIT_SSL_CAINFO: https.caFile } });
});

afterAll(async () => {
  await server?.stop();
  await https?.close();
  await cleanupTempDirs();
});

describe('Initialize repository (spec 3.5)', () => {
  it('before init the vault is no repository and history says so', async () => {
    const status = await call('GET', '/api/sync/status');
    expect(status.status).toBe(200);
    expect(status.body.repo).toBe(false);
    const history = await call('GET', '/api/history?path=Home.md');
    expect(history.body).toEqual({ repo: false, revisions: [], truncated: false });
    const snapshot = await call('POST', '/api/sync/snapshot');
    expect(snapshot.status).toBe(409);
    expect(snapshot.body.code).toBe('not_repo');
    expect((await call('POST', '/api/sync/now')).body.code).toBe('not_repo');
  });

  it('sync routes are admin-only', async () => {
    for (const [method, route] of [['GET', '/api/sync/status'], ['POST', '/api/sync/now'], ['POST', '/api/sync/init'], ['POST', '/api/sync/snapshot'], ['POST', '/api/sync/open']] as const) {
      expect((await server.api(method, route)).status, route).toBe(401);
    }
  });

  it('runs git init on the settings branch, writes .gitignore, makes the first commit and points origin at the remote', async () => {
    const res = await call('POST', '/api/sync/init');
    expect(res.status).toBe(200);
    expect(res.body.created).toBe(true);
    const vault = server.vault;
    expect(git(vault, 'symbolic-ref', '--short', 'HEAD').trim()).toBe('main');
    const ignore = await fs.readFile(path.join(vault, '.gitignore'), 'utf8');
    expect(ignore.split('\n')).toEqual(expect.arrayContaining(['.trash/', '.obsidian/workspace*.json']));
    expect(git(vault, 'log', '--format=%s').trim().split('\n')).toHaveLength(1);
    expect(git(vault, 'remote', 'get-url', 'origin').trim()).toBe(https.url('vault.git'));
    const tracked = git(vault, 'ls-files').split('\n');
    expect(tracked).toContain('Posts/First.md');
    expect(tracked.some((f) => f.startsWith('.trash/'))).toBe(false);
  });
});

describe('first push (spec 2.10: ahead/behind null until a fetch or push succeeded)', () => {
  it("says 'Nothing has reached the remote yet' before the first push", async () => {
    const status = await call('GET', '/api/sync/status');
    expect(status.body).toMatchObject({ enabled: true, repo: true, branch: 'main', ahead: null, behind: null, remoteHost: '127.0.0.1' });
    expect(status.body.note).toBe('Nothing has reached the remote yet');
  });

  it('pushes over HTTPS with the token, and then reports 0 ahead, 0 behind', async () => {
    await writeFiles(server.vault, { 'Posts/Second.md': 'two\n' });
    let sawPushers = 0;
    let tokenOnACommandLine: string[] = ['not scanned'];
    https.onReceivePack = () => {
      // spec 5.4: while the push runs, no process's command line holds the token.
      sawPushers = processesWith('remote-https').length + processesWith('send-pack').length;
      tokenOnACommandLine = processesWith(TOKEN).map((p) => p.cmdline);
    };
    const res = await call('POST', '/api/sync/now');
    https.onReceivePack = null;
    expect(res.status).toBe(200);
    expect(res.body.outcome).toBe('pushed');
    expect(sawPushers).toBeGreaterThan(0);
    expect(tokenOnACommandLine).toEqual([]);
    expect(https.authenticated.length).toBeGreaterThan(0);
    const status = await call('GET', '/api/sync/status');
    expect(status.body).toMatchObject({ ahead: 0, behind: 0, uncommitted: 0, state: 'clean' });
    expect(status.body.note).toBeNull();
    expect(status.body.last).toMatchObject({ ok: true });
  });

  it('the remote holds the notes, never .trash/, Obsidian workspace files or a save in flight', () => {
    const files = remoteFiles();
    expect(files).toEqual(expect.arrayContaining(['Home.md', 'Posts/First.md', 'Posts/Second.md', '.gitignore']));
    expect(files.filter((f) => f.startsWith('.trash/') || f.includes('workspace') || f.includes('.~vs-'))).toEqual([]);
    expect(git(path.join(remotes, 'vault.git'), 'log', '-1', '--format=%s', 'main')).toMatch(/^service sync: \d{4}-\d\d-\d\dT/);
  });

  it('a pass with nothing changed commits and pushes nothing', async () => {
    const before = git(server.vault, 'rev-parse', 'HEAD').trim();
    const res = await call('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('nothing');
    expect(git(server.vault, 'rev-parse', 'HEAD').trim()).toBe(before);
  });
});

describe('token secrecy (spec 5.4)', () => {
  it('the token is nowhere: .git/config, the vault, settings.json, the server log, any API answer', async () => {
    const gitConfig = await fs.readFile(path.join(server.vault, '.git', 'config'), 'utf8');
    expect(gitConfig).not.toContain(TOKEN);
    expect(gitConfig).not.toMatch(/helper|@127\.0\.0\.1/);
    expect(await filesContaining(server.vault, TOKEN)).toEqual([]);
    expect(await fs.readFile(path.join(server.data, 'settings.json'), 'utf8')).not.toContain(TOKEN);
    expect(server.output()).not.toContain(TOKEN);
    for (const a of answers) expect(a.text).not.toContain(TOKEN);
    // It is where it belongs, at mode 0600.
    const stat = await fs.stat(path.join(server.data, 'git-credentials.json'));
    expect(stat.mode & 0o777).toBe(0o600);
  });

  it("a failing push's error is scrubbed of the token, in the answer, the status and the log", async () => {
    // The remote echoes the token, and the Authorization header git sent it (base64 of user:token).
    const basic = Buffer.from(`${USER}:${TOKEN}`).toString('base64');
    https.rejectWith = `token ${TOKEN} was revoked (auth=Basic ${basic})`;
    await writeFiles(server.vault, { 'Posts/Third.md': 'three\n' });
    const res = await call('POST', '/api/sync/now');
    https.rejectWith = null;
    expect(res.body.outcome).toBe('failed');
    expect(res.text).not.toContain(TOKEN);
    expect(res.text).not.toContain(basic.replace(/=+$/, ''));
    expect(server.output()).not.toContain(basic.replace(/=+$/, ''));
    expect(res.body.error).toMatch(/revoked/);
    expect(res.body.error).toContain('***');
    const status = await call('GET', '/api/sync/status');
    expect(status.body.state).toBe('failed');
    expect(status.body.last.error).toContain('***');
    expect(status.text).not.toContain(TOKEN);
    expect(await fs.readFile(path.join(server.data, 'sync-last.json'), 'utf8')).not.toContain(TOKEN);
    expect(server.output()).not.toContain(TOKEN);
  });

  it('a wrong token fails with git’s own line and leaves the remote untouched', async () => {
    await writeCredentials(server.data, { token: 'wrong-token-value', username: USER });
    const before = git(path.join(remotes, 'vault.git'), 'rev-parse', 'main').trim();
    const res = await call('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('failed');
    expect(res.body.error).toMatch(/Authentication failed|could not read|401/i);
    // Said first in words of what to check, then git's own line.
    expect(res.body.message).toMatch(/^Sync failed\. The remote refused the credentials: check the username and the access token \(or the SSH key\)\. Git said: /);
    expect(git(path.join(remotes, 'vault.git'), 'rev-parse', 'main').trim()).toBe(before);
    await writeCredentials(server.data, { token: TOKEN, username: USER });
    const again = await call('POST', '/api/sync/now');
    expect(again.body.outcome).toBe('pushed');
    expect((await call('GET', '/api/sync/status')).body.state).toBe('clean');
  });
});

describe('the last result survives a restart (CONTRACT §5)', () => {
  it('status after a restart still shows the last pass', async () => {
    const before = (await call('GET', '/api/sync/status')).body.last;
    await server.stop();
    server = await startServer({ vault: server.vault, data: server.data, env: { GIT_SSL_CAINFO: https.caFile } });
    const after = (await call('GET', '/api/sync/status')).body.last;
    expect(after.ok).toBe(true);
    expect(Date.parse(after.at)).toBeGreaterThanOrEqual(Date.parse(before.at));
  });
});
