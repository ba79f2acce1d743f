// Post dates (spec 2.4, D.2): frontmatter `date`, `created`, `published` (first
// that parses), then a numeric `id`, then the first creation time remembered for
// the path (created.json, filled from git), then the file's own time.
import { rawScalar, type Frontmatter } from './frontmatter.ts';

export type DateSource = 'frontmatter' | 'id' | 'created' | 'file';

export interface PostDate {
  ms: number;
  source: DateSource;
  /**
   * The offset the frontmatter wrote after the date's time (`2023-07-22T00:00:00+08:00`: 480), in
   * minutes east of UTC, when not 0: pages show the day the author wrote, as Hugo does (authorMs).
   */
  zoneMin?: number;
}

export const DATE_KEYS = ['date', 'created', 'published'] as const;

/** Keys naming a note's last change (Hugo's `lastmod`, the Linter plugin's `date modified`, Quartz's `updated`): they come before git's last commit and the file's time. */
export const UPDATED_KEYS = ['updated', 'modified', 'lastmod', 'last-modified', 'date modified'] as const;

// Plausible post dates: 1970 up to the year 3000. Outside that, a number is not a date.
const MIN_MS = 0;
const MAX_MS = Date.UTC(3000, 0, 1);

function plausible(ms: number): boolean {
  return Number.isFinite(ms) && ms >= MIN_MS && ms <= MAX_MS;
}

const DATE_ONLY = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const DATE_TIME_NO_ZONE = /^(\d{4})-(\d{1,2})-(\d{1,2})[T ](\d{1,2}):(\d{2})(?::(\d{2})(?:\.(\d+))?)?$/;
/** `15.01.2024`: day, month, year, as every language that writes dates with dots orders them. */
const DOTTED = /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/;
/** A link to a daily note (`[[2024-01-15]]`, `[[Daily/2024-01-15|Monday]]`): the periodic notes' way of dating a note. */
const DAY_LINK = /^\[\[(?:[^\]|#]*\/)?([^\]|#/]+)(?:[|#][^\]]*)?\]\]$/;
/** A zone the text writes: `Z` or an offset after a time, or a zone's name. */
const WRITTEN_ZONE = /\d[zZ]\b|\b(?:GMT|UTC|UT|[ECMP][SD]T)\b|\d:\d\d(?::\d\d(?:\.\d+)?)?\s*[+-]\d\d:?\d\d/;

/** A calendar day as epoch ms (UTC midnight), or null when there is no such day. */
function dayMs(y: number, mo: number, d: number): number | null {
  const ms = Date.UTC(y, mo - 1, d);
  const check = new Date(ms);
  return check.getUTCMonth() === mo - 1 && check.getUTCDate() === d && plausible(ms) ? ms : null;
}

/** `YYYYMMDD`, `YYYYMMDDHHmm` or `YYYYMMDDHHmmss` as the moment it writes (UTC, as a bare YAML date), or null. */
function compactDate(digits: string): number | null {
  const m = /^([12]\d{3})(\d\d)(\d\d)(?:(\d\d)(\d\d)(\d\d)?)?$/.exec(digits);
  if (!m || (digits.length !== 8 && digits.length !== 12 && digits.length !== 14)) return null;
  const day = dayMs(Number(m[1]), Number(m[2]), Number(m[3]));
  const [h, min, sec] = [Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0)];
  return day === null || h > 23 || min > 59 || sec > 59 ? null : day + ((h * 60 + min) * 60 + sec) * 1000;
}

/** A frontmatter value as epoch ms, or null when it is not a date. */
export function parseDateValue(value: unknown): number | null {
  if (value instanceof Date) {
    const ms = value.getTime();
    return plausible(ms) ? ms : null;
  }
  if (typeof value === 'number') {
    // A day and time written as digits (`20240117`, a Zettelkasten's `202401171030`), else clearly epoch milliseconds.
    const compact = Number.isSafeInteger(value) ? compactDate(String(value)) : null;
    if (compact !== null) return compact;
    return value > 1e11 && plausible(value) ? value : null;
  }
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (s === '' || s.includes('{{') || s.includes('<%')) return null;
  let m = DATE_ONLY.exec(s);
  if (m) return dayMs(Number(m[1]), Number(m[2]), Number(m[3]));
  m = DOTTED.exec(s);
  if (m) return dayMs(Number(m[3]), Number(m[2]), Number(m[1]));
  m = DAY_LINK.exec(s);
  if (m) return parseDateValue(m[1]);
  // A date and time without a zone is read as UTC, like a bare YAML date.
  m = DATE_TIME_NO_ZONE.exec(s);
  if (m) {
    const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0), Number((m[7] ?? '0').slice(0, 3).padEnd(3, '0')));
    return plausible(ms) ? ms : null;
  }
  if (/^\d+$/.test(s)) return parseDateValue(Number(s));
  // Only strings that look like dates: a four-digit year and a month somewhere.
  if (!/\d{4}/.test(s)) return null;
  // Ordinal days (`January 15th 2024`, the Linter plugin's default format) read as numbers.
  const text = s.replace(/(\d)(?:st|nd|rd|th)\b/gi, '$1');
  const ms = Date.parse(text);
  if (!plausible(ms)) return null;
  if (WRITTEN_ZONE.test(text)) return ms;
  // Without a zone the engine reads `January 15, 2024` in the server's own zone: east of UTC
  // that was January 14 on every page. Read as UTC, as a bare YAML date is, wherever it runs.
  const utc = Date.parse(`${text} UTC`);
  return plausible(utc) ? utc : ms;
}

/**
 * A template's numeric id: the creation moment in epoch ms, padded to the length
 * the template asked for. Leading zeros are padding; an id written wider than
 * milliseconds is read from its first 13 significant digits.
 */
export function parseNumericId(data: Frontmatter, raw: string): number | null {
  const written = rawScalar(raw, 'id') ?? (typeof data.id === 'number' || typeof data.id === 'string' ? String(data.id) : null);
  if (written === null || !/^\d{6,}$/.test(written.trim())) return null;
  let digits = written.trim().replace(/^0+/, '');
  if (digits.length > 13) digits = digits.slice(0, 13);
  const ms = Number(digits);
  return ms > 1e11 && plausible(ms) ? ms : null;
}

/**
 * A file's own time (spec D.2): the earlier of its birth and its last modification. A copied
 * or cloned vault keeps modification times (`cp -p`, an unzip, rsync) while every birth time
 * is the moment of copying; an atomic save gives a new birth time, never an older one.
 */
export function fileTime(stats: { birthtimeMs: number; mtimeMs: number }): number {
  // Whole milliseconds, as created.json remembers them: a note dated by its file, then by that memory, keeps its date.
  return Math.round(stats.birthtimeMs > 0 ? Math.min(stats.birthtimeMs, stats.mtimeMs) : stats.mtimeMs);
}

export interface DateInputs {
  data: Frontmatter;
  raw: string;
  /** From created.json (or git's first commit adding the file). */
  createdMs?: number | null;
  /** The file's birth time, else its modification time. */
  fileMs: number;
}

/** The last change a note's frontmatter names (UPDATED_KEYS), or null. */
export function frontmatterUpdated(data: Frontmatter): number | null {
  for (const key of UPDATED_KEYS) {
    const ms = parseDateValue(data[key]);
    if (ms !== null) return ms;
  }
  return null;
}

/** A time's written offset (`+08:00`, Jekyll's `+1200`), in minutes east of UTC. */
const WRITTEN_OFFSET = /:\d\d(?::\d\d(?:\.\d{1,9})?)?[ \t]{0,3}([+-])(\d\d):?(\d\d)$/;

function writtenZone(written: string | null): number {
  const m = written === null ? null : WRITTEN_OFFSET.exec(written);
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return minutes > 18 * 60 ? 0 : m[1] === '-' ? -minutes : minutes;
}

/**
 * A moment (the note's date, or its last change) as its author's calendar reads it: in the zone
 * its date was written in, UTC when it wrote none. `2023-07-22T00:00:00+08:00` is July 22, not 21.
 */
export function authorMs(date: PostDate, ms: number = date.ms): number {
  return date.zoneMin ? ms + date.zoneMin * 60_000 : ms;
}

export function postDate(input: DateInputs): PostDate {
  for (const key of DATE_KEYS) {
    const ms = parseDateValue(input.data[key]);
    if (ms === null) continue;
    const zoneMin = writtenZone(rawScalar(input.raw, key));
    return zoneMin ? { ms, source: 'frontmatter', zoneMin } : { ms, source: 'frontmatter' };
  }
  const id = parseNumericId(input.data, input.raw);
  if (id !== null) return { ms: id, source: 'id' };
  if (input.createdMs !== null && input.createdMs !== undefined && plausible(input.createdMs)) {
    return { ms: input.createdMs, source: 'created' };
  }
  return { ms: input.fileMs, source: 'file' };
}
