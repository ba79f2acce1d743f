// What the server said, in the interface's language. A refusal names why as a stable `code`
// (and `reason`) with its figures, a sync pass its sentences as words (a key and figures); the
// sentence is the table's (i18n-refusals.ts, i18n-sync.ts), filled from those figures. A code,
// reason or key this table does not know, or a figure missing, keeps the server's English.
import { en, t, type StringKey, type Text } from './i18n.ts';
import { isolated, isolatedPath } from './isolate.ts';
import { fieldProblem } from './settings/refusals.ts';
import type { SyncWords } from './types.ts';

type Figures = Record<string, string | number>;

/** The placeholders a sentence needs, in every plural form. */
function placeholders(text: Text): string[] {
  const forms = typeof text === 'string' ? [text] : Object.values(text);
  return [...new Set(forms.flatMap((form) => [...form.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)))];
}

/**
 * The figures of an answer: its strings (each a name, a path or git's words, kept whole in
 * the sentence's direction) and numbers, a nested holder's too. `problem`, the git code's
 * refusal of a saved setting, is said by the settings form's own table where it can be.
 */
/** The fields that hold a vault path: left to right whatever its letters (isolatedPath). */
const PATH_FIELDS = new Set(['path', 'folder', 'target']);

function figuresOf(fields: Record<string, unknown>): Figures {
  const out: Figures = {};
  const add = (name: string, value: unknown) => {
    if (typeof value === 'number') out[name] = value;
    else if (typeof value === 'string') out[name] = PATH_FIELDS.has(name) ? isolatedPath(value) : isolated(value);
  };
  for (const [name, value] of Object.entries(fields)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) for (const [inner, v] of Object.entries(value)) add(inner, v);
    else add(name, value);
  }
  if (typeof fields.field === 'string' && typeof fields.why === 'string') {
    const said = fieldProblem(fields.field, fields.why, fields);
    if (said) out.problem = said;
  }
  return out;
}

/** The first of `keys` the table has, filled from `fields`; null when none fits. */
function said(keys: string[], fields: Record<string, unknown>, extra: Figures = {}): string | null {
  const key = keys.find((k) => Object.hasOwn(en, k)) as StringKey | undefined;
  if (!key) return null;
  const figures = { ...figuresOf(fields), ...extra };
  if (!placeholders(en[key]).every((name) => name in figures)) return null;
  return t(key, figures);
}

/** The sentence of the server's refusal `code`, from its answer `body`; `fallback` (the server's English) when unknown. */
export function refusalText(code: string, body: Record<string, unknown>, fallback: string): string {
  const reason = typeof body.reason === 'string' ? body.reason : null;
  return said([reason === null ? `refused_${code}` : `refused_${code}_${reason}`], body) ?? fallback;
}

/** Whether the interface has a sentence of its own for the refusal `code` (with `reason`). */
export function saysRefusal(code: string, reason?: string): boolean {
  return Object.hasOwn(en, reason ? `refused_${code}_${reason}` : `refused_${code}`);
}

/** A sync pass's result as the panel and the toast say it: its words in the interface's language. */
export function syncText(result: { message: string; words?: SyncWords[] }): string {
  if (!result.words || result.words.length === 0) return result.message;
  const parts = result.words.map(({ key, ...fields }) => {
    const extra: Figures = {};
    // Two counts in one sentence: each said in its own plural form.
    if (typeof fields.ahead === 'number') extra.here = t('sync_commits', { count: fields.ahead });
    if (typeof fields.behind === 'number') extra.there = t('sync_commits', { count: fields.behind });
    // A pass stopped by a refusal says it as the refusal does (one sentence in one place).
    return said([`sync_${key}`, `refused_bad_settings_${key}`, `refused_${key}`], fields, extra);
  });
  return parts.every((p) => p !== null) ? parts.join(' ') : result.message;
}
