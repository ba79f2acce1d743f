// Small questions and changes over one vault repository, each one git call through
// run.ts: is it a repository, where HEAD is, what is uncommitted, stage, commit.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isTempFile, TEMP_PREFIX } from '../../shared/atomic-write.ts';
import { runGit, type GitOptions } from '../../shared/git-run.ts';
import { readRegularFile } from '../../shared/vault-read.ts';

/** spec Appendix A: commits use this identity when git has none configured. */
export const DEFAULT_IDENTITY = { name: 'service', email: 'service@localhost' };

type Opts = Omit<GitOptions, 'cwd'>;

/** The vault is a repository when it has its own `.git` (a folder, or a gitfile). */
export async function isRepo(vaultDir: string): Promise<boolean> {
  return fs.stat(path.join(vaultDir, '.git')).then(
    () => true,
    () => false,
  );
}

/** The git directory of the vault, following a `gitdir:` file (worktrees, submodules). */
export async function gitDirOf(vaultDir: string): Promise<string> {
  const dotGit = path.join(vaultDir, '.git');
  const stat = await fs.stat(dotGit);
  if (stat.isDirectory()) return dotGit;
  const text = (await readRegularFile(dotGit, 64 * 1024))?.data.toString('utf8') ?? '';
  const target = text.match(/^gitdir:\s*(.+)$/m)?.[1]?.trim();
  if (!target) throw new Error('.git is neither a folder nor a gitdir file');
  return path.resolve(vaultDir, target);
}

export interface RepoConfig {
  userName: string | null;
  userEmail: string | null;
  originUrl: string | null;
}

/** Identity and origin in one call. */
export async function readRepoConfig(vaultDir: string, opts: Opts = {}): Promise<RepoConfig> {
  const { stdout } = await runGit(['config', '--null', '--get-regexp', '^(user\\.(name|email)|remote\\.origin\\.url)$'], {
    cwd: vaultDir,
    okCodes: [1],
    ...opts,
  });
  const found: RepoConfig = { userName: null, userEmail: null, originUrl: null };
  for (const record of stdout.split('\0')) {
    const nl = record.indexOf('\n');
    if (nl < 0) continue;
    const key = record.slice(0, nl).toLowerCase();
    const value = record.slice(nl + 1);
    if (key === 'user.name' && value) found.userName = value;
    else if (key === 'user.email' && value) found.userEmail = value;
    else if (key === 'remote.origin.url') found.originUrl = value;
  }
  return found;
}

/** `-c` options giving the default identity for whatever git lacks. */
export function identityArgs(config: RepoConfig): string[] {
  const args: string[] = [];
  if (!config.userName) args.push('-c', `user.name=${DEFAULT_IDENTITY.name}`);
  if (!config.userEmail) args.push('-c', `user.email=${DEFAULT_IDENTITY.email}`);
  return args;
}

/** Full sha of a ref, or null when it does not exist (an unborn branch, no remote-tracking ref yet). */
export async function resolveRef(vaultDir: string, ref: string, opts: Opts = {}): Promise<string | null> {
  const { code, stdout } = await runGit(['rev-parse', '-q', '--verify', '--end-of-options', `${ref}^{commit}`], {
    cwd: vaultDir,
    okCodes: [1, 128],
    ...opts,
  });
  return code === 0 ? stdout.trim() || null : null;
}

/** The checked-out branch name, or null on a detached HEAD. */
export async function currentBranch(vaultDir: string, opts: Opts = {}): Promise<string | null> {
  const { code, stdout } = await runGit(['symbolic-ref', '-q', '--short', 'HEAD'], { cwd: vaultDir, okCodes: [1], ...opts });
  return code === 0 ? stdout.trim() || null : null;
}

/** Commits HEAD has that `other` lacks (ahead), and the reverse (behind). */
export async function aheadBehind(vaultDir: string, other: string, opts: Opts = {}): Promise<{ ahead: number; behind: number }> {
  const { stdout } = await runGit(['rev-list', '--left-right', '--count', `HEAD...${other}`, '--'], { cwd: vaultDir, ...opts });
  const [ahead, behind] = stdout.trim().split(/\s+/).map(Number);
  return { ahead: ahead ?? 0, behind: behind ?? 0 };
}

function isUnder(p: string, folders: string[]): boolean {
  return folders.some((f) => p === f || p.startsWith(f + '/'));
}

export interface WorkingState {
  /** Branch name from `# branch.head`, null when detached. */
  branch: string | null;
  /** Changed, added, deleted or untracked files, outside the paths sync never stages. */
  uncommitted: number;
}

/** One `git status` without optional locks, so it never competes with a pass for index.lock. */
export async function workingState(vaultDir: string, neverStaged: string[], opts: Opts = {}): Promise<WorkingState> {
  const { stdout } = await runGit(
    ['--no-optional-locks', 'status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--ignore-submodules=all'],
    { cwd: vaultDir, ...opts },
  );
  const fields = stdout.split('\0');
  let branch: string | null = null;
  let uncommitted = 0;
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if (f === '') continue;
    if (f.startsWith('# branch.head ')) {
      const head = f.slice('# branch.head '.length);
      branch = head === '(detached)' ? null : head;
      continue;
    }
    if (f.startsWith('#')) continue;
    let file: string;
    if (f.startsWith('1 ')) file = f.split(' ').slice(8).join(' ');
    else if (f.startsWith('2 ')) {
      file = f.split(' ').slice(9).join(' ');
      i++; // the original path of a rename follows in its own field
    } else if (f.startsWith('u ')) file = f.split(' ').slice(10).join(' ');
    else if (f.startsWith('? ')) file = f.slice(2);
    else continue;
    if (!isUnder(file, neverStaged) && !isTempFile(file)) uncommitted++;
  }
  return { branch, uncommitted };
}

/**
 * spec 3.4 step 3 and Appendix A: stage everything, then take the never-staged paths
 * out of the index with `git rm --cached` (this also repairs an older commit of them).
 */
export async function stageVault(vaultDir: string, neverStaged: string[], leftOut: string[] = [], opts: Opts = {}): Promise<void> {
  // A note being saved this instant exists as a temp file beside it: never stage that. What
  // is never staged is not added first either (a repository with no commit in the trash fails
  // `add`), but a path .gitignore already leaves out is not named: `add` refuses to name one.
  const named: string[] = [];
  for (const p of [...neverStaged, ...leftOut]) if (!(await isIgnored(vaultDir, p, opts))) named.push(p);
  const excluded = named.map((p) => `:(exclude,literal)${p}`);
  await runGit(['add', '-A', '--', '.', `:(exclude,glob)**/${TEMP_PREFIX}*`, ...excluded], { cwd: vaultDir, ...opts });
  // -f: a git repository in the trash is staged as a gitlink that plain `rm --cached` refuses to drop; --cached never touches a file.
  await runGit(['--literal-pathspecs', 'rm', '-r', '-q', '-f', '--cached', '--ignore-unmatch', '--', ...neverStaged], { cwd: vaultDir, ...opts });
}

/** True when the index differs from HEAD (an unborn HEAD compares with the empty tree). */
export async function hasStagedChanges(vaultDir: string, opts: Opts = {}): Promise<boolean> {
  const { code } = await runGit(['diff', '--cached', '--quiet', '--no-ext-diff', '--ignore-submodules=all'], {
    cwd: vaultDir,
    okCodes: [1],
    ...opts,
  });
  return code === 1;
}

/** Commits the index with `message`. */
export async function commitIndex(vaultDir: string, message: string, config: RepoConfig, opts: Opts = {}): Promise<void> {
  // No hooks: an automatic backup must not stop at a pre-commit prompt.
  await runGit([...identityArgs(config), 'commit', '-q', '--no-verify', '--no-edit', '-m', message], { cwd: vaultDir, ...opts });
}

/** What git is in the middle of in a repository; `unmerged` is conflicts no operation names (a stash pop). */
export type GitOperation = 'merge' | 'rebase' | 'cherry_pick' | 'revert' | 'am' | 'unmerged';

/**
 * The operation git stopped midway for its user (the files git itself reads to say so in
 * `git status`: MERGE_HEAD, rebase-merge/, rebase-apply/, CHERRY_PICK_HEAD, REVERT_HEAD,
 * sequencer/), else unmerged paths in the index, else null. A bisect is none: git commits through it.
 */
export async function gitOperation(vaultDir: string, opts: Opts = {}): Promise<GitOperation | null> {
  const gitDir = await gitDirOf(vaultDir);
  const exists = (name: string) =>
    fs.stat(path.join(gitDir, name)).then(
      () => true,
      () => false,
    );
  if (await exists('rebase-merge')) return 'rebase';
  if (await exists('rebase-apply')) return (await exists('rebase-apply/applying')) ? 'am' : 'rebase';
  if (await exists('MERGE_HEAD')) return 'merge';
  if (await exists('CHERRY_PICK_HEAD')) return 'cherry_pick';
  if (await exists('REVERT_HEAD')) return 'revert';
  // A cherry-pick or revert of several commits, between two of them.
  if (await exists('sequencer/todo')) {
    const todo = (await readRegularFile(path.join(gitDir, 'sequencer', 'todo'), 1024 * 1024).catch(() => null))?.data.toString('utf8') ?? '';
    return /^\s*(revert|r)\s/.test(todo) ? 'revert' : 'cherry_pick';
  }
  const { stdout } = await runGit(['ls-files', '--unmerged', '-z'], { cwd: vaultDir, ...opts });
  return stdout === '' ? null : 'unmerged';
}

/** spec 3.4: before staging, an in-vault data directory must be ignored. */
export async function isIgnored(vaultDir: string, relPath: string, opts: Opts = {}): Promise<boolean> {
  const { code } = await runGit(['check-ignore', '-q', '--no-index', '--', relPath], {
    cwd: vaultDir,
    okCodes: [1],
    ...opts,
  });
  return code === 0;
}
