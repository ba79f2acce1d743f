// A vault's nested repository names a remote of its own, in a config no check of ours reads
// (its own `.git/config`: a URL, a proxy, TLS checks off). Recorded as a gitlink in the
// vault's history, and asked for by the vault (`.gitmodules`' fetchRecurseSubmodules, the
// vault's push.recurseSubmodules), git's fetch and push would go on into it: a second
// fetch or push, to the address the vault chose, with the token's askpass in its
// environment. The backup talks to the remote the admin allowed and nothing else (CONTRACT
// §11, §14). Real remotes over `git http-backend`, real git.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, git, startHttpsGitServer, type HttpsGitServer } from '../helpers/git-remotes.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const ID = ['-c', 'user.name=t', '-c', 'user.email=t@t'];
let remotes: string;
let https: HttpsGitServer;
let server: TestServer;

const refsOf = (repo: string) => git(path.join(remotes, repo), 'for-each-ref', '--format=%(refname)').split('\n').filter(Boolean);

beforeAll(async () => {
  const base = await tempDir('vs-submodule-remotes-');
  remotes = path.join(base, 'remotes');
  await bareRepo(path.join(remotes, 'vault.git'));
  await bareRepo(path.join(remotes, 'nested.git'));
  await fs.mkdir(path.join(base, 'certs'));
  https = await startHttpsGitServer({ root: remotes, certDir: path.join(base, 'certs'), username: 'anyone', token: null });

  // The nested repository: on the vault's host, its own remote named in its own config,
  // and a commit on no branch that its config would push.
  const vault = path.join(base, 'vault');
  const nested = path.join(vault, 'Nested');
  await writeFiles(nested, { 'Inside.md': 'inside\n' });
  git(nested, 'init', '-q', '--initial-branch=main');
  git(nested, ...ID, 'add', '-A');
  git(nested, ...ID, 'commit', '-q', '-m', 'nested');
  git(nested, 'push', '-q', path.join(remotes, 'nested.git'), 'main');
  git(nested, 'remote', 'add', 'origin', https.url('nested.git'));
  git(nested, 'config', 'remote.origin.push', '+HEAD:refs/heads/carried-off');

  // The vault: the nested repository recorded as a submodule that asks to be fetched with it.
  await writeFiles(vault, {
    'Home.md': '# Home\n',
    '.gitmodules': `[submodule "Nested"]\n\tpath = Nested\n\turl = ${https.url('nested.git')}\n\tfetchRecurseSubmodules = true\n`,
  });
  git(vault, 'init', '-q', '--initial-branch=main');
  git(vault, ...ID, 'add', '-A');
  git(vault, ...ID, 'commit', '-q', '-m', 'first');
  git(vault, 'push', '-q', path.join(remotes, 'vault.git'), 'main');
  git(vault, 'config', 'push.recurseSubmodules', 'on-demand');
  git(vault, 'config', 'fetch.recurseSubmodules', 'true');
  // A commit of the nested repository on no branch, recorded by a vault commit not yet pushed:
  // an on-demand push would push it with the nested repository's own refspec.
  await fs.writeFile(path.join(nested, 'Inside.md'), 'inside, later\n');
  git(nested, 'checkout', '-q', '--detach');
  git(nested, ...ID, 'commit', '-q', '-am', 'on no branch');
  git(vault, ...ID, 'add', 'Nested');
  git(vault, ...ID, 'commit', '-q', '-m', 'nested moved');

  const data = path.join(base, 'data');
  await fs.mkdir(data, { recursive: true });
  await writeJsonAtomic(path.join(data, 'settings.json'), { sync: { enabled: true, remoteUrl: https.url('vault.git'), branch: 'main', pullFirst: true, intervalMinutes: 0 } });
  server = await startServer({ vault, data, env: { GIT_SSL_CAINFO: https.caFile } });
  // The pass every server runs at start is done before a test asks for one.
  for (let i = 0; i < 300 && !/sync \(start\)/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(server.output()).toMatch(/sync \(start\)/);
});

afterAll(async () => {
  await server?.stop();
  await https?.close();
  await cleanupTempDirs();
});

describe('a nested repository with a remote of its own', () => {
  it('a pass fetches and pushes the vault with its remote, and never reaches into the nested repository', async () => {
    await fs.writeFile(path.join(server.vault, 'Today.md'), 'A change to back up.\n');
    const answer = (await server.admin('POST', '/api/sync/now')).body;
    expect(answer.outcome, JSON.stringify(answer)).toBe('pushed');
    // Positive: the vault's remote was fetched from and pushed to, this pass's change on it.
    expect(https.requests.some((r) => r.includes('/vault.git/') && r.includes('git-upload-pack'))).toBe(true);
    expect(https.requests.some((r) => r.includes('/vault.git/') && r.includes('git-receive-pack'))).toBe(true);
    expect(git(path.join(remotes, 'vault.git'), 'ls-tree', '-r', '--name-only', 'main').split('\n')).toContain('Today.md');
    // The nested repository's remote heard nothing: no fetch, no push, no token.
    expect(https.requests.filter((r) => r.includes('/nested.git/'))).toEqual([]);
    expect(refsOf('nested.git')).toEqual(['refs/heads/main']);
  });
});
