// Field-by-field validation of a settings object (CONTRACT §5). A PATCH is checked
// whole before anything is written: the first unknown key or wrong type names its
// field. The same rules vet a settings.json arriving from the vault (spec 8).
import { DomainError } from '../errors.ts';
import { parseVaultPath } from '../vault-path.ts';
import { siteLanguageTag } from './languages.ts';

/** Each field as the settings form names it: a refusal names the field in the owner's words. */
const FIELD_LABELS: Record<string, string> = {
  siteName: 'Site name',
  tagline: 'Tagline',
  logo: 'Logo',
  language: 'Site language',
  homeNote: 'Home note',
  footer: 'Footer',
  'folders.templates': 'Templates folder',
  'calendars.display': 'Calendar',
  'home.mode': 'Home page',
  'home.banner': 'Banner',
  'publishing.layout': 'Layout',
  'publishing.shareButtons': 'Share buttons',
  'publishing.languageFilter': 'Language filter',
  'publishing.feedContent': 'Feed content',
  'publishing.properties': 'Properties panel',
  'collections.enabled': 'Collections',
  'collections.showOnHome': 'Show collections on the home page',
  'collections.showInNav': 'Show collections in the navigation',
  'collections.source': 'Collections come from',
  'versions.keep': 'Keep note versions',
  'comments.enabled': 'Comments',
  'comments.moderation': 'Comment moderation',
  'sync.enabled': 'Backup',
  'sync.remoteUrl': 'Remote URL',
  'sync.branch': 'Branch',
  'sync.pullFirst': 'Pull first',
  'sync.intervalMinutes': 'Sync every',
  'sync.username': 'User name',
  'sync.token': 'Access token',
};

/** The form's name of a field, or its key (free-form keys have no label). */
export function labelOf(field: string): string {
  return Object.hasOwn(FIELD_LABELS, field) ? FIELD_LABELS[field]! : field;
}

export const SYNC_INTERVALS = [0, 5, 15, 30, 60, 360, 1440] as const;
/** CONTRACT §10: the calendar of every date a visitor reads. */
export const CALENDAR_DISPLAYS = ['gregorian', 'hijri', 'both'] as const;
/** Settings → Publishing → Feed content: the excerpt, or the whole article. */
export const FEED_CONTENTS = ['excerpt', 'full'] as const;
/** Settings → Publishing → Properties panel on articles: off (the default) or shown. */
export const PROPERTIES_PANELS = ['off', 'shown'] as const;

/** Why the git code refuses a value: a stable word (`remote_scheme`), its figures, the sentence. */
export interface CheckRefusal {
  reason: string;
  message: string;
  figures?: Record<string, string | number>;
}

/** Remote URL and branch rules live with the git code; the caller hands them in. */
export interface SettingsChecks {
  remoteUrl?: (url: string) => CheckRefusal | null;
  branch?: (name: string) => CheckRefusal | null;
}

const refusedBy = (field: string, code: string, problem: CheckRefusal) => new SettingsError(field, code, problem.message, { reason: problem.reason, ...problem.figures });

/** A settings field refused: `unknown_setting`, `bad_setting`, `bad_remote` or `bad_branch`, naming the field. */
export class SettingsError extends DomainError {
  constructor(
    /** Dotted name of the offending field, e.g. `home.mode`. */
    readonly field: string,
    code: string,
    message: string,
    /** Why, as a stable word and its figures (`too_long`, `max`): the app says it in the owner's language. */
    reason: Record<string, unknown> = {},
  ) {
    super(code, message, { field, ...reason });
    this.name = 'SettingsError';
  }
}

export interface ValidPatch {
  /** The patch without `sync.token`, values normalised (null = unset). */
  patch: Record<string, unknown>;
  /** `undefined`: token untouched; `null`: Clear token; a string: the new token. */
  token?: string | null;
}

/** `stored`: the value comes from a whole settings.json (the vault's copy), not from a PATCH. */
type Rule = (value: unknown, field: string, checks?: SettingsChecks, stored?: boolean) => unknown;

const bad = (field: string, message: string, reason?: string, figures: Record<string, unknown> = {}) =>
  new SettingsError(field, 'bad_setting', message, reason ? { reason, ...figures } : {});

// eslint-disable-next-line no-control-regex
// Noncharacters and lone surrogates too: the site name and tagline go into the feed, which
// XML cannot hold them in.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f\ufffe\uffff]|\p{Cs}/u;
// eslint-disable-next-line no-control-regex
const CONTROL_OR_NEWLINE = /[\u0000-\u001f\u007f\ufffe\uffff]|\p{Cs}/u;

function text(max: number, options: { nullable?: boolean; multiline?: boolean } = {}): Rule {
  return (value, field) => {
    if (value === null && options.nullable) return null;
    if (typeof value !== 'string') throw bad(field, `${labelOf(field)} must be ${options.nullable ? 'text or null' : 'text'}.`, 'not_text');
    if (value.length > max) throw bad(field, `${labelOf(field)} must be at most ${max} characters.`, 'too_long', { max });
    if ((options.multiline ? CONTROL : CONTROL_OR_NEWLINE).test(value)) throw bad(field, `${labelOf(field)} contains control characters.`, 'control_characters');
    // An empty text field means "not set" (so the environment may fill it, spec 2.1).
    if (options.nullable && value.trim() === '') return null;
    return value;
  };
}

function oneOf<T extends string | number>(values: readonly T[], options: { nullable?: boolean } = {}): Rule {
  return (value, field) => {
    if (value === null && options.nullable) return null;
    if (!values.includes(value as T)) {
      throw bad(field, `${labelOf(field)} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}${options.nullable ? ' or null' : ''}.`, 'not_one_of');
    }
    return value;
  };
}

function bool(options: { nullable?: boolean } = {}): Rule {
  return (value, field) => {
    if (value === null && options.nullable) return null;
    if (typeof value !== 'boolean') throw bad(field, `${labelOf(field)} must be true or false${options.nullable ? ' or null' : ''}.`, 'not_one_of');
    return value;
  };
}

/** spec 2.2: `home.banner` (and the logo) is an https URL or a vault attachment. */
const imageRef: Rule = (value, field) => {
  const v = text(2048, { nullable: true })(value, field);
  if (v === null) return null;
  const s = (v as string).trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(s)) {
    let url: URL;
    try {
      url = new URL(s);
    } catch {
      throw bad(field, `${labelOf(field)} must be an https:// address or a file in the vault.`, 'not_https_or_vault');
    }
    if (url.protocol !== 'https:') throw bad(field, `${labelOf(field)} must be an https:// address or a file in the vault.`, 'not_https_or_vault');
    if (url.username || url.password) throw bad(field, `${labelOf(field)} must not carry a user name or password.`, 'credentials_in_address');
    return url.href;
  }
  return vaultPath(field, s);
};

function vaultPath(field: string, s: string): string {
  try {
    return parseVaultPath(s);
  } catch (err) {
    throw bad(field, `${labelOf(field)}: ${(err as Error).message}`, 'not_a_vault_path');
  }
}

const nullableVaultPath: Rule = (value, field) => {
  const v = text(1024, { nullable: true })(value, field);
  return v === null ? null : vaultPath(field, (v as string).trim());
};

const folderPath: Rule = (value, field) => vaultPath(field, (text(1024)(value, field) as string).trim());

const language: Rule = (value, field, _checks, stored) => {
  const v = text(35, { nullable: true })(value, field);
  if (v === null) return null;
  const tag = siteLanguageTag(v as string);
  if (tag) return tag;
  // A copy from the vault written before this rule keeps its other settings; the site reads the value as unset.
  if (stored) return null;
  throw bad(field, `${labelOf(field)}: “${(v as string).trim()}” is not a language this site offers; choose one from the list, such as English (en), العربية (ar) or Français (fr).`, 'not_a_language', { value: (v as string).trim() });
};

const remoteUrl: Rule = (value, field, checks) => {
  const v = text(2048, { nullable: true })(value, field);
  if (v === null) return null;
  const url = (v as string).trim();
  const problem = checks?.remoteUrl?.(url) ?? null;
  if (problem) throw refusedBy(field, 'bad_remote', problem);
  return url;
};

const branch: Rule = (value, field, checks) => {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new SettingsError(field, 'bad_branch', `${labelOf(field)} must be a branch name.`, { reason: 'branch_required' });
  }
  const name = value.trim();
  const problem = checks?.branch?.(name) ?? (name.length > 255 || /[\s~^:?*[\\]/.test(name) ? { reason: 'branch_characters', message: 'That is not a valid branch name.' } : null);
  if (problem) throw refusedBy(field, 'bad_branch', problem);
  return name;
};

/** The token is write-only: a non-empty string without spaces, or null (Clear token). */
const token: Rule = (value, field) => {
  if (value === null) return null;
  if (typeof value !== 'string' || value.length === 0) throw bad(field, `${labelOf(field)} must be a non-empty text or null.`);
  if (value.length > 4096 || /\s/.test(value) || CONTROL_OR_NEWLINE.test(value)) {
    throw bad(field, `${labelOf(field)} must be a single word without spaces.`);
  }
  return value;
};

const RECORD_KEY = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;

/**
 * Free-form groups (typography, calendars): flat keys whose values are short text,
 * numbers, booleans or lists of text (e.g. `catalogFamilies`); null removes a key.
 */
const record: Rule = (value, field) => {
  if (!isPlainObject(value)) throw bad(field, `${labelOf(field)} must be an object.`);
  const entries = Object.entries(value);
  if (entries.length > 64) throw bad(field, `${labelOf(field)} may hold at most 64 keys.`);
  const out: Record<string, unknown> = {};
  for (const [key, v] of entries) {
    const name = `${field}.${key}`;
    // A free-form key may not shadow what every object already has (`constructor`, `toString`…).
    if (!RECORD_KEY.test(key) || key in Object.prototype) throw new SettingsError(name, 'unknown_setting', `${name} is not a valid key.`);
    if (v === null || typeof v === 'boolean') out[key] = v;
    else if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw bad(name, `${labelOf(name)} must be a finite number.`);
      out[key] = v;
    } else if (typeof v === 'string') out[key] = text(500, { multiline: false })(v, name);
    else if (Array.isArray(v)) {
      if (v.length > 50 || !v.every((x) => typeof x === 'string' && x.length <= 200 && !CONTROL_OR_NEWLINE.test(x))) {
        throw bad(name, `${labelOf(name)} must be a list of at most 50 short texts.`);
      }
      out[key] = [...v];
    } else throw bad(name, `${labelOf(name)} must be text, a number, true/false, a list of texts or null.`);
  }
  return out;
};

/** A free-form group some of whose keys have rules of their own (`calendars.display`). */
function recordWith(known: Record<string, Rule>): Rule {
  return (value, field, checks) => {
    const out = record(value, field, checks) as Record<string, unknown>;
    for (const [key, rule] of Object.entries(known)) if (Object.hasOwn(out, key)) out[key] = rule(out[key], `${field}.${key}`, checks);
    return out;
  };
}

type Group = Record<string, Rule>;

/**
 * A table's own entry for `key`, never one inherited from Object.prototype: a key named
 * `constructor`, `toString` or `__proto__` is then simply not a setting.
 */
function ownEntry<T>(table: Record<string, T>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Sets `out[key]` as an own property (assigning `__proto__` would change out's prototype). */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

/** The schema: every key a PATCH may carry (CONTRACT §5). */
const SCHEMA: Record<string, Rule | Group> = {
  siteName: text(200, { nullable: true }),
  tagline: text(500, { nullable: true }),
  logo: imageRef,
  language,
  homeNote: nullableVaultPath,
  footer: text(1000, { nullable: true, multiline: true }),
  folders: { templates: folderPath },
  typography: record,
  calendars: recordWith({ display: oneOf(CALENDAR_DISPLAYS, { nullable: true }) }),
  home: { mode: oneOf(['note', 'dashboard']), banner: imageRef },
  publishing: {
    layout: oneOf(['default', 'blog', 'designed'], { nullable: true }),
    shareButtons: bool(),
    languageFilter: bool(),
    feedContent: oneOf(FEED_CONTENTS),
    properties: oneOf(PROPERTIES_PANELS),
  },
  collections: { enabled: bool(), showOnHome: bool(), showInNav: bool(), source: oneOf(['tags', 'folders']) },
  versions: { keep: bool({ nullable: true }) },
  comments: { enabled: bool(), moderation: oneOf(['all', 'known', 'none']) },
  sync: {
    enabled: bool(),
    remoteUrl,
    branch,
    pullFirst: bool(),
    intervalMinutes: oneOf(SYNC_INTERVALS),
    username: text(200, { nullable: true }),
    token,
  },
};

/** Keys a GET answer carries that a client may send back unchanged; they are ignored. */
const READ_ONLY = new Set(['tokenSet', 'fromEnv', 'effective', 'vaultRequest']);

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The deepest an unknown key's value may nest (settings this version knows are shallower still). */
const MAX_CARRIED_DEPTH = 32;

/**
 * An unknown key's value, carried as it is when it is plain JSON of a sane depth. One of
 * 200,000 nested arrays arriving with the vault once stopped every build (and the settings
 * API) on the stack, and the site answered 503 after a restart. Walked without recursion.
 */
function carried(value: unknown, field: string): unknown {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > MAX_CARRIED_DEPTH) throw bad(field, `${labelOf(field)} nests deeper than ${MAX_CARRIED_DEPTH} levels.`);
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return value;
}

function validateGroup(group: Group, value: unknown, field: string, checks: SettingsChecks, lenient: boolean) {
  if (!isPlainObject(value)) throw bad(field, `${labelOf(field)} must be an object.`);
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const name = `${field}.${key}`;
    const rule = ownEntry(group, key);
    if (!rule) {
      if (lenient) {
        put(out, key, carried(v, name));
        continue;
      }
      throw new SettingsError(name, 'unknown_setting', `${name} is not a setting.`);
    }
    put(out, key, rule(v, name, checks, lenient));
  }
  return out;
}

function validateObject(input: unknown, checks: SettingsChecks, lenient: boolean): Record<string, unknown> {
  if (!isPlainObject(input)) throw bad('(body)', 'Settings must be a JSON object.');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input)) {
    if (READ_ONLY.has(key)) continue;
    const rule = ownEntry(SCHEMA, key);
    if (!rule) {
      if (lenient) {
        put(out, key, carried(value, key));
        continue;
      }
      throw new SettingsError(key, 'unknown_setting', `${key} is not a setting.`);
    }
    put(out, key, typeof rule === 'function' ? rule(value, key, checks, lenient) : validateGroup(rule, value, key, checks, lenient));
  }
  return out;
}

/** Validates a PATCH body; throws SettingsError naming the first bad field. */
export function validateSettingsPatch(input: unknown, checks: SettingsChecks = {}): ValidPatch {
  const patch = validateObject(input, checks, false);
  const result: ValidPatch = { patch };
  if (isPlainObject(patch.sync) && 'token' in patch.sync) {
    const { token: t, ...rest } = patch.sync;
    result.token = t as string | null;
    patch.sync = rest;
    if (Object.keys(rest).length === 0) delete patch.sync;
  }
  return result;
}

/**
 * Vets a whole settings.json (one that arrived from the vault): known fields must be
 * valid; keys this version does not know are carried as they are (a newer server may
 * have written them). A token is never kept in settings.json (spec 2.2).
 */
export function validateStoredSettings(input: unknown, checks: SettingsChecks = {}): Record<string, unknown> {
  const out = validateObject(input, checks, true);
  if (isPlainObject(out.sync) && 'token' in out.sync) {
    const { token: _dropped, ...rest } = out.sync;
    out.sync = rest;
  }
  return out;
}
