// The sync service of one server process: it serialises repository-changing work
// inside the process (a second request answers 409 at once) and across processes (the
// lock file), records the last result, and answers the status panel.
import path from 'node:path';
import type { Config } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { refuse } from '../../shared/errors.ts';
import { syncSettingsOf, type Settings, type SyncSettings } from '../../shared/settings.ts';
import { readCredentials, tokenFor } from '../git/credentials.ts';
import { branchRefusal, remoteHost, remotePlace, remoteUrlRefusal } from '../git/remote-url.ts';
import { gitDirOf, isRepo } from '../git/repo.ts';
import type { NetworkAuth } from '../../shared/git-run.ts';
import { readLastResult, writeLastResult, type LastResult, type SyncOutcome, type SyncWords } from './last-result.ts';
import { busyMessage, liveHolder, takeLock, type LockRecord } from './lock.ts';
import {
  initRepository,
  initSteps,
  snapshotSteps,
  syncSteps,
  type InitResult,
  type PassResult,
  type RepoTarget,
  type SnapshotResult,
  type SyncPlan,
} from './pass.ts';
import { readStatus, type SyncStatus } from './status.ts';
import { pendingVaultRequest } from './vault-request.ts';
import { VaultEntries } from '../../shared/vault-walk.ts';

export type Trigger = 'manual' | 'scheduled' | 'start' | 'open' | 'allowed';

/**
 * Why a request could not start, as a domain error (shared/errors.ts): `sync_running`,
 * `busy` (naming the holder), `not_repo`, `sync_off`, `index_locked` or `bad_settings`.
 */
const busy = (holder: LockRecord) => refuse('busy', busyMessage(holder), { reason: 'sync', holder: { pid: holder.pid, hostname: holder.hostname } });

/** Git runs only in a repository: told before the vault is walked for nested ones. */
async function requireRepo(vaultDir: string): Promise<void> {
  if (!(await isRepo(vaultDir))) throw refuse('not_repo', 'The vault is not a git repository yet; use Initialize repository first.');
}

/**
 * The branch and remote URL in settings, checked once per pass before git sees them
 * (a hand-edited or arriving settings.json may hold anything).
 */
export function settingsProblem(sync: SyncSettings): { message: string; words: SyncWords } | null {
  const branchProblem = branchRefusal(sync.branch);
  if (branchProblem) {
    return { message: `The branch in settings is refused: ${branchProblem.message}`, words: { key: 'branch_refused', field: 'sync.branch', why: branchProblem.reason, problem: branchProblem.message, ...branchProblem.figures } };
  }
  const remoteProblem = sync.remoteUrl ? remoteUrlRefusal(sync.remoteUrl) : null;
  if (!remoteProblem) return null;
  return { message: `The remote URL in settings is refused: ${remoteProblem.message}`, words: { key: 'remote_refused', field: 'sync.remoteUrl', why: remoteProblem.reason, problem: remoteProblem.message, ...remoteProblem.figures } };
}

export interface SyncServiceDeps {
  config: Pick<Config, 'vaultDir' | 'dataDir' | 'gitSshCommand'>;
  readSettings: () => Promise<Settings>;
  /** The data directory, vault-relative with `/`, when it lies inside the vault. */
  dataDirRel: () => Promise<string | null>;
  /** Runs a step that changes the vault's files with every note change of every server held off (RepoTarget.holdingVault). */
  holdingVault?: <T>(step: () => Promise<T>) => Promise<T>;
}

export interface SyncAnswer {
  outcome: SyncOutcome;
  message: string;
  words: SyncWords[];
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
    const target: RepoTarget = { vaultDir: this.deps.config.vaultDir, dataDirRel: await this.deps.dataDirRel(), signal: this.stopping.signal, holdingVault: this.deps.holdingVault };
    target.nestedRepositories = await nestedRepositories(target);
    return target;
  }

  /**
   * Claims this process's one repository-changing job before the first await, so the
   * status says running from the moment a pass is asked for (a start pass included).
   */
  private async held<T>(kind: 'sync' | 'snapshot' | 'init', job: () => Promise<T>): Promise<T> {
    if (this.current) throw refuse('sync_running', RUNNING_MESSAGE);
    let release!: () => void;
    this.current = { kind, done: new Promise<void>((r) => (release = r)) };
    try {
      return await job();
    } finally {
      this.current = null;
      release();
    }
  }

  /** Runs `work` under the cross-process lock; the caller holds this process's claim. */
  private async underLock<T>(kind: 'sync' | 'snapshot' | 'init', work: (target: RepoTarget) => Promise<T>, beforeLock?: (target: RepoTarget) => Promise<void>): Promise<T | { busy: LockRecord }> {
    const target = await this.target();
    await beforeLock?.(target);
    await requireRepo(target.vaultDir);
    const taken = await takeLock(await gitDirOf(target.vaultDir));
    if (!taken.ok) return { busy: taken.holder };
    log.info(`sync lock taken for ${kind} (pid ${process.pid})`);
    try {
      return await work(target);
    } finally {
      log.info(`sync lock released after ${kind} (pid ${process.pid})`);
      await taken.lock.release();
    }
  }

  private async plan(sync: SyncSettings): Promise<SyncPlan> {
    const creds = await readCredentials(this.deps.config.dataDir);
    const { remoteUrl } = sync;
    const place = remotePlace(remoteUrl);
    const token = tokenFor(creds, place);
    if (creds && token === null) {
      log.warn(`the access token was saved for ${creds.authority ?? creds.host}; the remote now points at ${place.authority ?? 'no host'}, so it is not sent (save the token again to use it there)`);
    }
    const auth: NetworkAuth = { token, username: creds?.username ?? sync.username, sshCommand: this.deps.config.gitSshCommand };
    return { remoteUrl, branch: sync.branch, pullFirst: sync.pullFirst, auth };
  }

  private async record(result: PassResult): Promise<void> {
    const last: LastResult = { at: new Date().toISOString(), ok: result.ok, outcome: result.outcome, message: result.message, words: result.words };
    if (result.error !== undefined) last.error = result.error;
    this.last = last;
    await writeLastResult(this.deps.config.dataDir, last).catch((err) => log.warn(`could not save the last sync result: ${err}`));
  }

  /** spec 3.4: one sync pass. A scheduled tick that finds the lock held does nothing at all. */
  sync(trigger: Trigger): Promise<SyncAnswer> {
    return this.held('sync', async () => {
      await this.loadLast();
      const sync = syncSettingsOf(await this.deps.readSettings());
      if (!sync.enabled) throw refuse('sync_off', 'Backup & sync is off; turn it on in Settings first.');
      await requireRepo(this.deps.config.vaultDir);
      this.lastAttemptAt = Date.now();
      const plan = await this.plan(sync);
      const problem = settingsProblem(sync);
      // A refused branch or remote ends the pass as failed (the red state), git never runs.
      let nested: string[] = [];
      const outcome = await this.underLock('sync', (target): Promise<PassResult> => {
        nested = target.nestedRepositories ?? [];
        return problem ? Promise.resolve({ outcome: 'failed', ok: false, message: problem.message, words: [problem.words] }) : syncSteps(target, plan);
      });
      if ('busy' in outcome) {
        const message = busyMessage(outcome.busy);
        return { outcome: 'busy', message, words: [{ key: 'busy_sync', pid: outcome.busy.pid }], holder: { pid: outcome.busy.pid, hostname: outcome.busy.hostname } };
      }
      // Said once per pass, in its answer and its log line: git itself says nothing of them.
      const sentence = nestedRepositoriesSentence(nested);
      if (sentence) {
        outcome.message = `${outcome.message} ${sentence}`;
        outcome.words = [...outcome.words, ...nested.map((p) => ({ key: 'nested_repository', path: p }))];
      }
      await this.record(outcome);
      this.logOutcome(trigger, outcome);
      const answer: SyncAnswer = { outcome: outcome.outcome, message: outcome.message, words: outcome.words };
      if (outcome.error !== undefined) answer.error = outcome.error;
      return answer;
    });
  }

  private logOutcome(trigger: Trigger, result: PassResult): void {
    // One log line: the remote's own lines (a hook's refusal) are joined, never a line of their own.
    const message = result.message.replace(/(?:(?<!\s)\s+)?\n\s*/g, ' / ');
    if (result.ok) {
      this.lastLoggedFailure = null;
      log.info(`sync (${trigger}): ${result.outcome}: ${message}`);
      return;
    }
    // spec 7: a failing scheduled sync is logged once, not once per tick.
    if (trigger !== 'manual' && this.lastLoggedFailure === message) return;
    this.lastLoggedFailure = message;
    log.warn(`sync (${trigger}) ${result.outcome}: ${message}`);
  }

  /** spec 4.1: Snapshot now; 409 when the lock is held by another process. */
  snapshot(): Promise<SnapshotResult> {
    // A pass's own refusals (RefusedError, IndexLockedError) are domain errors already.
    return this.held('snapshot', async () => {
      const result = await this.underLock('snapshot', (target) => snapshotSteps(target));
      if ('busy' in result) throw busy(result.busy);
      log.info(`snapshot: ${result.message}`);
      return result;
    });
  }

  /** spec 3.5: Initialize repository; 409 when the lock is held by another process. */
  init(): Promise<InitResult> {
    return this.held('init', async () => {
      const sync = syncSettingsOf(await this.deps.readSettings());
      const problem = settingsProblem(sync);
      if (problem) {
        const { key, ...figures } = problem.words;
        throw refuse('bad_settings', problem.message, { reason: key, ...figures });
      }
      const { branch, remoteUrl } = sync;
      let created = false;
      const result = await this.underLock(
        'init',
        (target) => initSteps(target, remoteUrl, created),
        async (target) => {
          if (await isRepo(target.vaultDir)) return;
          // The lock lives in .git, so `git init` (harmless to repeat) comes first: with every
          // server's changes held off (the vault write lock moves into .git with it).
          const hold = target.holdingVault ?? ((step) => step());
          await hold(async () => {
            if (!(await isRepo(target.vaultDir))) await initRepository(target, branch);
          });
          created = true;
        },
      );
      if ('busy' in result) throw busy(result.busy);
      log.info(`init: ${result.message}`);
      return result;
    });
  }

  async status(): Promise<SyncStatus> {
    await this.loadLast();
    const settings = await this.deps.readSettings();
    const target = await this.target();
    const repo = await isRepo(target.vaultDir);
    const holder = repo && !this.current ? await liveHolder(await gitDirOf(target.vaultDir)).catch(() => null) : null;
    const vaultRequest = await pendingVaultRequest(this.deps.config.dataDir);
    return readStatus({ target, settings, repo, running: this.current !== null, holder, last: this.last, vaultRequest, nestedRepositories: repo ? (target.nestedRepositories ?? []) : [] });
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

/**
 * Folders of the vault that are git repositories of their own, seen by the vault walker
 * (an in-vault data directory is not the vault's).
 */
export function nestedRepositories(target: RepoTarget): Promise<string[]> {
  const skip = target.dataDirRel ? [path.join(target.vaultDir, target.dataDirRel)] : [];
  return new VaultEntries(target.vaultDir, skip).nestedRepositories();
}

/** What a pass says of them, plainly: the outer repository records a gitlink and nothing else. */
export function nestedRepositoriesSentence(paths: string[]): string | null {
  if (paths.length === 0) return null;
  return paths.map((p) => `${p}/ is its own git repository: its notes are not in this backup.`).join(' ');
}

/** The data directory relative to the vault, with `/`, when it lies inside it. */
export function relativeInVault(vaultDir: string, inVault: string | null): string | null {
  if (!inVault) return null;
  return path.relative(vaultDir, inVault).split(path.sep).join('/') || null;
}
