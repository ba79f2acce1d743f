// GET /api/sync/status (spec 2.10, 3.1; CONTRACT §5). Local reads only: no network,
// no lock, and `git status` without optional locks so it never disturbs a pass.
import { syncSettingsOf, type Settings } from '../../shared/settings.ts';
import { trackingRef } from '../git/remote.ts';
import { remoteHost } from '../git/remote-url.ts';
import { aheadBehind, resolveRef, workingState } from '../git/repo.ts';
import { GitError } from '../../shared/git-run.ts';
import { operationRefusal } from './git-operation.ts';
import type { LastResult } from './last-result.ts';
import type { LockRecord } from './lock.ts';
import type { VaultRequest } from './vault-request.ts';
import { neverStaged, type RepoTarget } from './pass.ts';

export type SyncState = 'clean' | 'dirty' | 'running' | 'failed' | 'busy';

export interface SyncStatus {
  enabled: boolean;
  repo: boolean;
  branch: string;
  /** null until a fetch or push has succeeded: 'Nothing has reached the remote yet'. */
  ahead: number | null;
  behind: number | null;
  uncommitted: number | null;
  remoteHost: string | null;
  state: SyncState;
  last: LastResult | null;
  /** The panel's sentence for a null ahead/behind, or for a live holder of the lock. */
  note: string | null;
  /** The other process holding the lock, when state is busy. */
  holder: { pid: number; hostname: string } | null;
  /** CONTRACT §14: a backup target the vault's settings ask for, waiting for Allow or Ignore. */
  vaultRequest: VaultRequest | null;
  /** CONTRACT §14: folders of the vault that are git repositories of their own (not in the backup). */
  nestedRepositories: string[];
  /**
   * git is midway through its user's merge, rebase, cherry-pick, revert or `git am`, or holds
   * unresolved conflicts: no pass or snapshot commits until it ends (the refusal they answer).
   */
  operation: { code: 'operation_in_progress'; reason: string; message: string } | null;
}

export interface StatusInput {
  target: RepoTarget;
  settings: Settings;
  repo: boolean;
  running: boolean;
  holder: LockRecord | null;
  last: LastResult | null;
  vaultRequest: VaultRequest | null;
  nestedRepositories: string[];
}

export const NOTHING_REACHED = 'Nothing has reached the remote yet';

function stateOf(input: StatusInput, uncommitted: number | null): SyncState {
  if (input.running) return 'running';
  if (input.holder) return 'busy';
  if (input.last && !input.last.ok) return 'failed';
  return uncommitted ? 'dirty' : 'clean';
}

export async function readStatus(input: StatusInput): Promise<SyncStatus> {
  const { target } = input;
  const sync = syncSettingsOf(input.settings);
  let branch = sync.branch;
  let ahead: number | null = null;
  let behind: number | null = null;
  let uncommitted: number | null = null;
  let operation: SyncStatus['operation'] = null;
  if (input.repo) {
    try {
      const refusal = await operationRefusal(target.vaultDir).catch(() => null);
      if (refusal) operation = { code: 'operation_in_progress', reason: refusal.operation, message: refusal.message };
      const working = await workingState(target.vaultDir, [...neverStaged(target), ...(target.nestedRepositories ?? [])]);
      uncommitted = working.uncommitted;
      if (working.branch) branch = working.branch;
      if (await resolveRef(target.vaultDir, trackingRef(sync.branch))) {
        const head = await resolveRef(target.vaultDir, 'HEAD');
        const counts = head ? await aheadBehind(target.vaultDir, trackingRef(sync.branch)) : { ahead: 0, behind: 0 };
        ahead = counts.ahead;
        behind = counts.behind;
      }
    } catch (err) {
      // A repository mid-change (another server's pass) can fail a read: report what we know.
      if (!(err instanceof GitError)) throw err;
    }
  }
  const state = stateOf(input, uncommitted);
  const holder = input.holder ? { pid: input.holder.pid, hostname: input.holder.hostname } : null;
  let note: string | null = null;
  if (state === 'busy' && input.holder) note = `Another service is syncing this vault (pid ${input.holder.pid})`;
  else if (input.repo && ahead === null) note = NOTHING_REACHED;
  return {
    enabled: sync.enabled,
    repo: input.repo,
    branch,
    ahead,
    behind,
    uncommitted,
    remoteHost: remoteHost(sync.remoteUrl),
    state,
    last: input.last,
    note,
    holder,
    vaultRequest: input.vaultRequest,
    nestedRepositories: input.nestedRepositories,
    operation,
  };
}
