// CONTRACT §11 and spec 5.4, against a hostile vault's own `.git/config` (a reviewer's
// finds): settings that pins cannot neutralise once ran a program (`protocol.ext.allow`
// with a `pushurl`), pushed the data directory with the token (`core.worktree`), handed
// the token to a proxy (`http.proxy`), or sent the vault to a second URL. Each now stops
// git for the vault, with the setting named, before git talks to anyone; the same sync
// pushes once the setting is gone.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeCredentials } from '../../admin/git/credentials.ts';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, git, startHttpsGitServer, type HttpsGitServer } from '../helpers/git-remotes.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const TOKEN = `tok_${randomBytes(18).toString('hex')}`;
const USER = 'alice';

let base: string;
let https: HttpsGitServer;
let elsewhere: HttpsGitServer;
let remote: string;
let server: TestServer;
let include: string;
let proxy: net.Server;
let proxyConnections = 0;

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(() => true, () => false);
}

/** Puts `text` in the file the vault's .git/config includes, edits a note, runs Sync now. */
async function syncWith(text: string) {
  await fs.writeFile(include, text);
  await writeFiles(server.vault, { 'Notes/A.md': `edit ${randomBytes(4).toString('hex')}\n` });
  return (await server.admin('POST', '/api/sync/now')).body;
}

beforeAll(async () => {
  base = await tempDir('vs-git-config-');
  const remotes = path.join(base, 'remotes');
  remote = await bareRepo(path.join(remotes, 'vault.git'));
  await fs.mkdir(path.join(base, 'certs'));
  await fs.mkdir(path.join(base, 'certs2'));
  https = await startHttpsGitServer({ root: remotes, certDir: path.join(base, 'certs'), username: USER, token: TOKEN });
  elsewhere = await startHttpsGitServer({ root: remotes, certDir: path.join(base, 'certs2'), username: USER, token: 'other' });
  proxy = net.createServer((socket) => {
    proxyConnections++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));

  const vault = path.join(base, 'vault');
  await writeFiles(vault, { 'Home.md': '# Home\n', 'Notes/A.md': 'one\n' });
  git(vault, 'init', '-q', '--initial-branch=main');
  git(vault, 'remote', 'add', 'origin', https.url('vault.git'));
  include = path.join(base, 'included.cfg');
  await fs.writeFile(include, '');
  await fs.appendFile(path.join(vault, '.git', 'config'), `[include]\n\tpath = ${include}\n`);
  const data = path.join(base, 'data');
  await fs.mkdir(data);
  await writeJsonAtomic(path.join(data, 'settings.json'), {
    sync: { enabled: true, remoteUrl: https.url('vault.git'), branch: 'main', pullFirst: true, intervalMinutes: 0, username: USER },
  });
  await writeCredentials(data, { token: TOKEN, username: USER, host: '127.0.0.1' });
  server = await startServer({ vault, data, env: { GIT_SSL_CAINFO: https.caFile } });
  await waitFor(async () => (await server.admin('GET', '/api/sync/status')).body.state !== 'running', 20_000);
});

afterAll(async () => {
  await server?.stop();
  await https?.close();
  await elsewhere?.close();
  proxy?.close();
  await cleanupTempDirs();
});

describe('a setting of the vault’s git config that could run a program or send data elsewhere stops git, named', () => {
  it('protocol.ext.allow with an ext:: pushurl: refused, and the program never runs', async () => {
    const marker = path.join(base, 'PWNED-ext');
    const res = await syncWith(`[protocol "ext"]\n\tallow = always\n[remote "origin"]\n\tpushurl = ext::sh -c touch% ${marker}\n`);
    expect(res.outcome).toBe('failed');
    expect(res.message).toMatch(/protocol\.ext\.allow/);
    expect(await exists(marker)).toBe(false);
  });

  it('url.*.insteadOf leading to another server: refused before that server is asked anything', async () => {
    const res = await syncWith(`[url "${elsewhere.url('')}"]\n\tinsteadOf = ${https.url('')}\n`);
    expect(res.outcome).toBe('failed');
    expect(res.message).toMatch(/insteadof/);
    expect(elsewhere.refused + elsewhere.authorizations.length + elsewhere.authenticated.length).toBe(0);
  });

  it('http.proxy with sslVerify off: refused, and the proxy gets no connection', async () => {
    const { port } = proxy.address() as net.AddressInfo;
    const res = await syncWith(`[http]\n\tproxy = http://127.0.0.1:${port}\n\tsslVerify = false\n`);
    expect(res.outcome).toBe('failed');
    expect(res.message).toMatch(/http\.proxy/);
    expect(proxyConnections).toBe(0);
  });

  it('core.worktree naming the data directory: refused, and nothing of it reaches the remote', async () => {
    const res = await syncWith(`[core]\n\tworktree = ${path.join(base, 'data')}\n`);
    expect(res.outcome).toBe('failed');
    expect(res.message).toMatch(/core\.worktree/);
    const pushed = git(remote, 'for-each-ref', '--format=%(refname)');
    if (pushed.includes('refs/heads/main')) expect(git(remote, 'ls-tree', '-r', '--name-only', 'main')).not.toMatch(/^(git-credentials|settings|created)\.json$/m);
  });

  it('a second remote.origin.url (a push goes to each): refused', async () => {
    const res = await syncWith(`[remote "origin"]\n\turl = ${elsewhere.url('vault.git')}\n`);
    expect(res.outcome).toBe('failed');
    expect(res.message).toMatch(/remote\.origin\.url/);
    expect(elsewhere.refused + elsewhere.authorizations.length).toBe(0);
  });

  it("a partial clone's promisor remote with a program as its upload-pack: refused, and reading history never runs it", async () => {
    const marker = path.join(base, 'PWNED-promisor');
    // A note whose old text is missing from the object store, as in a partial clone.
    await writeFiles(server.vault, { 'Notes/Lazy.md': 'lazy text\n' });
    git(server.vault, 'add', 'Notes/Lazy.md');
    git(server.vault, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'lazy');
    const commit = git(server.vault, 'rev-parse', 'HEAD').trim();
    const blob = git(server.vault, 'rev-parse', 'HEAD:Notes/Lazy.md').trim();
    const object = path.join(server.vault, '.git', 'objects', blob.slice(0, 2), blob.slice(2));
    await fs.rm(object, { force: true });
    // Each setting is one a clone may write; together git fetches the missing text from `lazy` by running its upload-pack.
    await fs.writeFile(include, `[core]\n\trepositoryformatversion = 1\n[extensions]\n\tpartialClone = lazy\n[remote "lazy"]\n\turl = ${path.join(base, 'nowhere')}\n\tpromisor = true\n\tuploadpack = touch ${marker}; false\n`);
    try {
      const history = await server.admin('GET', '/api/history?path=Notes%2FLazy.md');
      const text = await server.admin('GET', `/api/history/blob?path=Notes%2FLazy.md&sha=${commit}`);
      // Positive: both were answered, without the text.
      expect(history.status).toBeGreaterThanOrEqual(200);
      expect(text.status).not.toBe(200);
      expect(await exists(marker)).toBe(false);
      const res = (await server.admin('POST', '/api/sync/now')).body;
      expect(res.outcome).toBe('failed');
      expect(res.message).toMatch(/partialclone|promisor/i);
      expect(await exists(marker)).toBe(false);
    } finally {
      await fs.writeFile(include, '');
      git(server.vault, 'hash-object', '-w', 'Notes/Lazy.md');
    }
  });

  it('control: with the setting gone, the same sync pushes, and the token went only to the remote', async () => {
    const res = await syncWith('');
    expect(res.outcome).toBe('pushed');
    expect(git(remote, 'ls-tree', '-r', '--name-only', 'main')).toMatch(/Notes\/A\.md/);
    expect(git(remote, 'ls-tree', '-r', '--name-only', 'main')).not.toMatch(/git-credentials/);
    expect(proxyConnections).toBe(0);
  });
});
