// spec 3.4, Appendix A: the data directory is never taken from git. Inside the vault it is
// ignored, but git writes over ignored files when a commit it checks out holds them: a
// remote whose commits hold `svc/admin.json` replaced the admin's password hash (and the
// token, and the settings) with whatever its pusher chose. The pass refuses such a pull
// before any file changes.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { syncSteps } from '../../admin/sync/pass.ts';
import { bareRepo, git, sshStandIn } from '../helpers/git-remotes.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const id = ['-c', 'user.name=t', '-c', 'user.email=t@t'];

async function setUp(dataDirRel = 'svc') {
  const base = await tempDir('vs-sync-data-');
  const remote = await bareRepo(path.join(base, 'remote.git'));
  const ssh = await sshStandIn(path.join(base, 'ssh'));
  const vault = path.join(base, 'vault');
  await writeFiles(vault, { 'Note.md': 'one\n', 'sub/keep.md': 'kept\n', '.gitignore': `/${dataDirRel}/\n`, [`${dataDirRel}/admin.json`]: '{"hash":"the admin\'s own"}\n' });
  git(vault, 'init', '-q', '--initial-branch=main');
  git(vault, 'add', '-A');
  git(vault, ...id, 'commit', '-q', '-m', 'one');
  git(vault, 'push', '-q', remote, 'main');
  const other = path.join(base, 'other');
  git(base, 'clone', '-q', remote, other);
  const pass = () =>
    syncSteps(
      { vaultDir: vault, dataDirRel },
      { remoteUrl: `git@localhost:${remote}`, branch: 'main', pullFirst: true, auth: { token: null, username: null, sshCommand: ssh.command } },
    );
  return { vault, other, pass };
}

describe('a pull into a vault holding the data directory', () => {
  it('whose commits hold a file of the data directory is refused, and no file changes', async () => {
    const { vault, other, pass } = await setUp();
    await writeFiles(other, { 'svc/admin.json': '{"hash":"the pusher\'s"}\n', 'Note.md': 'two\n' });
    git(other, 'add', '-f', '-A');
    git(other, ...id, 'commit', '-q', '-m', 'plant');
    git(other, 'push', '-q', 'origin', 'main');
    const head = git(vault, 'rev-parse', 'HEAD');
    const result = await pass();
    expect(result.ok).toBe(false);
    expect(result.message).toContain('svc/admin.json');
    expect(await fs.readFile(path.join(vault, 'svc/admin.json'), 'utf8')).toBe('{"hash":"the admin\'s own"}\n');
    expect(await fs.readFile(path.join(vault, 'Note.md'), 'utf8')).toBe('one\n');
    expect(git(vault, 'rev-parse', 'HEAD')).toBe(head);
  }, 60_000);

  it('whose commits turn a folder holding the data directory into a file is refused, and the data directory stays', async () => {
    // git takes an ignored folder for expendable: making `sub` a file removed `sub/svc/` whole.
    const { vault, other, pass } = await setUp('sub/svc');
    git(other, 'rm', '-r', '-q', 'sub');
    await writeFiles(other, { sub: 'a file now\n' });
    git(other, 'add', '-A');
    git(other, ...id, 'commit', '-q', '-m', 'folder to file');
    git(other, 'push', '-q', 'origin', 'main');
    const result = await pass();
    expect(result.ok).toBe(false);
    expect(result.message).toMatch(/\bsub\b/);
    expect(await fs.readFile(path.join(vault, 'sub/svc/admin.json'), 'utf8')).toBe('{"hash":"the admin\'s own"}\n');
    expect(await fs.readFile(path.join(vault, 'sub/keep.md'), 'utf8')).toBe('kept\n');
  }, 60_000);

  it('whose commits change only notes is taken as before', async () => {
    const { vault, other, pass } = await setUp();
    await writeFiles(other, { 'Note.md': 'two\n', 'svcs/not-the-data.md': 'a folder named alike\n' });
    git(other, 'add', '-A');
    git(other, ...id, 'commit', '-q', '-m', 'two');
    git(other, 'push', '-q', 'origin', 'main');
    const result = await pass();
    expect(result.ok, result.message).toBe(true);
    expect(await fs.readFile(path.join(vault, 'Note.md'), 'utf8')).toBe('two\n');
    expect(await fs.readFile(path.join(vault, 'svc/admin.json'), 'utf8')).toBe('{"hash":"the admin\'s own"}\n');
  }, 60_000);

  it('whose commits change a note edited here since the last sync reports the histories diverged, names it, and keeps both texts', async () => {
    // git's fast-forward refuses to overwrite the edit: the pass used to fail with git's line on every try.
    const { vault, other, pass } = await setUp();
    await writeFiles(other, { 'Note.md': 'theirs\n' });
    git(other, 'add', '-A');
    git(other, ...id, 'commit', '-q', '-m', 'theirs');
    git(other, 'push', '-q', 'origin', 'main');
    await writeFiles(vault, { 'Note.md': 'mine\n' });
    const result = await pass();
    expect(result.ok).toBe(false);
    expect(result.outcome).toBe('diverged');
    expect(result.message).toMatch(/Note\.md.*nothing was pulled, committed or pushed/);
    expect(await fs.readFile(path.join(vault, 'Note.md'), 'utf8')).toBe('mine\n');
    expect(git(other, 'show', 'HEAD:Note.md').trim()).toBe('theirs');
  }, 60_000);
});
