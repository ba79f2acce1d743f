// Device preferences (spec 8, Appendix C): pulled before anything is drawn, pushed
// one second after a change through PUT /api/prefs (which merges per key). A copy
// in localStorage draws the theme at once and stands in when the server has no
// /api/prefs.
import { api, ApiError } from './api.ts';
import { Store } from './store.ts';

export interface DevicePrefs {
  theme: 'auto' | 'light' | 'dark';
  interfaceLanguage: 'en' | 'ar';
  /** spec Appendix B: once opened, the History section stays open. */
  historySectionOpen: boolean;
}

const DEFAULTS: DevicePrefs = {
  theme: 'auto',
  interfaceLanguage: 'en',
  historySectionOpen: false,
};

const LOCAL_KEY = 'vault-admin-prefs';
// The server carries a change into the vault one second later (spec 8); this only
// coalesces a burst of clicks.
const PUSH_DELAY_MS = 250;

export const prefs = new Store<DevicePrefs>({ ...DEFAULTS, ...readLocal() });

/** This device's switch 'Settings travel with the vault' (null: not reported). */
export const travelWithVault = new Store<boolean | null>(null);

let serverHasPrefs = true;
let pending: Partial<Record<keyof DevicePrefs, unknown>> = {};
let timer: ReturnType<typeof setTimeout> | null = null;

function readLocal(): Partial<DevicePrefs> {
  try {
    return JSON.parse(localStorage.getItem(LOCAL_KEY) ?? '{}') as Partial<DevicePrefs>;
  } catch {
    return {};
  }
}

function writeLocal(value: DevicePrefs): void {
  try {
    localStorage.setItem(LOCAL_KEY, JSON.stringify(value));
  } catch {
    /* private mode: the server copy is enough */
  }
}

function pick(keys: Record<string, unknown>): Partial<DevicePrefs> {
  const out: Partial<DevicePrefs> = {};
  const theme = keys.theme;
  if (theme === 'auto' || theme === 'light' || theme === 'dark') out.theme = theme;
  const language = keys.interfaceLanguage;
  if (language === 'en' || language === 'ar') out.interfaceLanguage = language;
  for (const k of ['historySectionOpen'] as const) {
    if (typeof keys[k] === 'boolean') out[k] = keys[k] as boolean;
  }
  return out;
}

/** Pulls the server's copy; called once after sign-in, before the app is drawn. */
export async function pullPrefs(): Promise<void> {
  try {
    const answer = await api.prefs();
    serverHasPrefs = true;
    if (typeof answer.travelWithVault === 'boolean') travelWithVault.set(answer.travelWithVault);
    const next = { ...DEFAULTS, ...readLocal(), ...pick(answer.keys ?? {}) };
    prefs.set(next);
    writeLocal(next);
  } catch (err) {
    // A server without /api/prefs yet: this device's copy is the only one.
    if (err instanceof ApiError && (err.status === 404 || err.status === 0)) serverHasPrefs = false;
  }
}

export function setPref<K extends keyof DevicePrefs>(key: K, value: DevicePrefs[K]): void {
  const current = prefs.get();
  if (current[key] === value) return;
  const next = { ...current, [key]: value };
  prefs.set(next);
  writeLocal(next);
  if (!serverHasPrefs) return;
  pending[key] = value;
  if (timer) clearTimeout(timer);
  timer = setTimeout(flushPrefs, PUSH_DELAY_MS);
}

export async function setTravelWithVault(on: boolean): Promise<void> {
  const answer = await api.putPrefs({}, on);
  travelWithVault.set(typeof answer.travelWithVault === 'boolean' ? answer.travelWithVault : on);
}

export async function flushPrefs(): Promise<void> {
  if (timer) clearTimeout(timer);
  timer = null;
  const keys = pending;
  pending = {};
  if (Object.keys(keys).length === 0) return;
  try {
    await api.putPrefs(keys);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) serverHasPrefs = false;
    else pending = { ...keys, ...pending };
  }
}

/** Applies the theme to <html data-theme>; `auto` follows the system. */
export function applyTheme(theme: DevicePrefs['theme']): void {
  const dark = theme === 'dark' || (theme === 'auto' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.dataset.theme = dark ? 'dark' : 'light';
}
