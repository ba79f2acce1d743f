// The steps of a sync pass (spec 3.4), Snapshot now (4.1) and Initialize repository
// (3.5), each run while the caller holds the lock. They answer with an outcome and a
// sentence; git's own error line rides along, already scrubbed.
import { DomainError } from '../../shared/errors.ts';
import { scrub } from '../../shared/log.ts';
import { DATA_DIR_MARKER } from '../../shared/vault-path.ts';
import { ensureGitignore } from '../git/gitignore.ts';
import { fastForward, fetchBranch, ensureOrigin, incomingPaths, isNonFastForward, pushBranch, trackingRef } from '../git/remote.ts';
import { remoteHost } from '../git/remote-url.ts';
import {
  aheadBehind,
  commitIndex,
  gitDirOf,
  hasStagedChanges,
  isIgnored,
  readRepoConfig,
  resolveRef,
  stageVault,
  type RepoConfig,
} from '../git/repo.ts';
import { GitError, runGit, type NetworkAuth } from '../../shared/git-run.ts';
import type { SyncOutcome, SyncWords } from './last-result.ts';
import { assertNoGitOperation, GitOperationError } from './git-operation.ts';
import { clearStaleIndexLock, IndexLockedError, isIndexLockFailure } from './lock.ts';

export interface RepoTarget {
  vaultDir: string;
  /** Vault-relative path of the data directory when it lies inside the vault (spec Appendix A). */
  dataDirRel: string | null;
  signal?: AbortSignal;
  /**
   * Runs a step that changes the vault's files (the fast-forward) while no save, rename or
   * delete of any server runs (the whole vault's path lock and the vault write lock): a
   * save then either lands first, and the merge refuses to overwrite it, or comes after and
   * its base is stale (409). Without it, a save answered 200 could be overwritten by git.
   */
  holdingVault?: <T>(step: () => Promise<T>) => Promise<T>;
  /**
   * Folders of the vault that are git repositories of their own: never staged (one with no
   * commit yet made `git add` fail the whole pass), and said so in the pass's answer.
   */
  nestedRepositories?: string[];
}

export interface SyncPlan {
  remoteUrl: string | null;
  branch: string;
  pullFirst: boolean;
  auth: NetworkAuth;
}

export interface PassResult {
  outcome: SyncOutcome;
  ok: boolean;
  message: string;
  /** The message's sentences as keys and figures, for the app to say in the owner's language. */
  words: SyncWords[];
  error?: string;
}

/** spec Appendix A: removed from the index on every commit, whatever .gitignore says. */
export function neverStaged(target: RepoTarget): string[] {
  return target.dataDirRel ? ['.trash', target.dataDirRel] : ['.trash'];
}

const stamp = () => new Date().toISOString();

/**
 * The files a fast-forward refused to overwrite (edited here and changed there, or new
 * here and added there), from git's own line; null for any other failure.
 */
function overwrittenByPull(line: string): string | null {
  const m = /^error: (?:Your local changes to the following files|The following untracked working tree files) would be (?:overwritten|removed) by merge:\s*(.*)$/.exec(line);
  return m ? m[1]!.trim() || 'some files' : null;
}

// What to check, for the failures an owner meets most, said before git's own line; the key
// names the hint for the app (admin/ui/src/i18n-sync.ts says it in the owner's language).
const HINTS: [RegExp, key: string, sentence: string][] = [
  [/could not resolve host|couldn't resolve host|name or service not known/i, 'hint_host_unknown', 'The remote’s host name was not found: check the address.'],
  [/failed to connect|couldn't connect|connection refused|connection timed out|network is unreachable|no route to host/i, 'hint_no_answer', 'The remote did not answer: check its address, and that this server can reach it.'],
  [/authentication failed|could not read username|invalid username or password|permission denied \(publickey|the requested url returned error: 40[13]/i, 'hint_credentials', 'The remote refused the credentials: check the username and the access token (or the SSH key).'],
  [/repository .{0,200}not found|does not appear to be a git repository|the requested url returned error: 404/i, 'hint_no_repository', 'There is no repository at that address: check it.'],
  [/ssl certificate problem|server certificate verification failed|certificate verify failed/i, 'hint_certificate', 'This server does not trust the remote’s certificate (a private authority is named with GIT_SSL_CAINFO).'],
  [/host key verification failed/i, 'hint_host_key', 'The remote’s SSH host key is not the one this server knows: check it before trusting it.'],
];

/** What to check for git's `line`: the hint's key and its sentence, or null when none fits. */
export function gitHintOf(line: string): { key: string; sentence: string } | null {
  const hint = HINTS.find(([pattern]) => pattern.test(line));
  return hint ? { key: hint[1], sentence: hint[2] } : null;
}

/** A sentence saying what to check for git's `line`, with a space after it; '' when none fits. */
export function gitHint(line: string): string {
  const hint = gitHintOf(line);
  return hint ? `${hint.sentence} ` : '';
}

/**
 * A failed pass that git stopped: "Sync failed.", the hint, git's own line (kept verbatim), and
 * what the remote printed (a hook's refusal says why only there), one line each, as git showed them.
 */
function gitFailed(err: GitError): PassResult {
  const { line, remote } = err;
  const hint = gitHintOf([line, ...remote].join('\n'));
  const said = remote.join('\n');
  const words: SyncWords[] = [{ key: 'failed' }, ...(hint ? [{ key: hint.key }] : []), { key: 'git_said', line }, ...(said ? [{ key: 'remote_said', lines: said }] : [])];
  const message = `Sync failed. ${hint ? `${hint.sentence} ` : ''}Git said: ${line}${said ? ` The remote said:\n${said}` : ''}`;
  return { outcome: 'failed', ok: false, message, words, error: [line, ...remote.map((l) => `remote: ${l}`)].join('\n') };
}

function failed(message: string, words: SyncWords[], error?: string): PassResult {
  return error === undefined ? { outcome: 'failed', ok: false, message, words } : { outcome: 'failed', ok: false, message, words, error };
}

const asDetails = ({ key, ...figures }: SyncWords) => ({ reason: key, ...figures });

/** A pass refused before it changed anything (an unignored in-vault data directory). */
export class RefusedError extends DomainError {
  constructor(
    message: string,
    readonly words: SyncWords,
  ) {
    super('bad_settings', message, asDetails(words));
  }
}

/** Before the index is touched: a stale index.lock goes, a fresh one stops the pass (spec 3.2's rule). */
async function prepareIndex(target: RepoTarget): Promise<void> {
  await clearStaleIndexLock(await gitDirOf(target.vaultDir));
}

/** A git that took index.lock after our look surfaces as the same clean refusal. */
function asIndexLocked(err: unknown): unknown {
  return err instanceof GitError && isIndexLockFailure(err.stderr + '\n' + err.line) ? new IndexLockedError('.git/index.lock') : err;
}

/**
 * Another server's data directory in the vault (its marker, vault-path.ts DATA_DIR_MARKER)
 * must be ignored too: `add -A` would commit its token and password hash. Answers the first
 * one git would take (tracked, or untracked and not ignored), else null.
 */
async function unignoredDataDir(target: RepoTarget): Promise<string | null> {
  const { stdout } = await runGit(['ls-files', '--cached', '--others', '--exclude-standard', '-z', '--', `:(glob)**/${DATA_DIR_MARKER}`], { cwd: target.vaultDir, signal: target.signal });
  const own = target.dataDirRel ? `${target.dataDirRel}/${DATA_DIR_MARKER}` : null;
  const other = stdout.split('\0').find((f) => f !== '' && f !== own);
  return other ? other.slice(0, -(DATA_DIR_MARKER.length + 1)) : null;
}

/** spec 3.4: every commit first re-checks that an in-vault data directory is ignored. */
async function assertDataDirIgnored(target: RepoTarget): Promise<void> {
  const other = await unignoredDataDir(target);
  if (other !== null) {
    throw new RefusedError(
      `Another server's data directory (${other}/) lies inside the vault but .gitignore does not ignore it, so sync refuses to run: it would commit that server's token and password. Add "/${other}/" to .gitignore.`,
      { key: 'data_dir_not_ignored', path: other },
    );
  }
  if (!target.dataDirRel) return;
  if (!(await isIgnored(target.vaultDir, target.dataDirRel, { signal: target.signal }))) {
    throw new RefusedError(
      `The data directory (${target.dataDirRel}/) lies inside the vault but .gitignore does not ignore it, so sync refuses to run. Add "/${target.dataDirRel}/" to .gitignore (Initialize repository adds it).`,
      { key: 'own_data_dir_not_ignored', path: target.dataDirRel },
    );
  }
}

/**
 * spec 3.4, Appendix A: the data directory is never taken from git. It is ignored, but git
 * writes over ignored files when a commit it checks out holds them: a pull must bring in
 * nothing there (added, changed or deleted). Answers the first such path, else null.
 */
async function pullTouchesDataDir(target: RepoTarget, branch: string): Promise<string | null> {
  if (!target.dataDirRel) return null;
  const hasHead = (await resolveRef(target.vaultDir, 'HEAD', { signal: target.signal })) !== null;
  // Case aside: on a disk that ignores it, `SVC/admin.json` is `svc/admin.json`.
  const dir = target.dataDirRel.toLowerCase();
  // A folder holding it counts too: git takes an ignored folder for expendable, so a
  // commit turning `sub/` (of `sub/svc/`) into a file or a link removed the data directory whole.
  const inside = (p: string) => {
    const q = p.toLowerCase();
    return q === dir || q.startsWith(dir + '/') || dir.startsWith(q + '/');
  };
  return (await incomingPaths(target.vaultDir, branch, hasHead, { signal: target.signal })).find(inside) ?? null;
}

/**
 * Stages the vault and commits when something changed; true when it committed. Every commit
 * of the service comes here: none while git is midway through its user's merge or rebase.
 */
async function commitVault(target: RepoTarget, subject: string, config?: RepoConfig): Promise<boolean> {
  const opts = { signal: target.signal };
  await assertNoGitOperation(target.vaultDir, opts);
  await assertDataDirIgnored(target);
  await stageVault(target.vaultDir, neverStaged(target), target.nestedRepositories ?? [], opts);
  if (!(await hasStagedChanges(target.vaultDir, opts))) return false;
  // Once more: a `git merge` the owner started while we staged must not be concluded by our commit.
  await assertNoGitOperation(target.vaultDir, opts);
  await commitIndex(target.vaultDir, subject, config ?? (await readRepoConfig(target.vaultDir, opts)), opts);
  return true;
}

/** Commits like commitVault and answers the new commit's sha (for Snapshot and Initialize). */
async function commitVaultSha(target: RepoTarget, subject: string): Promise<string | null> {
  if (!(await commitVault(target, subject))) return null;
  return (await resolveRef(target.vaultDir, 'HEAD', { signal: target.signal })) ?? '';
}

/** Ahead/behind against the remote-tracking ref, or null when nothing has reached the remote. */
async function countAgainst(target: RepoTarget, branch: string): Promise<{ ahead: number; behind: number } | null> {
  const tracking = await resolveRef(target.vaultDir, trackingRef(branch), { signal: target.signal });
  if (!tracking) return null;
  if (!(await resolveRef(target.vaultDir, 'HEAD', { signal: target.signal }))) return { ahead: 0, behind: 1 };
  return aheadBehind(target.vaultDir, trackingRef(branch), { signal: target.signal });
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/** spec 3.4, steps 2 to 5 (the caller took the lock: step 1, and checked the plan's branch and remote). */
export async function syncSteps(target: RepoTarget, plan: SyncPlan): Promise<PassResult> {
  const opts = { signal: target.signal };
  const host = remoteHost(plan.remoteUrl);
  /** The host as the words name it (a pass that names one has a remote). */
  const at = host ?? '';
  /** Commits the fast-forward brought in: the answer says so, whatever else the pass did. */
  let pulled = 0;
  const withPulled = (result: PassResult): PassResult =>
    pulled > 0 && result.ok ? { ...result, message: `Pulled ${plural(pulled, 'commit')} from ${host}. ${result.message}`, words: [{ key: 'pulled', count: pulled, host: at }, ...result.words] } : result;
  try {
    await prepareIndex(target);
    // Before the pull too: a fast-forward in the middle of the user's rebase would move their HEAD.
    await assertNoGitOperation(target.vaultDir, opts);
    const config = await readRepoConfig(target.vaultDir, opts);
    if (plan.remoteUrl) await ensureOrigin(target.vaultDir, plan.remoteUrl, config, opts);

    // Step 2: fetch, then fast-forward only; a diverged history stops before any file changes.
    if (plan.remoteUrl && plan.pullFirst && (await fetchBranch(target.vaultDir, plan.remoteUrl, plan.branch, plan.auth, opts))) {
      const counts = (await countAgainst(target, plan.branch))!;
      if (counts.behind > 0 && counts.ahead > 0) {
        return {
          outcome: 'diverged',
          ok: false,
          message: `This vault and ${host} have diverged (${plural(counts.ahead, 'commit')} here, ${plural(counts.behind, 'commit')} there); nothing was committed or pushed. Merge them by hand with git.`,
          words: [{ key: 'diverged', host: at, ahead: counts.ahead, behind: counts.behind }],
        };
      }
      if (counts.behind > 0) {
        const intoData = await pullTouchesDataDir(target, plan.branch);
        if (intoData) {
          return failed(
            `${host}'s commits change ${intoData}, in this server's data directory; nothing was pulled, committed or pushed. git would overwrite the server's own files (its password and token among them) with them: take them out of the remote's history, or move the data directory out of the vault.`,
            [{ key: 'pull_into_data_dir', host: at, path: intoData }],
          );
        }
        const hold = target.holdingVault ?? ((step) => step());
        try {
          await hold(() => fastForward(target.vaultDir, plan.branch, opts));
        } catch (err) {
          const clash = err instanceof GitError ? overwrittenByPull(err.line) : null;
          if (clash === null) throw err;
          // spec 3.4 step 2: the remote's commits and this side's edits meet: nothing was touched.
          return {
            outcome: 'diverged',
            ok: false,
            message: `${host} has commits that change what was edited here since the last sync (${clash}); nothing was pulled, committed or pushed, and no text was lost. Merge them by hand with git: commit here, then merge ${host}'s branch.`,
            words: [{ key: 'pull_clash', host: at, files: clash }],
          };
        }
        pulled = counts.behind;
      }
    }

    // Steps 3 and 4.
    const committed = await commitVault(target, `service sync: ${stamp()}`, config);
    if (!plan.remoteUrl) {
      return withPulled(
        committed
          ? { outcome: 'committed', ok: true, message: 'Committed the vault; no remote is set, so nothing was pushed.', words: [{ key: 'committed_no_remote' }] }
          : { outcome: 'nothing', ok: true, message: 'Nothing to commit; no remote is set.', words: [{ key: 'nothing_no_remote' }] },
      );
    }

    // Step 5: push when the remote lacks something (always after a new commit).
    if (!committed) {
      const counts = await countAgainst(target, plan.branch);
      const hasHead = (await resolveRef(target.vaultDir, 'HEAD', opts)) !== null;
      if (!hasHead || (counts && counts.ahead === 0)) {
        const behind = counts && counts.behind > 0 ? counts.behind : 0;
        const note = behind > 0 ? ` ${host} has ${plural(behind, 'commit')} this vault lacks; turn on Pull first to bring them in.` : '';
        const words: SyncWords[] = [{ key: 'nothing_to_push' }, ...(behind > 0 ? [{ key: 'remote_ahead', host: at, count: behind }] : [])];
        return withPulled({ outcome: 'nothing', ok: true, message: `Nothing to commit or push.${note}`, words });
      }
    }
    try {
      await pushBranch(target.vaultDir, plan.remoteUrl, plan.branch, plan.auth, opts);
    } catch (err) {
      if (err instanceof GitError && isNonFastForward(err.line, err.stderr)) {
        // Learn how far behind we are, so the status panel can say it.
        await fetchBranch(target.vaultDir, plan.remoteUrl, plan.branch, plan.auth, opts).catch(() => false);
        return failed(
          `${host} has commits this vault lacks, so the push was refused (never forced).${committed ? ' The new commit is kept locally.' : ''} Turn on Pull first to bring them in.`,
          [{ key: committed ? 'push_refused_kept' : 'push_refused', host: at }],
          err.line,
        );
      }
      throw err;
    }
    return withPulled({
      outcome: 'pushed',
      ok: true,
      message: committed ? `Committed and pushed to ${host} (${plan.branch}).` : `Pushed to ${host} (${plan.branch}).`,
      words: [{ key: committed ? 'committed_pushed' : 'pushed', host: at, branch: plan.branch }],
    });
  } catch (caught) {
    const err = asIndexLocked(caught);
    if (err instanceof RefusedError || err instanceof GitOperationError) return failed(err.message, [err.words]);
    if (err instanceof IndexLockedError) return failed(err.message, [{ key: 'index_locked', file: err.file, minutes: Number(err.details.minutes) }]);
    if (err instanceof GitError) return gitFailed(err);
    const why = scrub((err as Error).message);
    return failed(`Sync failed: ${why}`, [{ key: 'failed_because', error: why }]);
  }
}

export interface SnapshotResult {
  committed: boolean;
  sha: string | null;
  message: string;
}

/** spec 4.1: one local commit of the whole vault; no network, no remote or token. */
export async function snapshotSteps(target: RepoTarget): Promise<SnapshotResult> {
  await prepareIndex(target);
  const sha = await commitVaultSha(target, `service snapshot: ${stamp()}`).catch((err) => {
    throw asIndexLocked(err);
  });
  return sha === null
    ? { committed: false, sha: null, message: 'Nothing changed since the last commit; no snapshot was made.' }
    : { committed: true, sha, message: 'Snapshot committed.' };
}

export interface InitResult {
  created: boolean;
  sha: string | null;
  gitignore: string[];
  remote: string | null;
  message: string;
}

/** `git init` with the branch from settings; the caller then takes the lock and calls initSteps. */
export async function initRepository(target: RepoTarget, branch: string): Promise<void> {
  await runGit(['init', '-q', `--initial-branch=${branch}`], { cwd: target.vaultDir, signal: target.signal });
}

/** spec 3.5: .gitignore rules, the first commit, `origin` pointed at the remote. */
export async function initSteps(target: RepoTarget, remoteUrl: string | null, created: boolean): Promise<InitResult> {
  const opts = { signal: target.signal };
  await prepareIndex(target);
  // A file of the vault: written with every server's changes held off, as a pull's are.
  const hold = target.holdingVault ?? ((step) => step());
  const gitignore = await hold(() => ensureGitignore(target.vaultDir, target.dataDirRel));
  let sha: string | null = null;
  if ((await resolveRef(target.vaultDir, 'HEAD', opts)) === null) {
    sha = await commitVaultSha(target, `service sync: ${stamp()}`).catch((err) => {
      throw asIndexLocked(err);
    });
  }
  if (remoteUrl) await ensureOrigin(target.vaultDir, remoteUrl, await readRepoConfig(target.vaultDir, opts), opts);
  const message = created ? 'The vault is now a git repository.' : 'The vault was already a git repository; its .gitignore and remote are in place.';
  return { created, sha, gitignore, remote: remoteHost(remoteUrl), message };
}
