// The cross-process lock of a repository-changing pass (spec 3.2, 8):
// `.git/service-sync.lock`, made by exclusive create, recording pid, hostname and a
// random token. The holder touches it every minute; it is stale when the holder's pid
// is gone on this host or nothing touched it for 15 minutes, and is then broken (with
// a warning naming the dead holder) and taken. Only its own holder releases it.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DomainError } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';

export const LOCK_NAME = 'service-sync.lock';
export const LOCK_REFRESH_MS = 60_000;
export const LOCK_STALE_MS = 15 * 60_000;
/** The guard that serialises breaking a stale lock; a crashed breaker's guard expires fast. */
const BREAK_GUARD_STALE_MS = 30_000;

export interface LockRecord {
  pid: number;
  hostname: string;
  token: string;
  since: string;
}

export interface HeldLock {
  record: LockRecord;
  release(): Promise<void>;
}

export type TakeResult = { ok: true; lock: HeldLock } | { ok: false; holder: LockRecord };

/** Tokens of locks this process holds, so a lock naming our own pid but not our token is known stale. */
const ownTokens = new Set<string>();

/** spec 3.2: the sentence for a lock held by another process. */
export function busyMessage(holder: Pick<LockRecord, 'pid'>): string {
  return `Another service is syncing this vault (pid ${holder.pid}) — this pass did nothing`;
}

export function lockPath(gitDir: string): string {
  return path.join(gitDir, LOCK_NAME);
}

async function readRecord(file: string): Promise<{ record: LockRecord; mtimeMs: number } | null> {
  try {
    const [text, stat] = await Promise.all([fs.readFile(file, 'utf8'), fs.stat(file)]);
    let parsed: Partial<LockRecord> = {};
    try {
      parsed = JSON.parse(text) as Partial<LockRecord>;
    } catch {
      /* a torn or foreign file: judged by its age alone */
    }
    return {
      record: {
        pid: Number.isInteger(parsed.pid) ? parsed.pid! : 0,
        hostname: typeof parsed.hostname === 'string' ? parsed.hostname : '',
        token: typeof parsed.token === 'string' ? parsed.token : '',
        since: typeof parsed.since === 'string' ? parsed.since : new Date(stat.mtimeMs).toISOString(),
      },
      mtimeMs: stat.mtimeMs,
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

function pidAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Why a lock is stale, or null when its holder is live. */
export function staleReason(record: LockRecord, mtimeMs: number, now = Date.now()): string | null {
  if (now - mtimeMs > LOCK_STALE_MS) return `untouched for ${Math.round((now - mtimeMs) / 60_000)} minutes`;
  if (record.hostname === os.hostname()) {
    if (record.pid === process.pid && !ownTokens.has(record.token)) return 'left by an earlier process with this pid';
    if (!pidAlive(record.pid)) return 'its process is gone';
  }
  return null;
}

/** The live holder of the lock, or null when the lock is free or stale. */
export async function liveHolder(gitDir: string): Promise<LockRecord | null> {
  const found = await readRecord(lockPath(gitDir));
  if (!found) return null;
  return staleReason(found.record, found.mtimeMs) === null ? found.record : null;
}

async function createExclusive(file: string, record: LockRecord): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    // No fsync: after a crash the lock is stale anyway (its pid is gone).
    await handle.writeFile(JSON.stringify(record) + '\n');
  } finally {
    await handle.close();
  }
  return true;
}

/** Breaks `stale` under a guard file, so two checkers never both break and retake. */
async function breakStale(file: string, stale: LockRecord, reason: string): Promise<void> {
  const guard = `${file}.break`;
  const guardAge = await fs.stat(guard).then((s) => Date.now() - s.mtimeMs, () => null);
  if (guardAge !== null && guardAge > BREAK_GUARD_STALE_MS) await fs.rm(guard, { force: true });
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(guard, 'wx', 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return; // another checker is breaking it
    throw err;
  }
  await handle.close();
  try {
    const again = await readRecord(file);
    // Still the same stale lock (same token, same holder)? Then it goes.
    if (again && again.record.token === stale.token && again.record.pid === stale.pid && staleReason(again.record, again.mtimeMs)) {
      await fs.rm(file, { force: true });
      log.warn(
        `sync lock: broke the stale lock of pid ${stale.pid} on ${stale.hostname || 'an unknown host'} (${reason}), held since ${stale.since}`,
      );
    }
  } finally {
    await fs.rm(guard, { force: true });
  }
}

/** spec 3.2: take the lock, breaking a stale one; `ok: false` names the live holder. */
export async function takeLock(gitDir: string): Promise<TakeResult> {
  const file = lockPath(gitDir);
  const record: LockRecord = {
    pid: process.pid,
    hostname: os.hostname(),
    token: randomBytes(16).toString('hex'),
    since: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    ownTokens.add(record.token);
    if (await createExclusive(file, record)) return { ok: true, lock: holdLock(file, record) };
    ownTokens.delete(record.token);
    const found = await readRecord(file);
    if (!found) continue; // released between our two looks: try again
    const reason = staleReason(found.record, found.mtimeMs);
    if (reason === null) return { ok: false, holder: found.record };
    await breakStale(file, found.record, reason);
  }
  const found = await readRecord(file);
  return { ok: false, holder: found?.record ?? { pid: 0, hostname: '', token: '', since: '' } };
}

function holdLock(file: string, record: LockRecord): HeldLock {
  // spec 8: a live holder refreshes the lock every minute.
  const timer = setInterval(() => {
    void (async () => {
      const found = await readRecord(file).catch(() => null);
      if (found?.record.token !== record.token) return;
      const now = new Date();
      await fs.utimes(file, now, now).catch(() => {});
    })();
  }, LOCK_REFRESH_MS);
  timer.unref();
  let released = false;
  return {
    record,
    async release() {
      if (released) return;
      released = true;
      clearInterval(timer);
      ownTokens.delete(record.token);
      const found = await readRecord(file).catch(() => null);
      // Released only by its own holder: a lock someone else took after breaking ours stays.
      if (found?.record.token === record.token) await fs.rm(file, { force: true });
      else if (found) log.warn(`sync lock: pid ${found.record.pid} took over this process's lock; left it in place`);
    },
  };
}

/** git's own lock on the index; a git process killed midway leaves it behind. */
export const INDEX_LOCK = 'index.lock';

/** git's index.lock is in the way of a pass; the route answers 409, a sync pass goes red. */
export class IndexLockedError extends DomainError {
  constructor(readonly file: string) {
    super(
      'index_locked',
      `git's lock file ${file} exists: another git program is working in this vault, or one stopped midway less than ${LOCK_STALE_MS / 60_000} minutes ago. Try again in a moment; if no git program is running, delete ${file}.`,
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
