// The cross-process lock of a repository-changing pass (spec 3.2, 8):
// `.git/service-sync.lock`, made by exclusive create, recording pid, hostname and a
// random token. The holder touches it every minute; it is stale when the holder's pid
// is gone on this host or nothing touched it for 15 minutes, and is then broken (with
// a warning naming the dead holder) and taken. Only its own holder releases it.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DomainError } from '../../shared/errors.ts';
import { LockFile, staleReason as staleAfter, type LockRecord, type TakeResult } from '../../shared/lock-file.ts';
import { log } from '../../shared/log.ts';

export type { HeldLock, LockRecord, TakeResult } from '../../shared/lock-file.ts';

export const LOCK_NAME = 'service-sync.lock';
export const LOCK_REFRESH_MS = 60_000;
export const LOCK_STALE_MS = 15 * 60_000;

/** spec 3.2: the sentence for a lock held by another process. */
export function busyMessage(holder: Pick<LockRecord, 'pid'>): string {
  return `Another service is syncing this vault (pid ${holder.pid}) — this pass did nothing`;
}

export function lockPath(gitDir: string): string {
  return path.join(gitDir, LOCK_NAME);
}

const syncLock = (gitDir: string) => new LockFile({ file: lockPath(gitDir), staleMs: LOCK_STALE_MS, refreshMs: LOCK_REFRESH_MS, label: 'sync lock' });

/** Why a lock is stale, or null when its holder is live. */
export function staleReason(record: LockRecord, mtimeMs: number, now = Date.now()): string | null {
  return staleAfter(record, mtimeMs, LOCK_STALE_MS, now);
}

/** The live holder of the lock, or null when the lock is free or stale. */
export function liveHolder(gitDir: string): Promise<LockRecord | null> {
  return syncLock(gitDir).liveHolder();
}

/** spec 3.2: take the lock, breaking a stale one; `ok: false` names the live holder. */
export function takeLock(gitDir: string): Promise<TakeResult> {
  return syncLock(gitDir).take();
}

/** git's own lock on the index; a git process killed midway leaves it behind. */
export const INDEX_LOCK = 'index.lock';

/** git's index.lock is in the way of a pass; the route answers 409, a sync pass goes red. */
export class IndexLockedError extends DomainError {
  constructor(readonly file: string) {
    super(
      'index_locked',
      `git's lock file ${file} exists: another git program is working in this vault, or one stopped midway less than ${LOCK_STALE_MS / 60_000} minutes ago. Try again in a moment; if no git program is running, delete ${file}.`,
      { file, minutes: LOCK_STALE_MS / 60_000 },
    );
    this.name = 'IndexLockedError';
  }
}

/** True when a git failure says the index lock was taken (by someone after our check). */
export function isIndexLockFailure(message: string): boolean {
  return /index\.lock'?: File exists/i.test(message);
}

/**
 * Called while this process holds the sync lock, before git touches the index: an
 * index.lock untouched for 15 minutes was left by a git that died, and goes (with a
 * warning naming it); a fresher one belongs to a git that may still be working.
 */
export async function clearStaleIndexLock(gitDir: string, shown = '.git/index.lock', now = Date.now()): Promise<void> {
  const file = path.join(gitDir, INDEX_LOCK);
  const stat = await fs.stat(file).catch(() => null);
  if (!stat) return;
  const ageMs = now - stat.mtimeMs;
  if (ageMs <= LOCK_STALE_MS) throw new IndexLockedError(shown);
  await fs.rm(file, { force: true });
  log.warn(`removed the stale git lock file ${file} (untouched for ${Math.round(ageMs / 60_000)} minutes; the git that made it is gone)`);
}
