// Backup & sync as the app sees it: the status the indicator and the panel draw
// (spec 2.10, 3.1), kept fresh by polling while the window is visible, and the
// actions (Sync now, Snapshot now, Initialize repository, the window-open rule of spec 8).
import { api, ApiError } from '../api.ts';
import { t } from '../i18n.ts';
import { syncText } from '../refusal-text.ts';
import { Store } from '../store.ts';
import type { SyncAnswer, SyncStatus } from '../types.ts';
import { toast, toastError } from '../ui/feedback.ts';
import { timelineStamp } from './timeline.ts';

export type SyncView =
  | { kind: 'loading' }
  | { kind: 'ok'; status: SyncStatus }
  | { kind: 'needs-password'; message: string }
  | { kind: 'error'; message: string };

export const syncView = new Store<SyncView>({ kind: 'loading' });
/** A pass this window started and is waiting for (the indicator turns gold at once). */
export const localRunning = new Store<boolean>(false);
/** The answer of the last Sync now from this window: its divergence or busy sentence. */
export const lastAnswer = new Store<SyncAnswer | null>(null);

const SLOW_POLL_MS = 15_000;
const FAST_POLL_MS = 700;
let timer: ReturnType<typeof setTimeout> | null = null;
let started = false;
/** Backup is off and no status was asked for yet. */
let backupOff = false;

function asView(err: unknown): SyncView {
  if (err instanceof ApiError && err.code === 'needs_password') return { kind: 'needs-password', message: err.message };
  return { kind: 'error', message: err instanceof Error ? err.message : String(err) };
}

export async function refreshSync(): Promise<SyncView> {
  backupOff = false;
  try {
    const status = await api.syncStatus();
    syncView.set({ kind: 'ok', status });
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) throw err;
    syncView.set(asView(err));
  }
  // Backup may have just been switched on or off: (re)start or stop polling.
  schedule();
  return syncView.get();
}

/** Poll fast until then: the server may have started a pass for this window. */
let watchUntil = 0;

function isRunning(): boolean {
  const v = syncView.get();
  return localRunning.get() || Date.now() < watchUntil || (v.kind === 'ok' && (v.status.state === 'running' || v.status.state === 'busy'));
}

/** Backup on, or a pass in flight: only then is the status worth polling (each poll runs git status). */
function worthPolling(): boolean {
  const v = syncView.get();
  if (v.kind === 'loading') return !backupOff;
  return isRunning() || v.kind !== 'ok' || v.status.enabled;
}

function schedule(): void {
  if (timer) clearTimeout(timer);
  if (!started || document.visibilityState !== 'visible' || !worthPolling()) return;
  timer = setTimeout(
    () => {
      void refreshSync()
        .catch(() => undefined)
        .finally(schedule);
    },
    isRunning() ? FAST_POLL_MS : SLOW_POLL_MS,
  );
}

/**
 * Starts polling; wake-ups and vault changes call `pokeSync`. While backup is off
 * (read from the settings, which runs no git) the status is not asked for until
 * the Backup & sync section opens, unless the vault asks for backup (the request shows).
 */
export async function startSyncPolling(): Promise<void> {
  started = true;
  const settings = await api.settings().catch(() => null);
  if (settings && !settings.sync.enabled && !settings.vaultRequest) {
    backupOff = true;
    return;
  }
  await refreshSync().catch(() => undefined);
  if (settings && !settings.sync.enabled) backupOff = true;
}


export function stopSyncPolling(): void {
  started = false;
  if (timer) clearTimeout(timer);
}

let poke: ReturnType<typeof setTimeout> | null = null;
/** Something changed (a save, a wake-up): refresh soon, once. */
export function pokeSync(delay = 800): void {
  if (!started || !worthPolling()) return;
  if (poke) clearTimeout(poke);
  poke = setTimeout(() => {
    poke = null;
    void refreshSync()
      .catch(() => undefined)
      .finally(schedule);
  }, delay);
}

async function whileRunning<T>(work: () => Promise<T>): Promise<T> {
  localRunning.set(true);
  schedule();
  try {
    return await work();
  } finally {
    localRunning.set(false);
    await refreshSync().catch(() => undefined);
    schedule();
    timelineStamp.update((n) => n + 1);
  }
}

export async function syncNow(): Promise<void> {
  try {
    const answer = await whileRunning(() => api.syncNow());
    lastAnswer.set(answer);
    const bad = answer.outcome === 'failed' || answer.outcome === 'diverged';
    toast(answer.outcome === 'busy' ? t('busy') : answer.outcome === 'diverged' ? t('diverged') : syncText(answer), { kind: bad ? 'error' : 'info' });
  } catch (err) {
    toastError(err);
  }
}

export async function snapshotNow(): Promise<void> {
  try {
    await whileRunning(() => api.snapshot());
    toast(t('snapshotDone'));
  } catch (err) {
    toastError(err);
  }
}

export async function initRepository(): Promise<void> {
  try {
    await whileRunning(() => api.syncInit());
    toast(t('initDone'));
  } catch (err) {
    toastError(err);
  }
}

/** spec 8: opening the app asks the server to sync unless one ran in the last 5 minutes. */
export async function windowOpened(): Promise<void> {
  if (backupOff) return;
  const v = syncView.get().kind === 'loading' ? await refreshSync() : syncView.get();
  if (v.kind !== 'ok' || !v.status.enabled) return;
  try {
    watchUntil = Date.now() + 3000;
    schedule();
    const answer = await api.syncOpen();
    if (answer.ran) timelineStamp.update((n) => n + 1);
    await refreshSync();
    schedule();
  } catch (err) {
    if (!(err instanceof ApiError && (err.status === 404 || err.status === 409))) toastError(err);
  }
}
