// The settings mirror as a long-lived service of the admin (spec 8): one pass at boot,
// then one every few seconds (SETTINGS_MIRROR_SECONDS), one soon after a settings
// save, device preferences pushed one second after a change and pulled when the app
// asks for them, and the catalog fonts fetched when the files naming them change.
import { promises as fs } from 'node:fs';
import type { Config } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import type { SettingsChecks } from '../../shared/settings.ts';
import { catalogFamilies, downloadCatalog } from './catalog.ts';
import { TravelFiles } from './files.ts';
import type { FontCaps } from './font-caps.ts';
import type { CrossProcessGuard } from '../vault/vault-lock.ts';
import { mirrorPass } from './mirror.ts';
import { liveKeys } from './prefs.ts';
import { PrefsStore } from './prefs-store.ts';
import { travelItems } from './report.ts';
import type { CatalogReport, PassSummary, TravelReport } from './report-types.ts';
import { TravelState } from './state.ts';

export interface TravelServiceOptions {
  config: Config;
  checks: SettingsChecks;
  /** The vault's write lock: two servers' passes never write `.service/` on the strength of the same look. */
  vaultLock?: CrossProcessGuard;
  fontCaps?: FontCaps;
  /** Told of each file a pass adopted or merged from the vault into the data directory. */
  pulled?: (rel: string) => void;
}

export interface PrefsView {
  keys: Record<string, unknown>;
  /** The per-device switch 'Settings travel with the vault' (stays on this device). */
  travelWithVault: boolean;
}

/** spec 8: device preferences are pushed one second after a change. */
const PREFS_PUSH_DELAY_MS = 1000;
const SOON_MS = 50;

export class TravelService {
  private readonly files = new TravelFiles();
  private readonly state: TravelState;
  private readonly dataDir: string;
  private vaultReal = '';
  private prefsStore!: PrefsStore;
  private queue: Promise<unknown> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  private soonTimer: NodeJS.Timeout | null = null;
  private prefsTimer: NodeJS.Timeout | null = null;
  private started = false;
  private closed = false;
  private lastPass: PassSummary | null = null;
  private lastProblemsKey = '';
  private catalog: CatalogReport = { configured: false, at: null, families: [] };
  private catalogRun: Promise<void> | null = null;
  private catalogAgain = false;
  private catalogInputs: string | null = null;

  constructor(private readonly options: TravelServiceOptions) {
    this.dataDir = options.config.dataDir;
    this.state = new TravelState(this.dataDir);
    this.catalog.configured = options.config.fontCatalogUrl !== null;
  }

  get periodMs(): number {
    return Math.round(this.options.config.settingsMirrorSeconds * 1000);
  }

  /** The boot pass (local files only: quick), then the timer; catalog fonts in the background. */
  async start(): Promise<void> {
    this.vaultReal = await fs.realpath(this.options.config.vaultDir);
    await this.state.load();
    this.prefsStore = new PrefsStore(this.dataDir, this.vaultReal, this.files);
    this.lastPass = this.state.vault(this.vaultReal).lastPass;
    this.started = true;
    // A failing pass is reported and retried at the next tick; it never stops the server.
    await this.pass().catch((err) => log.error(`settings mirror: boot pass failed: ${(err as Error).message}`));
    this.schedule();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const pending = this.soonTimer !== null || this.prefsTimer !== null;
    for (const t of [this.timer, this.soonTimer, this.prefsTimer]) if (t) clearTimeout(t);
    this.timer = this.soonTimer = this.prefsTimer = null;
    // A change made just before the stop still travels.
    if (pending && this.started) await this.enqueue(() => this.runPass()).catch(() => {});
    await this.queue.catch(() => {});
    await this.catalogRun?.catch(() => {});
  }

  private schedule(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.pass()
        .catch((err) => log.warnOnce(`travel-pass:${(err as Error).message}`, `settings mirror: pass failed: ${(err as Error).message}`))
        .finally(() => this.schedule());
    }, this.periodMs);
    this.timer.unref();
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => {});
    return run;
  }

  /** One mirror pass (files, then preferences when this device lets them travel). */
  pass(): Promise<PassSummary> {
    if (!this.started) return Promise.reject(new Error('the settings mirror has not started'));
    return this.enqueue(() => this.runPass());
  }

  private async runPass(): Promise<PassSummary> {
    const began = Date.now();
    const memory = this.state.vault(this.vaultReal);
    const outcome = await mirrorPass({
      dataDir: this.dataDir,
      vaultReal: this.vaultReal,
      files: this.files,
      checks: this.options.checks,
      bases: memory.bases,
      copies: memory.copies,
      vaultLock: this.options.vaultLock,
      fontCaps: this.options.fontCaps,
    });
    if (this.state.travelWithVault) {
      const prefs = await this.prefsStore.sync();
      outcome.problems.push(...prefs.problems);
      outcome.copied += prefs.copied;
      if (prefs.agreed) outcome.reconciled++;
    }
    const summary: PassSummary = {
      at: new Date().toISOString(),
      durationMs: Date.now() - began,
      reconciled: outcome.reconciled,
      copied: outcome.copied,
      problems: outcome.problems,
    };
    this.lastPass = summary;
    memory.lastPass = summary;
    for (const rel of outcome.pulled) this.options.pulled?.(rel);
    const problemsKey = JSON.stringify(summary.problems);
    if (outcome.basesChanged || outcome.copied > 0 || problemsKey !== this.lastProblemsKey) {
      this.lastProblemsKey = problemsKey;
      await this.state.save().catch((err) => log.warn(`could not save the travel state: ${(err as Error).message}`));
      for (const p of summary.problems) log.warnOnce(`travel:${p.file}:${p.code}`, `settings mirror: ${p.file} ${p.reason}`);
    }
    this.maybeFetchCatalog();
    return summary;
  }

  /** After a settings save: push it soon rather than at the next tick. */
  settingsSaved(): void {
    if (this.closed || !this.started || this.soonTimer) return;
    this.soonTimer = setTimeout(() => {
      this.soonTimer = null;
      void this.pass().catch((err) => log.warn(`settings mirror: ${(err as Error).message}`));
    }, SOON_MS);
  }

  /** Catalog families are fetched again whenever settings.json or designs.json changes here. */
  private maybeFetchCatalog(): void {
    void (async () => {
      const s = await this.files.state(this.dataDir, 'settings.json').catch(() => null);
      const d = await this.files.state(this.dataDir, 'designs.json').catch(() => null);
      const inputs = `${s?.hash ?? '-'}:${d?.hash ?? '-'}`;
      if (inputs === this.catalogInputs) return;
      this.catalogInputs = inputs;
      void this.fetchCatalog().catch(() => {});
    })();
  }

  /** Single flight: a request during a run makes it run once more. */
  fetchCatalog(): Promise<void> {
    if (this.catalogRun) {
      this.catalogAgain = true;
      return this.catalogRun;
    }
    this.catalogRun = (async () => {
      do {
        this.catalogAgain = false;
        await this.runCatalog();
      } while (this.catalogAgain && !this.closed);
    })().finally(() => {
      this.catalogRun = null;
    });
    return this.catalogRun;
  }

  private async runCatalog(): Promise<void> {
    const settings = await readJsonOrNull(`${this.dataDir}/settings.json`);
    const designs = await readJsonOrNull(`${this.dataDir}/designs.json`);
    const families = catalogFamilies(settings, designs);
    const base = this.options.config.fontCatalogUrl;
    const at = new Date().toISOString();
    if (!base) {
      this.catalog = { configured: false, at, families: families.map((family) => ({ family, state: 'skipped', error: 'FONT_CATALOG_URL is not set' })) };
      return;
    }
    const reports = await downloadCatalog(this.dataDir, base, families);
    this.catalog = { configured: true, at, families: reports };
    for (const r of reports) if (r.state === 'failed') log.warnOnce(`catalog:${r.family}:${r.error}`, `font catalog: ${r.family}: ${r.error}`);
  }

  async report(): Promise<TravelReport> {
    const items = await travelItems({
      dataDir: this.dataDir,
      vaultReal: this.vaultReal,
      files: this.files,
      bases: this.state.vault(this.vaultReal).bases,
      prefs: this.prefsStore,
      travelWithVault: this.state.travelWithVault,
    });
    return {
      travelWithVault: this.state.travelWithVault,
      periodSeconds: this.options.config.settingsMirrorSeconds,
      items,
      lastPass: this.lastPass,
      reconciled: this.lastPass?.reconciled ?? 0,
      problems: this.lastPass?.problems ?? [],
      catalog: this.catalog,
    };
  }

  /** Re-sync now: one pass plus the font download, then the report. */
  async resync(): Promise<TravelReport> {
    await this.pass();
    await this.fetchCatalog();
    return this.report();
  }

  /** GET /api/prefs: pulled from the vault before the app draws anything. */
  async getPrefs(): Promise<PrefsView> {
    if (this.state.travelWithVault) {
      const outcome = await this.prefsStore.sync();
      for (const p of outcome.problems) log.warnOnce(`prefs:${p.file}:${p.code}`, `preferences: ${p.file} ${p.reason}`);
    }
    return { keys: liveKeys(await this.prefsStore.readLocal()), travelWithVault: this.state.travelWithVault };
  }

  /** PUT /api/prefs: changes land on this device at once and travel one second later. */
  async putPrefs(changes: Record<string, unknown>, travelWithVault?: boolean): Promise<PrefsView> {
    if (travelWithVault !== undefined && travelWithVault !== this.state.travelWithVault) {
      this.state.travelWithVault = travelWithVault;
      await this.state.save();
    }
    const doc = Object.keys(changes).length > 0 ? await this.prefsStore.update(changes) : await this.prefsStore.readLocal();
    if (this.state.travelWithVault && (Object.keys(changes).length > 0 || travelWithVault === true)) this.schedulePrefsPush();
    return { keys: liveKeys(doc), travelWithVault: this.state.travelWithVault };
  }

  private schedulePrefsPush(): void {
    if (this.closed || this.prefsTimer) return;
    this.prefsTimer = setTimeout(() => {
      this.prefsTimer = null;
      if (!this.state.travelWithVault) return;
      void this.prefsStore.sync().catch((err) => log.warn(`preferences: ${(err as Error).message}`));
    }, PREFS_PUSH_DELAY_MS);
  }
}

async function readJsonOrNull(file: string): Promise<unknown> {
  try {
    return JSON.parse(await fs.readFile(file, 'utf8'));
  } catch {
    return null;
  }
}
