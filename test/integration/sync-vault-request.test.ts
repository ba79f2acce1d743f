// CONTRACT §14: a vault's `.service/settings.json` travels, but where it would switch
// backup on or point it at another remote or branch, nothing is fetched or pushed until
// the admin allows it. A real bare remote over `git http-backend` (HTTPS on loopback).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareRepo, git, startHttpsGitServer, type HttpsGitServer } from '../helpers/git-remotes.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let remotes: string;
let https: HttpsGitServer;
let server: TestServer;

const vaultSettings = () => path.join(server.vault, '.service', 'settings.json');
const branchesOf = (repo: string) => git(path.join(remotes, repo), 'for-each-ref', '--format=%(refname)').split('\n').filter(Boolean);
const filesOn = (repo: string) => git(path.join(remotes, repo), 'ls-tree', '-r', '--name-only', 'main').split('\n').filter(Boolean);
const status = async () => (await server.admin('GET', '/api/sync/status')).body;

async function vaultAsks(settings: Record<string, unknown>): Promise<void> {
  await fs.writeFile(vaultSettings(), JSON.stringify(settings, null, 2));
  // A mirror pass now rather than at its next tick.
  expect((await server.admin('POST', '/api/sync/travel')).status).toBe(200);
}

beforeAll(async () => {
  const base = await tempDir('vs-vault-request-');
  remotes = path.join(base, 'remotes');
  for (const name of ['vault.git', 'other.git', 'third.git']) await bareRepo(path.join(remotes, name));
  await fs.mkdir(path.join(base, 'certs'));
  // Anyone may push here: the only thing between the vault's request and the remote is the rule under test.
  https = await startHttpsGitServer({ root: remotes, certDir: path.join(base, 'certs'), username: 'anyone', token: null });
  const vault = path.join(base, 'vault');
  await writeFiles(vault, {
    'Private/Diary.md': 'Not for anyone else.\n',
    '.service/settings.json': JSON.stringify({
      siteName: 'Asked by the vault',
      sync: { enabled: true, remoteUrl: https.url('vault.git'), branch: 'main', intervalMinutes: 5 },
    }),
  });
  git(vault, 'init', '-q', '--initial-branch=main');
  git(vault, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
  git(vault, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'first');
  // A fresh data directory: this server's first start.
  server = await startServer({ vault, data: path.join(base, 'data'), env: { GIT_SSL_CAINFO: https.caFile } });
});

afterAll(async () => {
  await server?.stop();
  await https?.close();
  await cleanupTempDirs();
});

describe('a vault that asks for backup', () => {
  it('travels (its other settings apply) but backup stays off: nothing reaches the remote before Allow', async () => {
    expect((await server.admin('GET', '/api/settings')).body.siteName).toBe('Asked by the vault');
    const first = await status();
    expect(first.enabled).toBe(false);
    expect(first.vaultRequest).toEqual({ enabled: true, remoteHost: '127.0.0.1', branch: 'main' });
    expect(JSON.stringify(first)).not.toContain('vault.git');
    const settings = (await server.admin('GET', '/api/settings')).body;
    expect(settings.sync.enabled).toBe(false);
    expect(settings.sync.remoteUrl).toBeNull();
    // The app learns of the request from the settings, without asking git for a status.
    expect(settings.vaultRequest).toEqual(first.vaultRequest);
    expect((await server.admin('PATCH', '/api/settings', { ...settings, siteName: 'Sent back whole' })).status).toBe(200);
    expect((await status()).vaultRequest).toEqual(first.vaultRequest);
    // The positive signal: the service itself answers that backup is off, as the start pass found it.
    const now = await server.admin('POST', '/api/sync/now');
    expect(now.status).toBe(409);
    expect(now.body.code).toBe('sync_off');
    expect((await server.admin('POST', '/api/sync/open')).body.ran).toBe(false);
    expect(https.requests).toEqual([]);
    expect(branchesOf('vault.git')).toEqual([]);
    expect(server.output()).toContain("ask to back up to 127.0.0.1");
  });

  it('a save of other sync settings does not apply the request', async () => {
    expect((await server.admin('PATCH', '/api/settings', { sync: { pullFirst: true } })).status).toBe(200);
    expect((await status()).vaultRequest).toEqual({ enabled: true, remoteHost: '127.0.0.1', branch: 'main' });
    expect((await server.admin('POST', '/api/sync/now')).body.code).toBe('sync_off');
    expect(https.requests).toEqual([]);
  });

  it('only the admin answers, from this site', async () => {
    expect((await server.api('POST', '/api/sync/vault-request', { action: 'allow' })).status).toBe(401);
    const cookie = await server.login();
    const crossSite = await fetch(server.url + '/api/sync/vault-request', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json', origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ action: 'allow' }),
    });
    expect(crossSite.status).toBe(403);
    expect((await server.admin('POST', '/api/sync/vault-request', { action: 'push' })).status).toBe(400);
    expect((await status()).vaultRequest).not.toBeNull();
    expect(https.requests).toEqual([]);
  });

  it('Allow applies it, and a pass pushes the vault to the remote it named', async () => {
    const allowed = await server.admin('POST', '/api/sync/vault-request', { action: 'allow' });
    expect(allowed.status).toBe(200);
    expect(allowed.body.vaultRequest).toBeNull();
    expect(allowed.body.enabled).toBe(true);
    await waitFor(() => branchesOf('vault.git').includes('refs/heads/main'), 20_000);
    expect(filesOn('vault.git')).toContain('Private/Diary.md');
    const again = await server.admin('POST', '/api/sync/vault-request', { action: 'allow' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('no_vault_request');
  });
});

describe('a vault that later names another remote', () => {
  it('moves nothing: the next push goes where the admin allowed', async () => {
    await waitFor(async () => (await status()).state !== 'running', 10_000);
    await vaultAsks({ siteName: 'Moved', sync: { enabled: true, remoteUrl: https.url('other.git'), branch: 'main', intervalMinutes: 5 } });
    expect((await status()).vaultRequest).toEqual({ enabled: true, remoteHost: '127.0.0.1', branch: 'main' });
    expect((await server.admin('GET', '/api/settings')).body.siteName).toBe('Moved');
    expect((await server.admin('GET', '/api/settings')).body.sync.remoteUrl).toBe(https.url('vault.git'));
    await fs.writeFile(path.join(server.vault, 'New.md'), 'written after the move\n');
    const pushed = await server.admin('POST', '/api/sync/now');
    expect(pushed.body.outcome).toBe('pushed');
    expect(filesOn('vault.git')).toContain('New.md');
    expect(branchesOf('other.git')).toEqual([]);
    expect(https.requests.some((r) => r.includes('/other.git/'))).toBe(false);
  });

  it('Ignore drops the request; it stays dropped until the vault asks for something else', async () => {
    const ignored = await server.admin('POST', '/api/sync/vault-request', { action: 'ignore' });
    expect(ignored.status).toBe(200);
    expect(ignored.body.vaultRequest).toBeNull();
    // The same request arriving again (another edit of the vault's copy, a mirror pass) stays dropped.
    await vaultAsks({ siteName: 'Moved again', sync: { enabled: true, remoteUrl: https.url('other.git'), branch: 'main', intervalMinutes: 5 } });
    expect((await server.admin('GET', '/api/settings')).body.siteName).toBe('Moved again');
    expect((await status()).vaultRequest).toBeNull();
    await fs.writeFile(path.join(server.vault, 'Later.md'), 'after the ignore\n');
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toBe('pushed');
    expect(filesOn('vault.git')).toContain('Later.md');
    expect(branchesOf('other.git')).toEqual([]);

    await vaultAsks({ siteName: 'Moved again', sync: { enabled: true, remoteUrl: https.url('third.git'), branch: 'notes', intervalMinutes: 5 } });
    expect((await status()).vaultRequest).toEqual({ enabled: true, remoteHost: '127.0.0.1', branch: 'notes' });
    // The vault's changed copy is itself a change: it goes where backup went before.
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toBe('pushed');
    expect(filesOn('vault.git')).toContain('.service/settings.json');
    expect(branchesOf('third.git')).toEqual([]);
    expect(https.requests.some((r) => r.includes('/other.git/') || r.includes('/third.git/'))).toBe(false);
  });

  it('values sent back as they were shown decide nothing; the request stays', async () => {
    const shown = (await server.admin('GET', '/api/settings')).body;
    expect((await server.admin('PATCH', '/api/settings', { sync: { enabled: true, remoteUrl: shown.sync.remoteUrl, branch: 'main' } })).status).toBe(200);
    expect((await status()).vaultRequest).toEqual({ enabled: true, remoteHost: '127.0.0.1', branch: 'notes' });
  });

  it("the admin's own choice of remote in the form ends the request", async () => {
    const saved = await server.admin('PATCH', '/api/settings', { sync: { remoteUrl: https.url('other.git') } });
    expect(saved.status).toBe(200);
    expect(saved.body.sync).toMatchObject({ enabled: true, remoteUrl: https.url('other.git'), branch: 'main' });
    expect(saved.body.vaultRequest).toBeNull();
    expect((await status()).vaultRequest).toBeNull();
  });
});
