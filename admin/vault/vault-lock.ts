// Several servers may share one vault (spec 1): each process's PathLocks cannot see the
// others', so a save's stale check and its rename, a rename's look at the target and the
// move, or the trash record's read and write could interleave with another server's and
// lose an edit. The vault write lock closes that gap: a lock file held by this process
// while any of its path-locked steps runs, and waited for, briefly, while another process
// holds it. Every step is short; a holder that died is broken like the sync lock's.
//
// It lives in `.git/service-write.lock` when the vault is a repository: nothing a remote
// pushes can land there (a lock committed elsewhere in the vault would freeze every save
// after each pull). Otherwise in a folder of its own at the vault's root, both named like
// temp files (`.~vs-lock/.~vs-write.lock`: never staged, listed, watched or reachable
// through the API). Never beside the notes: every file made in a watched folder has the
// watchers read that whole folder again, twice per save for a vault root of thousands of notes.
import { lstatSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { TEMP_PREFIX } from '../../shared/atomic-write.ts';
import { DomainError } from '../../shared/errors.ts';
import { LockFile, type HeldLock } from '../../shared/lock-file.ts';

export const VAULT_LOCK_DIR = `${TEMP_PREFIX}lock`;
export const VAULT_LOCK_NAME = `${TEMP_PREFIX}write.lock`;
export const REPO_LOCK_NAME = 'service-write.lock';
/** No step holds the lock this long: a lock untouched for it was left by a holder that hung or died. */
const STALE_MS = 30_000;
const REFRESH_MS = 5_000;
/** How long a step waits for another server's steps before answering busy. */
const WAIT_MS = 10_000;

export interface CrossProcessGuard {
  enter(): Promise<void>;
  leave(): Promise<void>;
}

export class VaultLock implements CrossProcessGuard {
  private readonly inRepo: LockFile;
  private readonly inVault: LockFile;
  private readonly dir: string;
  private readonly gitDir: string;
  /** Steps of this process inside the lock: it is taken by the first and released by the last. */
  private inside = 0;
  private held: HeldLock | null = null;
  private taking: Promise<void> | null = null;
  private releasing: Promise<void> = Promise.resolve();

  constructor(
    vaultDir: string,
    private readonly waitMs = WAIT_MS,
  ) {
    this.dir = path.join(vaultDir, VAULT_LOCK_DIR);
    this.gitDir = path.join(vaultDir, '.git');
    const lockFile = (file: string) => new LockFile({ file, staleMs: STALE_MS, refreshMs: REFRESH_MS, label: 'vault write lock' });
    this.inRepo = lockFile(path.join(this.gitDir, REPO_LOCK_NAME));
    this.inVault = lockFile(path.join(this.dir, VAULT_LOCK_NAME));
  }

  async enter(): Promise<void> {
    this.inside++;
    try {
      while (!this.held) {
        this.taking ??= this.take().finally(() => (this.taking = null));
        await this.taking;
      }
    } catch (err) {
      this.inside--;
      throw err;
    }
  }

  async leave(): Promise<void> {
    if (--this.inside > 0 || !this.held) return;
    const held = this.held;
    this.held = null;
    this.releasing = held.release();
    await this.releasing;
  }

  /**
   * The lock file for this take: in `.git/` when it is a real folder, else in the lock's
   * own folder, made real (a link or a file planted under its name goes, so the lock never
   * lands outside the vault).
   */
  private where(): LockFile {
    if (lstatSync(this.gitDir, { throwIfNoEntry: false })?.isDirectory()) return this.inRepo;
    const stats = lstatSync(this.dir, { throwIfNoEntry: false });
    if (!stats?.isDirectory()) {
      if (stats) rmSync(this.dir, { force: true });
      mkdirSync(this.dir, { recursive: true });
    }
    return this.inVault;
  }

  private async take(): Promise<void> {
    const deadline = Date.now() + this.waitMs;
    await this.releasing.catch(() => {});
    for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
      const place = this.where();
      const taken = await place.take();
      if (taken.ok) {
        // `.git` came while this take waited (Initialize repository runs under the lock):
        // a lock taken where others no longer look keeps no one out. Taken again there.
        if (this.where() !== place) {
          await taken.lock.release();
          continue;
        }
        this.held = taken.lock;
        return;
      }
      if (Date.now() > deadline) {
        throw new DomainError('busy', `Another server (pid ${taken.holder.pid}${taken.holder.hostname ? ` on ${taken.holder.hostname}` : ''}) is changing this vault; nothing was changed. Try again in a moment.`, {
          reason: taken.holder.hostname ? 'vault_on_host' : 'vault',
          holder: { pid: taken.holder.pid, hostname: taken.holder.hostname ?? '' },
        });
      }
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
}
