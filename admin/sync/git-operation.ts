// No commit while git is in the middle of something its user started (a merge stopped on
// conflicts, a rebase, a cherry-pick, a revert, `git am`) or the index holds unresolved
// conflicts: `add -A` would mark the conflict markers resolved and the commit would end the
// user's merge for them. Every commit of the service (commitVault) asks here first.
import { DomainError } from '../../shared/errors.ts';
import { gitOperation, type GitOperation } from '../git/repo.ts';
import type { SyncWords } from './last-result.ts';

/** What each operation is called, and how its user finishes or abandons it, in git's own commands. */
export const OPERATION_SENTENCES: Record<GitOperation, string> = {
  merge:
    'A merge is in progress in the vault’s git repository, so the service commits nothing until it ends. Finish it in git (resolve the conflicts, git add the files, then git commit) or abort it (git merge --abort).',
  rebase:
    'A rebase is in progress in the vault’s git repository, so the service commits nothing until it ends. Finish it in git (resolve any conflicts, git add the files, then git rebase --continue) or abort it (git rebase --abort).',
  cherry_pick:
    'A cherry-pick is in progress in the vault’s git repository, so the service commits nothing until it ends. Finish it in git (resolve any conflicts, git add the files, then git cherry-pick --continue) or abort it (git cherry-pick --abort).',
  revert:
    'A revert is in progress in the vault’s git repository, so the service commits nothing until it ends. Finish it in git (resolve any conflicts, git add the files, then git revert --continue) or abort it (git revert --abort).',
  am: 'git am is applying patches in the vault’s git repository, so the service commits nothing until it ends. Finish it in git (git am --continue) or abort it (git am --abort).',
  unmerged:
    'The vault’s git repository has files with unresolved conflicts, so the service commits nothing until they are resolved. Resolve them in git: edit the files, then git add them (or git checkout HEAD -- a file to drop its changes).',
};

/** The service refuses to stage or commit: 409, and the red state for a sync pass. */
export class GitOperationError extends DomainError {
  constructor(readonly operation: GitOperation) {
    super('operation_in_progress', OPERATION_SENTENCES[operation], { reason: operation });
    this.name = 'GitOperationError';
  }

  /** The refusal as a sync pass's words (admin/ui/src/i18n-refusals.ts says `refused_operation_in_progress_<operation>`). */
  get words(): SyncWords {
    return { key: `operation_in_progress_${this.operation}` };
  }
}

/** The refusal a commit would meet now, or null (the status panel shows it before any pass). */
export async function operationRefusal(vaultDir: string, opts: { signal?: AbortSignal } = {}): Promise<GitOperationError | null> {
  const operation = await gitOperation(vaultDir, opts);
  return operation ? new GitOperationError(operation) : null;
}

/** Throws the refusal when git is in the middle of something (before anything is staged). */
export async function assertNoGitOperation(vaultDir: string, opts: { signal?: AbortSignal } = {}): Promise<void> {
  const refusal = await operationRefusal(vaultDir, opts);
  if (refusal) throw refusal;
}
