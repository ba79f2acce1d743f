// Talking to `origin`: point it at the remote, fetch, fast-forward, push. Every URL
// and branch here was validated first; user data meets argv after --end-of-options.
import { GitError, runGit, type GitOptions, type NetworkAuth } from '../../shared/git-run.ts';
import { checkBranchName, checkRemoteUrl } from './remote-url.ts';
import type { RepoConfig } from './repo.ts';

type Opts = Omit<GitOptions, 'cwd' | 'network'>;

export const trackingRef = (branch: string) => `refs/remotes/origin/${branch}`;

function assertSafe(url: string, branch: string): void {
  const problem = checkRemoteUrl(url) ?? checkBranchName(branch);
  if (problem) throw new Error(problem);
}

/** `host[:port]` as an https URL writes it: the only authority the askpass script answers. */
export function urlAuthority(url: string): string | null {
  const m = /^https:\/\/([^/?#]+)/i.exec(url);
  return m ? m[1]!.slice(m[1]!.lastIndexOf('@') + 1) : null;
}

// The program an ssh remote runs is git's own, never remote.origin.uploadpack/receivepack.
const UPLOAD_PACK = '--upload-pack=git-upload-pack';
const RECEIVE_PACK = '--receive-pack=git-receive-pack';
// Never into a nested repository: its own config (URL, proxy, TLS checks) is the vault's to
// write and ours to read nowhere, and `.gitmodules` may ask for it; the flag beats them all.
const NO_SUBMODULES = '--recurse-submodules=no';

const forUrl = (network: NetworkAuth, url: string): NetworkAuth => ({ ...network, host: urlAuthority(url) });

/**
 * Points `origin` at `url` (spec 3.5). When the URL changes, the old remote-tracking
 * refs go, so ahead/behind reads 'Nothing has reached the remote yet' again.
 */
export async function ensureOrigin(vaultDir: string, url: string, config: RepoConfig, opts: Opts = {}): Promise<void> {
  if (config.originUrl === url) return;
  if (config.originUrl === null) {
    await runGit(['remote', 'add', '--end-of-options', 'origin', url], { cwd: vaultDir, ...opts });
    return;
  }
  await runGit(['remote', 'set-url', '--end-of-options', 'origin', url], { cwd: vaultDir, ...opts });
  const { stdout } = await runGit(['for-each-ref', '--format=%(refname)', 'refs/remotes/origin/'], { cwd: vaultDir, ...opts });
  for (const ref of stdout.split('\n').filter(Boolean)) {
    await runGit(['update-ref', '-d', '--end-of-options', ref], { cwd: vaultDir, ...opts });
  }
}

/** Fetches `branch` into its remote-tracking ref. False when the remote has no such branch yet. */
export async function fetchBranch(vaultDir: string, url: string, branch: string, network: NetworkAuth, opts: Opts = {}): Promise<boolean> {
  assertSafe(url, branch);
  try {
    await runGit(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', NO_SUBMODULES, UPLOAD_PACK, '--end-of-options', 'origin', `+refs/heads/${branch}:${trackingRef(branch)}`], {
      cwd: vaultDir,
      network: forUrl(network, url),
      ...opts,
    });
    return true;
  } catch (err) {
    // An empty remote (nothing pushed yet) has no such branch: not a failure.
    if (err instanceof GitError && /couldn't find remote ref/i.test(err.line)) return false;
    throw err;
  }
}

/** spec 3.4 step 2: `merge --ff-only`, never `git pull`, so `pull.rebase` plays no part. */
/**
 * The paths a fast-forward to the branch's tracking ref would add, change or delete (every
 * path of the ref when the vault has no commit yet).
 */
export async function incomingPaths(vaultDir: string, branch: string, hasHead: boolean, opts: Opts = {}): Promise<string[]> {
  const args = hasHead
    ? ['diff', '--name-only', '-z', '--no-renames', '--no-ext-diff', '--no-textconv', 'HEAD', trackingRef(branch), '--']
    : ['ls-tree', '-r', '-z', '--name-only', '--end-of-options', trackingRef(branch)];
  const { stdout } = await runGit(args, { cwd: vaultDir, ...opts });
  return stdout.split('\0').filter(Boolean);
}

export async function fastForward(vaultDir: string, branch: string, opts: Opts = {}): Promise<void> {
  await runGit(['merge', '--ff-only', '--quiet', '--no-stat', '--no-edit', '--no-verify', '--end-of-options', trackingRef(branch)], { cwd: vaultDir, ...opts });
}

/** spec 3.4 step 5: push HEAD to the branch; never forced, so it must be a fast-forward. */
export async function pushBranch(vaultDir: string, url: string, branch: string, network: NetworkAuth, opts: Opts = {}): Promise<void> {
  assertSafe(url, branch);
  // origin's fetch refspec (set by `remote add`) makes git move the remote-tracking ref too.
  // No --no-verify: hooks are off unless SERVICE_GIT_HOOKS=on, and then git-lfs needs pre-push.
  await runGit(['push', '--quiet', NO_SUBMODULES, RECEIVE_PACK, '--end-of-options', 'origin', `HEAD:refs/heads/${branch}`], { cwd: vaultDir, network: forUrl(network, url), ...opts });
}

/** True when git refused a push because the remote has commits this repository lacks. */
export function isNonFastForward(line: string, stderr: string): boolean {
  // git's own words only: a hook's `remote:` lines may say anything.
  const own = stderr.split('\n').filter((l) => !/^\s*remote:/.test(l));
  return /\[rejected\]|non-fast-forward|fetch first|Updates were rejected/i.test([line, ...own].join('\n'));
}
