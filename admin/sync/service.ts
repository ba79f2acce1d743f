// The sync service of one server process: it serialises repository-changing work
// inside the process (a second request answers 409 at once) and across processes (the
// lock file), records the last result, and answers the status panel.
import path from 'node:path';
import type { Config } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import type { Settings } from '../../shared/settings.ts';
import { readCredentials, tokenFor } from '../git/credentials.ts';
import { remoteHost } from '../git/remote-url.ts';
import { checkBranchName, checkRemoteUrl } from '../git/remote-url.ts';
import { gitDirOf, isRepo } from '../git/repo.ts';
import type { NetworkAuth } from '../../shared/git-run.ts';
import { readLastResult, writeLastResult, type LastResult, type SyncOutcome } from './last-result.ts';
import { busyMessage, IndexLockedError, liveHolder, takeLock, type LockRecord } from './lock.ts';
import {
  initRepository,
  initSteps,
  RefusedError,
  snapshotSteps,
  syncSteps,
  type InitResult,
  type PassResult,
  type RepoTarget,
  type SnapshotResult,
} from './pass.ts';
import { readStatus, type SyncStatus } from './status.ts';

export type Trigger = 'manual' | 'scheduled' | 'start' | 'open';

export type RefusalCode = 'sync_running' | 'busy' | 'not_repo' | 'sync_off' | 'bad_settings' | 'index_locked';

/** Why a request could not start; the route maps it to HTTP 409 (or 400 for bad settings). */
export class SyncRefusal extends Error {
  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly holder: LockRecord | null = null,
  ) {
    super(message);
    this.name = 'SyncRefusal';
  }
}

export interface SyncServiceDeps {
  config: Pick<Config, 'vaultDir' | 'dataDir' | 'gitSshCommand'>;
  readSettings: () => Promise<Settings>;
  /** The data directory, vault-relative with `/`, when it lies inside the vault. */
  dataDirRel: () => Promise<string | null>;
}

export interface SyncAnswer {
  outcome: SyncOutcome;
  message: string;
  error?: string;
  holder?: { pid: number; hostname: string };
}

const RUNNING_MESSAGE = 'A sync is already running in this server; wait for it to finish.';

export class SyncService {
  private current: { kind: 'sync' | 'snapshot' | 'init'; done: Promise<unknown> } | null = null;
  private last: LastResult | null = null;
  private loaded = false;
  /** When the last pass of any kind started (ms), for the window-open and schedule rules. */
  lastAttemptAt = 0;
  private lastLoggedFailure: string | null = null;
  private readonly stopping = new AbortController();

  constructor(private readonly deps: SyncServiceDeps) {}

  get running(): boolean {
    return this.current !== null;
  }

  async loadLast(): Promise<void> {
    if (this.loaded) return;
    this.loaded = true;
    this.last = await readLastResult(this.deps.config.dataDir);
    if (this.last) this.lastAttemptAt = Math.max(this.lastAttemptAt, Date.parse(this.last.at) || 0);
  }

  private async target(): Promise<RepoTarget> {
    return { vaultDir: this.deps.config.vaultDir, dataDirRel: await this.deps.dataDirRel(), signal: this.stopping.signal };
  }

  /** Runs `work` as this process's one repository-changing job, under the cross-process lock. */
  private async exclusive<T>(kind: 'sync' | 'snapshot' | 'init', work: (target: RepoTarget) => Promise<T>, beforeLock?: (target: RepoTarget) => Promise<void>): Promise<T | { busy: LockRecord }> {
    if (this.current) throw new SyncRefusal('sync_running', RUNNING_MESSAGE);
    let release!: () => void;
    this.current = { kind, done: new Promise<void>((r) => (release = r)) };
    try {
      const target = await this.target();
      await beforeLock?.(target);
      if (!(await isRepo(target.vaultDir))) {
        throw new SyncRefusal('not_repo', 'The vault is not a git repository yet; use Initialize repository first.');
      }
      const taken = await takeLock(await gitDirOf(target.vaultDir));
      if (!taken.ok) return { busy: taken.holder };
      log.info(`sync lock taken for ${kind} (pid ${process.pid})`);
      try {
        return await work(target);
      } finally {
        log.info(`sync lock released after ${kind} (pid ${process.pid})`);
        await taken.lock.release();
      }
    } finally {
      this.current = null;
      release();
    }
  }

  private async plan(settings: Settings): Promise<{ remoteUrl: string | null; branch: string; pullFirst: boolean; auth: NetworkAuth }> {
    const creds = await readCredentials(this.deps.config.dataDir);
    const remoteUrl = settings.sync.remoteUrl || null;
    const token = tokenFor(creds, remoteHost(remoteUrl));
    if (creds && token === null) {
      log.warn(`the access token was saved for ${creds.host}; the remote now points at ${remoteHost(remoteUrl) ?? 'no host'}, so it is not sent (save the token again to use it there)`);
    }
    return {
      remoteUrl,
      branch: settings.sync.branch || 'main',
      pullFirst: settings.sync.pullFirst === true,
      auth: {
        token,
        username: creds?.username ?? settings.sync.username ?? null,
        sshCommand: this.deps.config.gitSshCommand,
      },
    };
  }

  private async record(result: PassResult): Promise<void> {
    const last: LastResult = { at: new Date().toISOString(), ok: result.ok, outcome: result.outcome, message: result.message };
    if (result.error !== undefined) last.error = result.error;
    this.last = last;
    await writeLastResult(this.deps.config.dataDir, last).catch((err) => log.warn(`could not save the last sync result: ${err}`));
  }

  /** spec 3.4: one sync pass. A scheduled tick that finds the lock held does nothing at all. */
  async sync(trigger: Trigger): Promise<SyncAnswer> {
    await this.loadLast();
    const settings = await this.deps.readSettings();
    if (!settings.sync.enabled) throw new SyncRefusal('sync_off', 'Backup & sync is off; turn it on in Settings first.');
    this.lastAttemptAt = Date.now();
    const plan = await this.plan(settings);
    const outcome = await this.exclusive('sync', (target) => syncSteps(target, plan));
    if ('busy' in outcome) {
      const message = busyMessage(outcome.busy);
      return { outcome: 'busy', message, holder: { pid: outcome.busy.pid, hostname: outcome.busy.hostname } };
    }
    await this.record(outcome);
    this.logOutcome(trigger, outcome);
    const answer: SyncAnswer = { outcome: outcome.outcome, message: outcome.message };
    if (outcome.error !== undefined) answer.error = outcome.error;
    return answer;
  }

  private logOutcome(trigger: Trigger, result: PassResult): void {
    if (result.ok) {
      this.lastLoggedFailure = null;
      log.info(`sync (${trigger}): ${result.outcome}: ${result.message}`);
      return;
    }
    // spec 7: a failing scheduled sync is logged once, not once per tick.
    if (trigger !== 'manual' && this.lastLoggedFailure === result.message) return;
    this.lastLoggedFailure = result.message;
    log.warn(`sync (${trigger}) ${result.outcome}: ${result.message}`);
  }

  /** spec 4.1: Snapshot now; 409 when the lock is held by another process. */
  async snapshot(): Promise<SnapshotResult> {
    const result = await this.exclusive('snapshot', async (target) => {
      try {
        return await snapshotSteps(target);
      } catch (err) {
        if (err instanceof RefusedError) throw new SyncRefusal('bad_settings', err.message);
        if (err instanceof IndexLockedError) throw new SyncRefusal('index_locked', err.message);
        throw err;
      }
    });
    if ('busy' in result) throw new SyncRefusal('busy', busyMessage(result.busy), result.busy);
    log.info(`snapshot: ${result.message}`);
    return result;
  }

  /** spec 3.5: Initialize repository; 409 when the lock is held by another process. */
  async init(): Promise<InitResult> {
    const settings = await this.deps.readSettings();
    const branch = settings.sync.branch || 'main';
    const branchProblem = checkBranchName(branch);
    if (branchProblem) throw new SyncRefusal('bad_settings', `The branch in settings is refused: ${branchProblem}`);
    const remoteUrl = settings.sync.remoteUrl || null;
    const remoteProblem = remoteUrl ? checkRemoteUrl(remoteUrl) : null;
    if (remoteProblem) throw new SyncRefusal('bad_settings', `The remote URL in settings is refused: ${remoteProblem}`);
    let created = false;
    const result = await this.exclusive(
      'init',
      async (target) => {
        try {
          return await initSteps(target, remoteUrl, created);
        } catch (err) {
          if (err instanceof RefusedError) throw new SyncRefusal('bad_settings', err.message);
          if (err instanceof IndexLockedError) throw new SyncRefusal('index_locked', err.message);
          throw err;
        }
      },
      async (target) => {
        if (await isRepo(target.vaultDir)) return;
        // The lock lives in .git, so `git init` (harmless to repeat) comes first.
        await initRepository(target, branch);
        created = true;
      },
    );
    if ('busy' in result) throw new SyncRefusal('busy', busyMessage(result.busy), result.busy);
    log.info(`init: ${result.message}`);
    return result;
  }

  async status(): Promise<SyncStatus> {
    await this.loadLast();
    const settings = await this.deps.readSettings();
    const target = await this.target();
    const repo = await isRepo(target.vaultDir);
    const holder = repo && !this.current ? await liveHolder(await gitDirOf(target.vaultDir)).catch(() => null) : null;
    return readStatus({ target, settings, repo, running: this.current !== null, holder, last: this.last });
  }

  /** Aborts running git calls and waits briefly for the pass to let go of the lock. */
  async close(): Promise<void> {
    const running = this.current?.done;
    if (!running) return;
    await Promise.race([running, new Promise((r) => setTimeout(r, 1500))]);
    if (this.current) {
      this.stopping.abort();
      await Promise.race([this.current?.done, new Promise((r) => setTimeout(r, 2000))]);
    }
  }
}

/** The data directory relative to the vault, with `/`, when it lies inside it. */
export function relativeInVault(vaultDir: string, inVault: string | null): string | null {
  if (!inVault) return null;
  return path.relative(vaultDir, inVault).split(path.sep).join('/') || null;
}
