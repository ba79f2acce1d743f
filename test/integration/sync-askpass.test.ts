// spec 5.4: the token goes only to the remote host it was saved for. The vault's own
// .git/config is input: a `url.*.insteadOf` there can send a push to another host, and with
// `credential.useHttpPath` git's prompt names that host's URL with its path, which a
// reviewer made end in `//<our host>`. The askpass script answers only the two prompts for
// the remote's own authority, word for word (shared/git-run.ts runnerFiles; the prompts it
// tells apart are in test/unit/git-askpass.test.ts: here the remote has a port, which git
// encodes in a path, so the old script refused this one too). Run with SERVICE_GIT_HOOKS=on,
// where git takes the vault's configuration as it is and the askpass script is the wall;
// with it off, such a setting stops git before it asks anyone (git-vault-config.test.ts).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { bareRepo, startHttpsGitServer, type HttpsGitServer } from '../helpers/git-remotes.ts';
import { serverForFile } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const TOKEN = `tok_${randomBytes(18).toString('hex')}`;
const USER = 'alice';
let ours: HttpsGitServer;
let theirs: HttpsGitServer;

const server = serverForFile(async () => {
  const base = await tempDir('vs-askpass-');
  await bareRepo(path.join(base, 'ours', 'vault.git'));
  await bareRepo(path.join(base, 'theirs', 'vault.git'));
  await fs.mkdir(path.join(base, 'certs-ours'));
  await fs.mkdir(path.join(base, 'certs-theirs'));
  ours = await startHttpsGitServer({ root: path.join(base, 'ours'), certDir: path.join(base, 'certs-ours'), username: USER, token: TOKEN });
  theirs = await startHttpsGitServer({ root: path.join(base, 'theirs'), certDir: path.join(base, 'certs-theirs'), username: 'nobody', token: 'never' });
  // Both trusted: the other host is as trusted as a real one with a valid certificate would be.
  const bundle = path.join(base, 'ca-bundle.pem');
  await fs.writeFile(bundle, (await fs.readFile(ours.caFile, 'utf8')) + (await fs.readFile(theirs.caFile, 'utf8')));
  const vault = path.join(base, 'vault');
  await writeFiles(vault, { 'Home.md': '# Home\n' });
  return { vault, data: path.join(base, 'data'), env: { GIT_SSL_CAINFO: bundle, SERVICE_GIT_HOOKS: 'on' } };
});
afterAll(async () => {
  await Promise.all([ours?.close(), theirs?.close()]);
});

const holdsToken = (headers: string[]) => headers.some((h) => Buffer.from(h.replace(/^Basic /, ''), 'base64').toString().includes(TOKEN));

it("a push that the vault's config sends to another host, whose URL path names ours, never gives that host the token", async () => {
  const remote = ours.url('vault.git');
  expect((await server.admin('PATCH', '/api/settings', { sync: { enabled: true, remoteUrl: remote, username: USER, token: TOKEN } })).status).toBe(200);
  expect((await server.admin('POST', '/api/sync/init')).status).toBe(200);
  const first = await server.admin('POST', '/api/sync/now');
  expect(first.body.outcome, JSON.stringify(first.body)).toMatch(/pushed|nothing/);
  // The token did reach its own host: the prompts are answered there.
  expect(holdsToken(ours.authorizations)).toBe(true);

  const ourAuthority = new URL(remote).host;
  const elsewhere = `${theirs.url('a')}//${ourAuthority}`;
  const config = (...args: string[]) => execFileSync('git', ['config', ...args], { cwd: server.vault });
  config('credential.useHttpPath', 'true');
  config(`url.${elsewhere}.insteadOf`, remote);
  await server.admin('PUT', '/api/note?path=Home.md', { content: '# Home, edited\n' });
  const res = await server.admin('POST', '/api/sync/now');
  expect(res.body.outcome).toBe('failed');
  // The other host was asked (the rewrite took effect) and got no token.
  expect(theirs.refused).toBeGreaterThan(0);
  expect(holdsToken(theirs.authorizations)).toBe(false);
}, 60_000);
