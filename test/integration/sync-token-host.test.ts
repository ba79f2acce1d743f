// spec 5.4: the access token only ever goes to the remote host it was saved for.
// Sync settings travel with the vault, so a vault (or its .service/settings.json)
// from elsewhere may point backup at another host: that host must never see the token.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readJson, writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, startHttpsGitServer, type HttpsGitServer } from '../helpers/git-remotes.ts';
import { serverForFile } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const TOKEN = `tok_${randomBytes(18).toString('hex')}`;
const USER = 'alice';
let https: HttpsGitServer;
let data: string;

const server = serverForFile(async () => {
  const base = await tempDir('vs-token-host-');
  await bareRepo(path.join(base, 'remotes', 'vault.git'));
  await fs.mkdir(path.join(base, 'certs'));
  https = await startHttpsGitServer({ root: path.join(base, 'remotes'), certDir: path.join(base, 'certs'), username: USER, token: TOKEN });
  const vault = path.join(base, 'vault');
  data = path.join(base, 'data');
  await writeFiles(vault, { 'Home.md': '# Home\n' });
  return { vault, data, env: { GIT_SSL_CAINFO: https.caFile } };
});
afterAll(async () => {
  await https?.close();
});

const tokenSent = (from: number) => https.authorizations.slice(from).some((h) => Buffer.from(h.replace(/^Basic /, ''), 'base64').toString().includes(TOKEN));

describe('the token is bound to the host it was saved for', () => {
  it('saving a token with a remote records that host', async () => {
    const res = await server.admin('PATCH', '/api/settings', {
      sync: { enabled: true, remoteUrl: https.url('vault.git'), username: USER, token: TOKEN },
    });
    expect(res.status).toBe(200);
    const creds = await readJson<any>(path.join(data, 'git-credentials.json'), null);
    expect(creds.host).toBe('127.0.0.1');
    // With its port: another server on the same host is another server.
    expect(creds.authority).toBe(new URL(https.url('vault.git')).host);
    expect((await server.admin('POST', '/api/sync/init')).status).toBe(200);
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toMatch(/pushed|nothing/);
    expect(tokenSent(0)).toBe(true);
  });

  it('a remote arriving with the settings file (not typed by the admin) never receives the token', async () => {
    const settingsFile = path.join(data, 'settings.json');
    const settings = await readJson<any>(settingsFile, {});
    settings.sync.remoteUrl = https.url('vault.git').replace('127.0.0.1', 'localhost');
    await writeJsonAtomic(settingsFile, settings);
    await server.admin('PUT', '/api/note?path=Home.md', { content: '# Home, edited\n' });
    const from = https.authorizations.length;
    const res = await server.admin('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('failed');
    expect(tokenSent(from)).toBe(false);
    expect(server.output()).toMatch(/saved for 127\.0\.0\.1/);
  });

  it('nor does one on the same host at another port', async () => {
    const settingsFile = path.join(data, 'settings.json');
    const settings = await readJson<any>(settingsFile, {});
    const elsewhere = new URL(https.url('vault.git'));
    elsewhere.port = String(Number(elsewhere.port) === 65535 ? 65534 : Number(elsewhere.port) + 1);
    settings.sync.remoteUrl = elsewhere.href;
    await writeJsonAtomic(settingsFile, settings);
    await server.admin('PUT', '/api/note?path=Home.md', { content: '# Home, edited on another port\n' });
    const res = await server.admin('POST', '/api/sync/now');
    expect(res.body.outcome).toBe('failed');
    expect(server.output()).toContain(`the remote now points at ${elsewhere.host}, so it is not sent`);
  });

  it('saving the username alone leaves the token bound where it was, whatever remote the settings name now', async () => {
    expect((await server.admin('PATCH', '/api/settings', { sync: { username: USER } })).status).toBe(200);
    expect((await readJson<any>(path.join(data, 'git-credentials.json'), null)).host).toBe('127.0.0.1');
    await server.admin('PUT', '/api/note?path=Home.md', { content: '# Home, edited again\n' });
    const from = https.authorizations.length;
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toBe('failed');
    expect(tokenSent(from)).toBe(false);
  });

  it('clearing the remote does not free the token for the next remote to arrive with the settings', async () => {
    expect((await server.admin('PATCH', '/api/settings', { sync: { remoteUrl: null } })).status).toBe(200);
    expect((await readJson<any>(path.join(data, 'git-credentials.json'), null)).host).toBe('127.0.0.1');
    const settingsFile = path.join(data, 'settings.json');
    const settings = await readJson<any>(settingsFile, {});
    settings.sync.remoteUrl = https.url('vault.git').replace('127.0.0.1', 'localhost');
    await writeJsonAtomic(settingsFile, settings);
    const from = https.authorizations.length;
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toBe('failed');
    expect(tokenSent(from)).toBe(false);
  });

  it('a new token saved alone stays bound where the old one was, not to a remote the settings brought', async () => {
    const settingsFile = path.join(data, 'settings.json');
    const settings = await readJson<any>(settingsFile, {});
    settings.sync.remoteUrl = https.url('vault.git').replace('127.0.0.1', 'localhost');
    await writeJsonAtomic(settingsFile, settings);
    expect((await server.admin('PATCH', '/api/settings', { sync: { token: TOKEN } })).status).toBe(200);
    expect((await readJson<any>(path.join(data, 'git-credentials.json'), null)).host).toBe('127.0.0.1');
    const from = https.authorizations.length;
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toBe('failed');
    expect(tokenSent(from)).toBe(false);
  });

  it('the admin moving the remote in the settings panel takes the token along', async () => {
    const res = await server.admin('PATCH', '/api/settings', { sync: { remoteUrl: https.url('vault.git').replace('127.0.0.1', 'localhost') } });
    expect(res.status).toBe(200);
    const from = https.authorizations.length;
    expect((await server.admin('POST', '/api/sync/now')).body.outcome).toBe('pushed');
    expect(tokenSent(from)).toBe(true);
  });
});
