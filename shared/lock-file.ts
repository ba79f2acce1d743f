// A lock shared by processes and hosts through one file (spec 3.2, 8): made by exclusive
// create, recording pid, hostname and a random token. The holder touches it while it
// holds it; it is stale when the holder's pid is gone on this host or nothing touched it
// for `staleMs`, and is then broken (with a warning naming the dead holder) and taken.
// Only its own holder releases it. The sync pass's `.git/service-sync.lock` and the
// vault's write lock (admin/vault/vault-lock.ts) are two of these.
import { randomBytes } from 'node:crypto';
import { promises as fs, lstatSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { log } from './log.ts';

export interface LockRecord {
  pid: number;
  hostname: string;
  token: string;
  since: string;
  /** When the holder's process started (Linux: /proc/<pid>/stat), so a reused pid is told from it. */
  started?: string;
}

export interface HeldLock {
  record: LockRecord;
  release(): Promise<void>;
}

export type TakeResult = { ok: true; lock: HeldLock } | { ok: false; holder: LockRecord };

export interface LockFileOptions {
  file: string;
  /** Untouched this long, a lock is stale whoever holds it. */
  staleMs: number;
  /** How often a holder touches its lock. */
  refreshMs: number;
  /** Names the lock in warnings ("sync lock"). */
  label: string;
}

/** The guard that serialises breaking a stale lock; a crashed breaker's guard expires fast. */
const BREAK_GUARD_STALE_MS = 30_000;

/**
 * A holder writes its record in the same call that makes the file (createExclusive), so a
 * lock file still holding no record after this long was left by a process killed between
 * the two: stale. (Judged by its age alone, it kept every save waiting, then busy, for
 * `staleMs`: found by the bin's SIGKILL test as a 409 naming "pid 0".)
 */
export const TORN_GRACE_MS = 2_000;

type Found = { record: LockRecord; mtimeMs: number; foreign?: true; torn?: true };

/** Tokens of locks this process holds, so a lock naming our own pid but not our token is known stale. */
const ownTokens = new Set<string>();

/**
 * The lock's record and age, or null when there is none. Synchronous, like the create and
 * the removal: a lock is taken and let go around every vault write (vault-lock.ts), and a
 * few microseconds of blocking cost less than a trip through the thread pool each.
 */
function readRecord(file: string): Found | null {
  try {
    // Anything but a regular file (a folder, a link, a FIFO a read would wait on for good)
    // is no lock a holder made: stale at once, else it blocked every save or pass for good.
    if (!lstatSync(file).isFile()) return { record: { pid: 0, hostname: '', token: '', since: '' }, mtimeMs: 0, foreign: true };
    const text = readFileSync(file, 'utf8');
    const stat = statSync(file);
    let parsed: Partial<LockRecord> = {};
    try {
      parsed = JSON.parse(text) as Partial<LockRecord>;
    } catch {
      /* a torn or foreign file: judged by its age (whyStale) */
    }
    if (typeof parsed !== 'object' || parsed === null) parsed = {};
    const torn = !Number.isInteger(parsed.pid) || typeof parsed.token !== 'string';
    return {
      record: {
        pid: Number.isInteger(parsed.pid) ? parsed.pid! : 0,
        hostname: typeof parsed.hostname === 'string' ? parsed.hostname : '',
        token: typeof parsed.token === 'string' ? parsed.token : '',
        since: typeof parsed.since === 'string' ? parsed.since : new Date(stat.mtimeMs).toISOString(),
        ...(typeof parsed.started === 'string' ? { started: parsed.started } : {}),
      },
      mtimeMs: stat.mtimeMs,
      ...(torn ? { torn: true as const } : {}),
    };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * When process `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat), or
 * null where there is no such file. A holder killed mid-step leaves its pid in the lock;
 * under a busy machine's churn the kernel may give that pid to another process, which kept
 * the lock "alive" until it was 30 s stale, and every save waited, then answered busy.
 */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The name in parentheses may hold spaces and parentheses: fields count from the last `)`.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const ownStart = processStart(process.pid);

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
export function staleReason(record: LockRecord, mtimeMs: number, staleMs: number, now = Date.now()): string | null {
  if (now - mtimeMs > staleMs) {
    const minutes = (now - mtimeMs) / 60_000;
    return minutes >= 1 ? `untouched for ${Math.round(minutes)} minutes` : `untouched for ${Math.round((now - mtimeMs) / 1000)} seconds`;
  }
  if (record.hostname === os.hostname()) {
    if (record.pid === process.pid && !ownTokens.has(record.token)) return 'left by an earlier process with this pid';
    if (!pidAlive(record.pid)) return 'its process is gone';
    if (record.started !== undefined && processStart(record.pid) !== record.started) return 'its process is gone (its pid now names another)';
  }
  return null;
}

/** Why a lock found on disk is stale (not a file a holder made, a record never written, or staleReason), or null. */
function whyStale(found: Found, staleMs: number, now = Date.now()): string | null {
  if (found.foreign) return 'it is not a regular file';
  if (found.torn && now - found.mtimeMs > Math.min(TORN_GRACE_MS, staleMs)) return 'it holds no record: its holder died as it made it';
  return staleReason(found.record, found.mtimeMs, staleMs, now);
}

function createExclusive(file: string, record: LockRecord): boolean {
  try {
    // No fsync: after a crash the lock is stale anyway (its pid is gone).
    writeFileSync(file, JSON.stringify(record) + '\n', { flag: 'wx', mode: 0o644 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  return true;
}

export class LockFile {
  constructor(readonly options: LockFileOptions) {}

  /** The live holder of the lock, or null when the lock is free or stale. */
  async liveHolder(): Promise<LockRecord | null> {
    const found = readRecord(this.options.file);
    if (!found) return null;
    return whyStale(found, this.options.staleMs) === null ? found.record : null;
  }

  /** Takes the lock, breaking a stale one; `ok: false` names the live holder. */
  async take(): Promise<TakeResult> {
    const { file, staleMs } = this.options;
    const record: LockRecord = {
      pid: process.pid,
      hostname: os.hostname(),
      token: randomBytes(16).toString('hex'),
      since: new Date().toISOString(),
      ...(ownStart !== null ? { started: ownStart } : {}),
    };
    for (let attempt = 0; attempt < 3; attempt++) {
      ownTokens.add(record.token);
      if (createExclusive(file, record)) return { ok: true, lock: this.hold(record) };
      ownTokens.delete(record.token);
      const found = readRecord(file);
      if (!found) continue; // released between our two looks: try again
      const reason = whyStale(found, staleMs);
      if (reason === null) return { ok: false, holder: found.record };
      await this.breakStale(found.record, reason);
    }
    const found = readRecord(file);
    return { ok: false, holder: found?.record ?? { pid: 0, hostname: '', token: '', since: '' } };
  }

  /**
   * Breaks `stale` under a guard file, so two checkers never both break and retake. The
   * guard names its breaker as a lock does: one left by a breaker that died is broken at
   * once (an empty guard waited 30 s, and every save meanwhile answered busy: found by the
   * bin's SIGKILL test).
   */
  private async breakStale(stale: LockRecord, reason: string): Promise<void> {
    const { file, staleMs, label } = this.options;
    const guard = `${file}.break`;
    const left = readRecord(guard);
    if (left && whyStale(left, BREAK_GUARD_STALE_MS) !== null) rmSync(guard, { force: true, recursive: left.foreign === true });
    const breaker: LockRecord = { pid: process.pid, hostname: os.hostname(), token: randomBytes(16).toString('hex'), since: new Date().toISOString(), ...(ownStart !== null ? { started: ownStart } : {}) };
    ownTokens.add(breaker.token);
    if (!createExclusive(guard, breaker)) {
      ownTokens.delete(breaker.token);
      return; // another checker is breaking it
    }
    try {
      const again = readRecord(file);
      // Still the same stale lock (same token, same holder)? Then it goes.
      if (again && again.record.token === stale.token && again.record.pid === stale.pid && whyStale(again, staleMs)) {
        await fs.rm(file, { force: true, recursive: again.foreign === true });
        log.warn(`${label}: broke the stale lock of pid ${stale.pid} on ${stale.hostname || 'an unknown host'} (${reason}), held since ${stale.since || 'an unknown time'}`);
      }
    } finally {
      ownTokens.delete(breaker.token);
      await fs.rm(guard, { force: true });
    }
  }

  private hold(record: LockRecord): HeldLock {
    const { file, refreshMs, label } = this.options;
    const timer = setInterval(() => {
      void (async () => {
        let found: ReturnType<typeof readRecord> = null;
        try {
          found = readRecord(file);
        } catch {
          /* gone or unreadable: nothing to touch */
        }
        if (found?.record.token !== record.token) return;
        const now = new Date();
        await fs.utimes(file, now, now).catch(() => {});
      })();
    }, refreshMs);
    timer.unref();
    let released = false;
    return {
      record,
      async release() {
        if (released) return;
        released = true;
        clearInterval(timer);
        ownTokens.delete(record.token);
        let found: ReturnType<typeof readRecord> = null;
        try {
          found = readRecord(file);
        } catch {
          /* unreadable: not ours to remove */
        }
        // Released only by its own holder: a lock someone else took after breaking ours stays.
        if (found?.record.token === record.token) rmSync(file, { force: true });
        else if (found) log.warn(`${label}: pid ${found.record.pid} took over this process's lock; left it in place`);
      },
    };
  }
}
