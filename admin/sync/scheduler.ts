// When passes run without a click (spec 8): at server start, on window open unless
// one ran in the last 5 minutes or one is running, and every `intervalMinutes`
// (re-read at each check, so a changed interval applies at once). A tick while a pass
// runs, or while another process holds the lock, is skipped silently.
import { log } from '../../shared/log.ts';
import { DomainError } from '../../shared/errors.ts';
import { syncSettingsOf, type Settings } from '../../shared/settings.ts';
import { isRepo } from '../git/repo.ts';
import type { SyncAnswer, SyncService, Trigger } from './service.ts';
import type { SyncStatus } from './status.ts';
import { answerVaultRequest, type VaultRequestAction } from './vault-request.ts';

export const WINDOW_OPEN_QUIET_MS = 5 * 60_000;
/** How often the timer looks at the settings and the clock (more often for a very short period). */
const CHECK_EVERY_MS = 5_000;

/**
 * The period from settings, in ms, or null for Manual. The panel offers 5, 15, 30, 60,
 * 360 and 1440 minutes; a hand-edited settings.json may hold another positive number,
 * which is honoured up to once a day.
 */
export function periodMs(settings: Settings): number | null {
  const sync = syncSettingsOf(settings);
  if (!sync.enabled || sync.intervalMinutes <= 0) return null;
  return Math.min(sync.intervalMinutes, 1440) * 60_000;
}

export interface SchedulerDeps {
  service: SyncService;
  readSettings: () => Promise<Settings>;
  vaultDir: string;
  dataDir: string;
}

export class SyncScheduler {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: SchedulerDeps) {}

  /** A pass without a click runs only with sync on in a repository. */
  private async passWanted(): Promise<boolean> {
    return syncSettingsOf(await this.deps.readSettings()).enabled && (await isRepo(this.deps.vaultDir));
  }

  private async quietPass(trigger: Trigger): Promise<SyncAnswer | null> {
    return (await this.passWanted()) ? this.pass(trigger) : null;
  }

  /**
   * Runs a pass for a trigger other than Sync now; refusals and lock holders end it
   * quietly. The service claims the pass before its first await.
   */
  private async pass(trigger: Trigger): Promise<SyncAnswer | null> {
    try {
      return await this.deps.service.sync(trigger);
    } catch (err) {
      if (err instanceof DomainError) return null;
      log.warn(`sync (${trigger}) could not run: ${(err as Error).message}`);
      return null;
    }
  }

  /**
   * spec 8: once at server start. Whether it runs is settled before the server answers,
   * so the status says running from the first request; the pass itself is not awaited,
   * so serving never waits on the network.
   */
  async start(): Promise<void> {
    if (await this.passWanted()) void this.pass('start');
    this.schedule(CHECK_EVERY_MS);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), delayMs);
    this.timer.unref();
  }

  /** Settings are re-read at every check, so a new period applies without a restart. */
  private async tick(): Promise<void> {
    let next = CHECK_EVERY_MS;
    try {
      const period = periodMs(await this.deps.readSettings());
      if (period !== null) {
        next = Math.max(250, Math.min(CHECK_EVERY_MS, period / 2));
        // spec 8: a tick while a sync runs is skipped.
        if (!this.deps.service.running && Date.now() - this.deps.service.lastAttemptAt >= period) await this.quietPass('scheduled');
      }
    } catch (err) {
      log.warnOnce(`sync-tick:${(err as Error).message}`, `sync schedule: ${(err as Error).message}`);
    } finally {
      this.schedule(next);
    }
  }

  /** POST /api/sync/open: a pass unless one ran in the last 5 minutes or one is running. */
  async windowOpen(): Promise<{ ran: boolean; outcome?: SyncAnswer['outcome']; message?: string }> {
    const service = this.deps.service;
    await service.loadLast();
    if (service.running || Date.now() - service.lastAttemptAt < WINDOW_OPEN_QUIET_MS) return { ran: false };
    const answer = await this.quietPass('open');
    if (!answer) return { ran: false };
    if (answer.outcome === 'busy') return { ran: false, outcome: 'busy', message: answer.message };
    return { ran: true, outcome: answer.outcome, message: answer.message };
  }

  /**
   * POST /api/sync/vault-request: Allow applies the vault's backup target and runs a pass
   * as a start would (not awaited); Ignore keeps this device's. Answers the new status.
   */
  async answerVaultRequest(action: VaultRequestAction): Promise<SyncStatus> {
    await answerVaultRequest(this.deps.dataDir, action);
    if (action === 'allow') void this.quietPass('allowed');
    return this.deps.service.status();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
