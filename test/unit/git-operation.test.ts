// What git is midway through, read as `git status` reads it, on real repositories: each
// operation its user can leave stopped, and none for a bisect (git commits through one).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { gitOperation } from '../../admin/git/repo.ts';
import { GitOperationError, operationRefusal } from '../../admin/sync/git-operation.ts';
import { git } from '../helpers/git-remotes.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

const ID = ['-c', 'user.name=Owner', '-c', 'user.email=owner@example.org'];
let repo: string;
const run = (...args: string[]) => git(repo, ...ID, ...args);
const stopsMidway = (...args: string[]) => {
  try {
    run(...args);
  } catch {
    // The conflict the test sets up.
  }
};
const write = (text: string) => fs.writeFile(path.join(repo, 'Note.md'), text);
async function commit(text: string, subject: string): Promise<string> {
  await write(text);
  run('commit', '-q', '-am', subject);
  return run('rev-parse', 'HEAD').trim();
}

beforeEach(async () => {
  repo = await tempDir('vs-git-operation-');
  git(repo, 'init', '-q', '--initial-branch=main');
  await write('one\n');
  run('add', '-A');
  run('commit', '-q', '-m', 'first');
});
afterAll(cleanupTempDirs);

describe('the operation git stopped midway', () => {
  it('none in a clean repository, nor in one with plain edits', async () => {
    expect(await gitOperation(repo)).toBeNull();
    await write('edited\n');
    expect(await operationRefusal(repo)).toBeNull();
  });

  it('a revert stopped on a conflict', async () => {
    const older = await commit('two\n', 'two');
    await commit('three\n', 'three');
    stopsMidway('revert', '--no-edit', older);
    expect(await gitOperation(repo)).toBe('revert');
    const refusal = await operationRefusal(repo);
    expect(refusal).toBeInstanceOf(GitOperationError);
    expect(refusal!.code).toBe('operation_in_progress');
    expect(refusal!.message).toContain('git revert --abort');
  });

  it('git am stopped on a patch that does not apply', async () => {
    const base = run('rev-parse', 'HEAD').trim();
    await commit('from the patch\n', 'patch');
    const patch = path.join(repo, '.git', 'change.patch');
    await fs.writeFile(patch, run('format-patch', '-1', '--stdout'));
    run('reset', '-q', '--hard', base);
    await commit('in the way\n', 'in the way');
    stopsMidway('am', patch);
    expect(await gitOperation(repo)).toBe('am');
  });

  it('a cherry-pick of several commits, between two of them', async () => {
    const base = run('rev-parse', 'HEAD').trim();
    run('checkout', '-q', '-b', 'side');
    await commit('side one\n', 'side one');
    await fs.writeFile(path.join(repo, 'Other.md'), 'other\n');
    run('add', 'Other.md');
    run('commit', '-q', '-m', 'other');
    run('checkout', '-q', 'main');
    await commit('main one\n', 'main one');
    stopsMidway('cherry-pick', `${base}..side`);
    expect(await gitOperation(repo)).toBe('cherry_pick');
    // The owner commits the resolution but has not yet said --continue: still their cherry-pick.
    await write('both\n');
    run('add', 'Note.md');
    run('commit', '-q', '--no-edit');
    await expect(fs.stat(path.join(repo, '.git', 'CHERRY_PICK_HEAD'))).rejects.toThrow();
    expect(await gitOperation(repo)).toBe('cherry_pick');
  });

  it('a bisect is none: git itself commits through it', async () => {
    await commit('two\n', 'two');
    run('bisect', 'start', 'HEAD', 'HEAD~1');
    await expect(fs.stat(path.join(repo, '.git', 'BISECT_LOG'))).resolves.toBeTruthy();
    expect(await gitOperation(repo)).toBeNull();
  });
});
