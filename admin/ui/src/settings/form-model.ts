// One form model for Settings and Backup & sync: each field shows the value
// in effect and where it comes from (this server's environment, the saved settings,
// or the default); an edit is a draft that survives every redraw (a save elsewhere,
// a server answer) until it is saved or discarded; drafts are flagged before leaving;
// one Save sends every draft of the form in one PATCH. Settings changed on the server
// meanwhile (another tab, another server through the mirror) show in every untouched field;
// an edited field keeps the owner's draft and says what the server's value became.
import { ApiError } from '../api.ts';
import { Store, useStore } from '../store.ts';
import type { Settings } from '../types.ts';
import { refusalSentence } from './refusals.ts';
import { loadSettings, patchSettings, settingsView } from './settings-model.ts';

export type Source = 'environment' | 'settings' | 'default';

/** Field keys are paths into the settings object: `siteName`, `sync.remoteUrl`. */
export type FieldKey = string;

/** Unsaved edits, by field. */
export const drafts = new Store<Record<FieldKey, unknown>>({});
/** The value in effect when each draft was begun: a draft over a value changed since is shown as such. */
const draftBases = new Map<FieldKey, unknown>();
/** The server's refusal of a field at the last save. */
export const fieldErrors = new Store<Record<FieldKey, string>>({});

/** The environment variable behind each site field (spec 2.1). */
export const ENV_NAMES: Record<FieldKey, string> = {
  siteName: 'SITE_NAME',
  tagline: 'SITE_TAGLINE',
  homeNote: 'HOME_NOTE',
  footer: 'SITE_FOOTER',
  language: 'SITE_LANG',
  'publishing.layout': 'PUBLIC_LAYOUT',
  'comments.enabled': 'COMMENTS',
};

/** Where the effective value of a key lives in GET /api/settings' `effective`. */
const EFFECTIVE_KEY: Record<FieldKey, keyof NonNullable<Settings['effective']>> = {
  siteName: 'siteName',
  tagline: 'tagline',
  homeNote: 'homeNote',
  footer: 'footer',
  language: 'language',
  'publishing.layout': 'layout',
};

function get(obj: unknown, key: FieldKey): unknown {
  let cur = obj;
  for (const part of key.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  return cur;
}

const blank = (v: unknown) => v === null || v === undefined || v === '';

/** The value in effect for `key`: what is saved, else what the environment or the default gives. */
export function effectiveValue(s: Settings, key: FieldKey): unknown {
  const value = get(s, key);
  if (!blank(value)) return value;
  const eff = EFFECTIVE_KEY[key];
  return eff && s.effective ? s.effective[eff] : value;
}

export function sourceOf(s: Settings, key: FieldKey): Source {
  if ((s.fromEnv ?? []).includes(key)) return 'environment';
  return blank(get(s, key)) ? 'default' : 'settings';
}

/** Inputs show strings; the saved form of an empty text field is null. */
const same = (a: unknown, b: unknown) => (blank(a) && blank(b)) || a === b;

/** Records an edit; an edit back to the value in effect (or the shown default) is no draft. */
export function setField(key: FieldKey, value: unknown, shownDefault?: unknown): void {
  const view = settingsView.get();
  const next = { ...drafts.get() };
  const inEffect = view.kind === 'ok' ? (key === 'sync.token' ? '' : effectiveValue(view.settings, key)) : undefined;
  if (view.kind === 'ok' && same(value, inEffect ?? shownDefault)) delete next[key];
  else {
    if (!(key in next)) draftBases.set(key, inEffect ?? shownDefault);
    next[key] = value;
  }
  drafts.set(next);
  if (fieldErrors.get()[key]) {
    const errors = { ...fieldErrors.get() };
    delete errors[key];
    fieldErrors.set(errors);
  }
}

export function dirtyKeys(inForm: (key: FieldKey) => boolean): FieldKey[] {
  return Object.keys(drafts.get()).filter(inForm);
}

export function discard(keys: FieldKey[]): void {
  const next = { ...drafts.get() };
  for (const k of keys) {
    delete next[k];
    draftBases.delete(k);
  }
  drafts.set(next);
  const errors = { ...fieldErrors.get() };
  for (const k of keys) delete errors[k];
  fieldErrors.set(errors);
}

/** The PATCH body for these drafts: `{ siteName, sync: { remoteUrl } }`, blanks as null. */
export function patchOf(keys: FieldKey[]): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const values = drafts.get();
  for (const key of keys) {
    let value = values[key];
    if (typeof value === 'string') value = value.trim() === '' ? null : value.trim();
    const parts = key.split('.');
    let target = patch;
    for (const part of parts.slice(0, -1)) target = (target[part] ??= {}) as Record<string, unknown>;
    target[parts[parts.length - 1]!] = value;
  }
  return patch;
}

/** Which field a refusal names: the server's `field`, or the code of a sync check. */
function fieldOfError(err: ApiError, keys: FieldKey[]): FieldKey | null {
  const byCode: Record<string, FieldKey> = { bad_remote: 'sync.remoteUrl', bad_branch: 'sync.branch' };
  const named = typeof err.body.field === 'string' ? err.body.field : byCode[err.code];
  if (named && keys.includes(named)) return named;
  if (named) return keys.find((k) => k.endsWith(`.${named}`) || k === named) ?? null;
  if (/token|username/.test(err.code)) return keys.find((k) => k === 'sync.token' || k === 'sync.username') ?? null;
  return null;
}

/** Saves the drafts of one form in one PATCH. A refusal keeps every draft and names the field. */
export async function saveFields(keys: FieldKey[]): Promise<void> {
  if (keys.length === 0) return;
  // The values this save sends: an edit made while it is on its way is a draft still.
  const sent = drafts.get();
  try {
    await patchSettings(patchOf(keys));
  } catch (err) {
    const field = err instanceof ApiError ? fieldOfError(err, keys) : null;
    if (!field) throw err;
    // Said once, in the owner's language, beside the field and wherever the caller shows the error.
    const sentence = refusalSentence(err as ApiError, field);
    fieldErrors.set({ ...fieldErrors.get(), [field]: sentence });
    throw new ApiError((err as ApiError).status, (err as ApiError).code, sentence, (err as ApiError).body);
  }
  const view = settingsView.get();
  const now = drafts.get();
  // Saved: the drafts it sent, and a later edit that came back to the value now in effect.
  discard(keys.filter((k) => now[k] === sent[k] || (view.kind === 'ok' && k !== 'sync.token' && same(now[k], effectiveValue(view.settings, k)))));
}

/**
 * The server's settings changed (the live \`settings\` event, a wake-up): a loaded form reads
 * them again. Untouched fields show the new values; a draft now equal to the value in effect
 * is no longer an edit; other drafts stay, and the field says what the value became.
 */
export async function settingsChangedOnServer(): Promise<void> {
  if (settingsView.get().kind === 'loading') return;
  await loadSettings();
  const view = settingsView.get();
  if (view.kind !== 'ok') return;
  const now = drafts.get();
  discard(Object.keys(now).filter((k) => k !== 'sync.token' && same(now[k], effectiveValue(view.settings, k))));
}

export interface FieldState<T> {
  value: T;
  /** The value in effect (saved, else environment, else default), whatever the draft. */
  effective: unknown;
  set: (value: T) => void;
  dirty: boolean;
  /** For a draft: the value in effect when it differs from the one the draft was begun over (changed elsewhere since). */
  changedTo: unknown;
  source: Source;
  error: string | null;
}

/** A field of the form: its shown value (draft, else the effective value), source, draft flag and error. */
export function useField<T>(s: Settings, key: FieldKey, fallback: T): FieldState<T> {
  const d = useStore(drafts);
  const errors = useStore(fieldErrors);
  const dirty = key in d;
  const shown = dirty ? d[key] : key === 'sync.token' ? '' : effectiveValue(s, key);
  const effective = key === 'sync.token' ? '' : (effectiveValue(s, key) ?? fallback);
  return {
    value: (shown === null || shown === undefined ? fallback : shown) as T,
    effective,
    set: (value) => setField(key, value, fallback),
    dirty,
    changedTo: dirty && key !== 'sync.token' && draftBases.has(key) && !same(draftBases.get(key), effective) ? effective : undefined,
    source: sourceOf(s, key),
    error: errors[key] ?? null,
  };
}

/** True while the form holds unsaved edits (the page also asks before it is closed). */
export function hasDrafts(inForm: (key: FieldKey) => boolean = () => true): boolean {
  return dirtyKeys(inForm).length > 0;
}

window.addEventListener('beforeunload', (e) => {
  if (!hasDrafts()) return;
  e.preventDefault();
  e.returnValue = '';
});
