// When passes run without a click (spec 8): at server start, on window open unless
// one ran in the last 5 minutes or one is running, and every `intervalMinutes`
// (re-read at each check, so a changed interval applies at once). A tick while a pass
// runs, or while another process holds the lock, is skipped silently.
import { log } from '../../shared/log.ts';
import type { Settings } from '../../shared/settings.ts';
import { isRepo } from '../git/repo.ts';
import { SyncRefusal, type SyncAnswer, type SyncService, type Trigger } from './service.ts';

export const WINDOW_OPEN_QUIET_MS = 5 * 60_000;
/** How often the timer looks at the settings and the clock. */
const CHECK_EVERY_MS = 5_000;

export interface SchedulerDeps {
  service: SyncService;
  readSettings: () => Promise<Settings>;
  vaultDir: string;
}

export class SyncScheduler {
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;

  constructor(private readonly deps: SchedulerDeps) {}

  /** Runs a pass for a trigger other than Sync now; refusals and lock holders end it quietly. */
  private async quietPass(trigger: Trigger): Promise<SyncAnswer | null> {
    const settings = await this.deps.readSettings();
    if (!settings.sync.enabled || !(await isRepo(this.deps.vaultDir))) return null;
    try {
      return await this.deps.service.sync(trigger);
    } catch (err) {
      if (err instanceof SyncRefusal) return null;
      log.warn(`sync (${trigger}) could not run: ${(err as Error).message}`);
      return null;
    }
  }

  /** spec 8: once at server start; not awaited, so serving never waits on the network. */
  start(): void {
    void this.quietPass('start');
    this.timer = setInterval(() => void this.tick(), CHECK_EVERY_MS);
    this.timer.unref();
  }

  private async tick(): Promise<void> {
    if (this.ticking || this.deps.service.running) return;
    this.ticking = true;
    try {
      const settings = await this.deps.readSettings();
      const minutes = settings.sync.intervalMinutes;
      if (!settings.sync.enabled || !minutes) return;
      if (Date.now() - this.deps.service.lastAttemptAt < minutes * 60_000) return;
      await this.quietPass('scheduled');
    } finally {
      this.ticking = false;
    }
  }

  /** POST /api/sync/open: a pass unless one ran in the last 5 minutes or one is running. */
  async windowOpen(): Promise<{ ran: boolean; outcome?: SyncAnswer['outcome']; message?: string }> {
    const service = this.deps.service;
    if (service.running || Date.now() - service.lastAttemptAt < WINDOW_OPEN_QUIET_MS) return { ran: false };
    const answer = await this.quietPass('open');
    if (!answer) return { ran: false };
    if (answer.outcome === 'busy') return { ran: false, outcome: 'busy', message: answer.message };
    return { ran: true, outcome: answer.outcome, message: answer.message };
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
