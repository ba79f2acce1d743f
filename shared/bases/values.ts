// The values a base's expressions compute with: text, numbers, booleans, null, lists,
// dates, links and the row's file. A note's properties come from its frontmatter (hostile
// input): they are copied into these shapes with their own keys only, bounded in size.

/** A date (`date("2025-01-02")`, `now()`, `file.mtime`, a property holding one). */
export class BaseDate {
  constructor(
    readonly ms: number,
    /** Written with a time of day (`now()`) rather than a day alone. */
    readonly hasTime: boolean,
  ) {}
}

/** A link to a note by name or path, shown as its note's title when that note is published (`link()`, `file.asLink()`, `"[[X]]"`). */
export class BaseLink {
  constructor(
    readonly target: string,
    readonly display: string | null,
  ) {}
}

/** A property holding keys of its own (a YAML mapping): read by its own keys only. */
export class BaseObject {
  constructor(readonly entries: ReadonlyMap<string, Value>) {}
}

export type Value = string | number | boolean | null | BaseDate | BaseLink | BaseObject | Value[];

/** Longest text a computation may make: a concatenation past it is cut. */
export const MAX_TEXT = 10_000;
/** Most items a list may hold (a property's or `split()`'s). */
export const MAX_LIST = 1_000;

/** A frontmatter value as a base reads it; `budget` bounds how many values one property may bring. */
export function fromProperty(raw: unknown, budget = { left: 5_000 }): Value {
  if (--budget.left < 0) return null;
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string') return raw.length > MAX_TEXT ? raw.slice(0, MAX_TEXT) : raw;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw === 'boolean') return raw;
  if (raw instanceof Date) return Number.isFinite(raw.getTime()) ? new BaseDate(raw.getTime(), raw.getUTCHours() + raw.getUTCMinutes() + raw.getUTCSeconds() !== 0) : null;
  if (Array.isArray(raw)) return raw.slice(0, MAX_LIST).map((v) => fromProperty(v, budget));
  if (typeof raw === 'object') {
    const entries = new Map<string, Value>();
    for (const key of Object.keys(raw).slice(0, MAX_LIST)) entries.set(key, fromProperty((raw as Record<string, unknown>)[key], budget));
    return new BaseObject(entries);
  }
  return null;
}

export function isTruthy(v: Value): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof BaseObject) return v.entries.size > 0;
  return v !== null && v !== false && v !== 0 && v !== '' && !(typeof v === 'number' && Number.isNaN(v));
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A date as text: `YYYY-MM-DD`, with ` HH:mm` when it has a time (UTC: the same on every server). */
export function dateText(d: BaseDate): string {
  const t = new Date(d.ms);
  const day = `${t.getUTCFullYear()}-${pad(t.getUTCMonth() + 1)}-${pad(t.getUTCDate())}`;
  return d.hasTime ? `${day} ${pad(t.getUTCHours())}:${pad(t.getUTCMinutes())}` : day;
}

/** `date.format("YYYY-MM-DD HH:mm")`: the common tokens of Moment's format, UTC. */
export function formatDate(d: BaseDate, format: string): string {
  const t = new Date(d.ms);
  const parts: Record<string, string> = {
    YYYY: String(t.getUTCFullYear()),
    YY: pad(t.getUTCFullYear() % 100),
    MM: pad(t.getUTCMonth() + 1),
    M: String(t.getUTCMonth() + 1),
    DD: pad(t.getUTCDate()),
    D: String(t.getUTCDate()),
    HH: pad(t.getUTCHours()),
    H: String(t.getUTCHours()),
    mm: pad(t.getUTCMinutes()),
    ss: pad(t.getUTCSeconds()),
  };
  return format.slice(0, 200).replace(/YYYY|YY|MM|M|DD|D|HH|H|mm|ss/g, (token) => parts[token]!);
}

/** A value as a reader sees it in a cell. */
export function displayText(v: Value): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e10) / 1e10);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (v instanceof BaseDate) return dateText(v);
  if (v instanceof BaseLink) return v.display ?? v.target;
  if (v instanceof BaseObject) return [...v.entries].map(([k, x]) => `${k}: ${displayText(x)}`).join(', ').slice(0, MAX_TEXT);
  return v.map(displayText).join(', ').slice(0, MAX_TEXT);
}

/** `"2025-01-02"`, `"2025-01-02 10:30"`, `"2025-01-02T10:30:00Z"` as a date (UTC), or null. */
export function parseDate(text: string): BaseDate | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.exec(text.trim());
  if (!m) return null;
  const ms = m[4] === undefined ? Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!) : Date.parse(`${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6] ?? '00'}${m[7] ?? 'Z'}`);
  return Number.isFinite(ms) ? new BaseDate(ms, m[4] !== undefined) : null;
}

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000, M: 2_592_000_000, y: 31_536_000_000 };
const UNIT_NAMES: Record<string, string> = { second: 's', minute: 'm', hour: 'h', day: 'd', week: 'w', month: 'M', year: 'y' };

/** `"1d"`, `"2 weeks"`, `"-3 hours"` as milliseconds, or null. */
export function parseDuration(text: string): number | null {
  const m = /^\s*(-?\d{1,9})\s*([a-zA-Z]+)\s*$/.exec(text);
  if (!m) return null;
  const word = m[2]!;
  const unit = word.length === 1 ? word : UNIT_NAMES[word.toLowerCase().replace(/s$/, '')];
  const ms = unit ? UNIT_MS[unit] : undefined;
  return ms === undefined ? null : Number(m[1]) * ms;
}
