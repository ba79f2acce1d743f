// The instance settings (CONTRACT §5) as one store: loaded on demand, patched
// partially, the server's answer taken as the new truth.
import { api } from '../api.ts';
import { Store } from '../store.ts';
import type { Settings } from '../types.ts';

export type SettingsView = { kind: 'loading' } | { kind: 'ok'; settings: Settings } | { kind: 'error'; message: string; code: string };

export const settingsView = new Store<SettingsView>({ kind: 'loading' });

/** Reads and saves begun so far: a read answered after a newer read or save began is stale, and dropped. */
let asked = 0;

export async function loadSettings(): Promise<void> {
  const mine = ++asked;
  try {
    const settings = await api.settings();
    if (mine === asked) settingsView.set({ kind: 'ok', settings });
  } catch (err) {
    const e = err as { message?: string; code?: string };
    if (mine === asked) settingsView.set({ kind: 'error', message: e.message ?? String(err), code: e.code ?? 'error' });
  }
}

/** PATCH /api/settings; throws the server's refusal (400 bad_remote, bad_branch, ...). */
export async function patchSettings(patch: Record<string, unknown>): Promise<Settings> {
  const answer = await api.patchSettings(patch);
  // Some servers answer the whole object, some only an acknowledgement: re-read then.
  if (answer && typeof answer === 'object' && 'sync' in answer) {
    asked++;
    settingsView.set({ kind: 'ok', settings: answer });
  } else await loadSettings();
  const v = settingsView.get();
  if (v.kind !== 'ok') throw new Error(v.kind === 'error' ? v.message : 'Settings are not loaded.');
  return v.settings;
}
