// No commit while git is midway through its user's operation (a merge stopped on conflicts,
// a rebase, a cherry-pick, a stash pop's unresolved conflicts): Snapshot now answers 409 and a
// sync pass fails, each saying how to finish or abort it; nothing is staged, committed or
// pushed, and the operation is left as it was. And a remote's refusal keeps its reason: the
// `remote:` lines of a pre-receive hook reach the answer, the panel and sync-last.json.
// Real git, bare remotes reached through an ssh stand-in (SERVICE_GIT_SSH_COMMAND).
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

const ID = ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.org'];
/** git as the owner runs it by hand in a clone or in the vault; a conflict's exit code is expected. */
const byHand = (cwd: string, ...args: string[]) => git(cwd, ...ID, ...args);
const byHandMayFail = (cwd: string, ...args: string[]) => {
  try {
    byHand(cwd, ...args);
  } catch {
    // git stops with a conflict: what the test sets up.
  }
};

async function start(vault: string, data: string, remoteUrl: string): Promise<TestServer> {
  await fs.mkdir(data, { recursive: true });
  await writeJsonAtomic(path.join(data, 'settings.json'), { sync: { enabled: true, remoteUrl, branch: 'main', pullFirst: true, intervalMinutes: 0 } });
  const s = await startServer({ vault, data, env: { SERVICE_GIT_SSH_COMMAND: ssh.command } });
  servers.push(s);
  await waitFor(async () => (await s.admin('GET', '/api/sync/status')).body.state !== 'running');
  return s;
}

beforeAll(async () => {
  base = await tempDir('vs-sync-operation-');
  ssh = await sshStandIn(path.join(base, 'ssh'));
});

afterAll(async () => {
  for (const s of servers) await s.stop();
  await cleanupTempDirs();
});

describe('no commit while git is midway through its user’s operation', () => {
  let a: TestServer;
  let remote: string;
  let clone: string;
  const remoteHead = () => git(remote, 'rev-parse', 'main').trim();
  const head = () => git(a.vault, 'rev-parse', 'HEAD').trim();
  const unmerged = () => git(a.vault, 'ls-files', '--unmerged').trim();
  const gitDir = (name: string) => path.join(a.vault, '.git', name);

  /** Snapshot now and Sync now are both refused for `reason`; nothing moves, the operation stays. */
  async function bothRefused(reason: string, sentence: RegExp): Promise<void> {
    const before = { head: head(), remote: remoteHead(), unmerged: unmerged(), index: await fs.readFile(gitDir('index')) };
    const snap = await a.admin('POST', '/api/sync/snapshot');
    expect(snap.status).toBe(409);
    expect(snap.body).toMatchObject({ code: 'operation_in_progress', reason });
    expect(snap.body.error).toMatch(sentence);
    const pass = await a.admin('POST', '/api/sync/now');
    expect(pass.status).toBe(200);
    expect(pass.body.outcome).toBe('failed');
    expect(pass.body.message).toMatch(sentence);
    expect(pass.body.words).toEqual([{ key: `operation_in_progress_${reason}` }]);
    expect(head()).toBe(before.head);
    expect(remoteHead()).toBe(before.remote);
    expect(unmerged()).toBe(before.unmerged);
    expect(await fs.readFile(gitDir('index'))).toEqual(before.index);
    // The panel says it before any pass too, and the failed pass is the red state.
    const status = (await a.admin('GET', '/api/sync/status')).body;
    expect(status.operation).toMatchObject({ code: 'operation_in_progress', reason });
    expect(status.operation.message).toMatch(sentence);
    expect(status.state).toBe('failed');
  }

  beforeAll(async () => {
    remote = await bareRepo(path.join(base, 'remote.git'));
    await writeFiles(path.join(base, 'vaultA'), { 'Beta.md': 'one\ntwo\nthree\n', 'Home.md': '# Home\n' });
    a = await start(path.join(base, 'vaultA'), path.join(base, 'dataA'), `git@localhost:${remote}`);
    expect((await a.admin('POST', '/api/sync/init')).status).toBe(200);
    expect((await a.admin('POST', '/api/sync/now')).body.outcome).toBe('pushed');
    // Another clone changes the same line and pushes; this vault changes it too: diverged.
    clone = path.join(base, 'clone');
    git(base, 'clone', '-q', remote, clone);
    await fs.writeFile(path.join(clone, 'Beta.md'), 'one\ntwo from the clone\nthree\n');
    byHand(clone, 'commit', '-q', '-am', 'clone edits Beta');
    byHand(clone, 'push', '-q', 'origin', 'HEAD:main');
    await fs.writeFile(path.join(a.vault, 'Beta.md'), 'one\ntwo from the admin\nthree\n');
    expect((await a.admin('POST', '/api/sync/snapshot')).body.committed).toBe(true);
    const diverged = await a.admin('POST', '/api/sync/now');
    expect(diverged.body.outcome).toBe('diverged');
  });

  it('a merge stopped on conflicts: Snapshot now and a sync pass refuse, MERGE_HEAD and the conflict stay, the remote is unchanged', async () => {
    byHandMayFail(a.vault, 'merge', 'origin/main');
    await expect(fs.stat(gitDir('MERGE_HEAD'))).resolves.toBeTruthy();
    expect(await fs.readFile(path.join(a.vault, 'Beta.md'), 'utf8')).toContain('<<<<<<<');
    await bothRefused('merge', /merge is in progress.*git merge --abort/);
    await expect(fs.stat(gitDir('MERGE_HEAD'))).resolves.toBeTruthy();
    expect(unmerged()).toContain('Beta.md');
    expect(git(remote, 'show', 'main:Beta.md')).not.toContain('<<<<<<<');
    // The owner's own commit still finds their merge.
    expect(git(a.vault, 'status')).toMatch(/You have unmerged paths/);
  });

  it('resolved in the files but not committed: still the owner’s merge to conclude', async () => {
    await fs.writeFile(path.join(a.vault, 'Beta.md'), 'one\ntwo from both\nthree\n');
    byHand(a.vault, 'add', 'Beta.md');
    expect(unmerged()).toBe('');
    await bothRefused('merge', /merge is in progress/);
    byHand(a.vault, 'merge', '--abort');
  });

  it('a rebase and a cherry-pick stopped on conflicts, and a stash pop’s unresolved conflicts, are refused alike', async () => {
    byHandMayFail(a.vault, 'rebase', 'origin/main');
    await expect(fs.stat(gitDir('rebase-merge'))).resolves.toBeTruthy();
    await bothRefused('rebase', /rebase is in progress.*git rebase --abort/);
    byHand(a.vault, 'rebase', '--abort');

    byHandMayFail(a.vault, 'cherry-pick', 'origin/main');
    await expect(fs.stat(gitDir('CHERRY_PICK_HEAD'))).resolves.toBeTruthy();
    await bothRefused('cherry_pick', /cherry-pick is in progress.*git cherry-pick --abort/);
    byHand(a.vault, 'cherry-pick', '--abort');

    await fs.writeFile(path.join(a.vault, 'Beta.md'), 'one\ntwo stashed\nthree\n');
    byHand(a.vault, 'stash', '-q');
    await fs.writeFile(path.join(a.vault, 'Beta.md'), 'one\ntwo meanwhile\nthree\n');
    byHand(a.vault, 'commit', '-q', '-am', 'meanwhile');
    byHandMayFail(a.vault, 'stash', 'pop');
    expect(unmerged()).toContain('Beta.md');
    await bothRefused('unmerged', /unresolved conflicts/);
    byHand(a.vault, 'checkout', 'HEAD', '--', 'Beta.md');
    byHand(a.vault, 'stash', 'drop', '-q');
  });

  it('once the owner has merged and committed by hand, the pass pushes the merge', async () => {
    byHandMayFail(a.vault, 'merge', 'origin/main');
    await fs.writeFile(path.join(a.vault, 'Beta.md'), 'one\ntwo from both\nthree\n');
    byHand(a.vault, 'add', 'Beta.md');
    byHand(a.vault, 'commit', '-q', '--no-edit');
    expect((await a.admin('GET', '/api/sync/status')).body.operation).toBeNull();
    const pass = await a.admin('POST', '/api/sync/now');
    expect(pass.body.outcome).toBe('pushed');
    expect(git(remote, 'show', 'main:Beta.md')).toBe('one\ntwo from both\nthree\n');
    expect(git(remote, 'log', '--format=%s', 'main')).toMatch(/Merge remote-tracking branch 'origin\/main'/);
    expect((await a.admin('GET', '/api/sync/status')).body.state).not.toBe('failed');
  });
});

describe('a push the remote refuses keeps the remote’s reason', () => {
  let r: TestServer;
  let remote: string;

  beforeAll(async () => {
    remote = await bareRepo(path.join(base, 'guarded.git'));
    // As GitHub's push protection answers: its reason only on `remote:` lines. One names a URL with user info.
    await fs.writeFile(
      path.join(remote, 'hooks', 'pre-receive'),
      '#!/bin/sh\necho "error: GH013: Repository rule violations found for refs/heads/main."\necho "- Push cannot contain secrets"\necho "  see https://bob:hunter2secret@example.org/help"\nexit 1\n',
      { mode: 0o755 },
    );
    await writeFiles(path.join(base, 'vaultR'), { 'Home.md': '# Home\n' });
    r = await start(path.join(base, 'vaultR'), path.join(base, 'dataR'), `git@localhost:${remote}`);
    expect((await r.admin('POST', '/api/sync/init')).status).toBe(200);
  });

  it('the answer, the status and sync-last.json carry the remote’s lines, scrubbed, after git’s own', async () => {
    const pass = await r.admin('POST', '/api/sync/now');
    expect(pass.body.outcome).toBe('failed');
    expect(pass.body.error).toMatch(/^! \[remote rejected\] HEAD -> main \(pre-receive hook declined\)\n/);
    for (const said of [pass.body.error, pass.body.message, (await r.admin('GET', '/api/sync/status')).body.last.error]) {
      expect(said).toContain('GH013: Repository rule violations found for refs/heads/main.');
      expect(said).toContain('- Push cannot contain secrets');
      expect(said).not.toContain('hunter2secret');
    }
    expect(pass.body.words).toContainEqual({ key: 'remote_said', lines: expect.stringContaining('Push cannot contain secrets') });
    const kept = JSON.parse(await fs.readFile(path.join(r.data, 'sync-last.json'), 'utf8'));
    expect(kept.error).toContain('remote: - Push cannot contain secrets');
    expect(JSON.stringify(kept)).toContain('GH013');
    expect(JSON.stringify(kept)).not.toContain('hunter2secret');
    expect(git(remote, 'for-each-ref').trim()).toBe('');
    // One log line for the pass: a remote cannot write lines of its own into the server's log.
    expect(r.output()).toMatch(/sync \(manual\) failed: .*GH013.* \/ - Push cannot contain secrets/);
  });
});
