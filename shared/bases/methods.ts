// What a base's expressions call on values (evaluate.ts): text methods, the file's fields
// and functions, and how two values compare. Text is never read as a pattern.
import type { BaseFileFacts, BaseLinks, BaseRowSource } from './evaluate.ts';
import { BaseDate, BaseLink, displayText, MAX_LIST, MAX_TEXT, parseDate, type Value } from './values.ts';
import { sameName } from '../vault-names.ts';
import { textCompare } from '../natural-order.ts';

export function dateField(d: BaseDate, name: 'year' | 'month' | 'day'): number {
  const t = new Date(d.ms);
  return name === 'year' ? t.getUTCFullYear() : name === 'month' ? t.getUTCMonth() + 1 : t.getUTCDate();
}

export function finite(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

export function shifted(d: BaseDate, ms: number | null): BaseDate | null {
  if (ms === null) return null;
  const next = d.ms + ms;
  return Number.isFinite(next) && Math.abs(next) < 8.64e15 ? new BaseDate(next, d.hasTime) : null;
}

export function stringMethod(s: string, name: string, values: Value[]): Value {
  const [first = null, second = null] = values;
  const text = (v: Value) => (typeof v === 'string' ? v : displayText(v));
  switch (name) {
    case 'contains':
      return s.includes(text(first));
    case 'containsAll':
      return values.every((v) => s.includes(text(v)));
    case 'containsAny':
      return values.some((v) => s.includes(text(v)));
    case 'startsWith':
      return s.startsWith(text(first));
    case 'endsWith':
      return s.endsWith(text(first));
    case 'lower':
      return s.toLowerCase();
    case 'upper':
      return s.toUpperCase();
    case 'title':
      return s.replace(/\p{L}+/gu, (w) => w[0]!.toUpperCase() + w.slice(1).toLowerCase());
    case 'trim':
      return s.trim();
    case 'replace':
      // Literal text, never a pattern (a pattern from the vault could take forever).
      return text(first) === '' ? s : s.split(text(first)).join(text(second)).slice(0, MAX_TEXT);
    case 'split':
      return s.split(text(first), MAX_LIST);
    case 'slice':
      return s.slice(typeof first === 'number' ? first : 0, typeof second === 'number' ? second : undefined);
  }
  return null;
}

export function fileMember(file: BaseFileFacts, name: string): Value {
  switch (name) {
    case 'name':
      return file.name;
    case 'basename':
      return file.basename;
    case 'path':
      return file.path;
    case 'folder':
      return file.folder;
    case 'ext':
      return file.ext;
    case 'size':
      return file.size;
    case 'ctime':
      return file.ctime === null ? null : new BaseDate(file.ctime, true);
    case 'mtime':
      return file.mtime === null ? null : new BaseDate(file.mtime, true);
    case 'tags':
      return file.tags.slice(0, MAX_LIST).map((t) => '#' + t);
    case 'links':
      return file.links.slice(0, MAX_LIST).map((t) => new BaseLink(t, null));
    case 'file':
      return new BaseLink(file.path, file.basename);
  }
  return null;
}

const bare = (tag: string) => sameName(tag.replace(/^#/, ''));

export function fileMethod(row: BaseRowSource, name: string, values: Value[], links: BaseLinks | null = null): Value {
  const { file } = row;
  const texts = values.map((v) => (v instanceof BaseLink ? v.target : displayText(v)));
  switch (name) {
    case 'hasTag':
      // A tag matches itself and its subtags (`book` matches `book/fiction`).
      return texts.some((want) => file.tags.some((t) => bare(t) === bare(want) || bare(t).startsWith(bare(want) + '/')));
    case 'inFolder': {
      const folder = sameName((texts[0] ?? '').replace(/^\/+|(?<!\/)\/+$/g, ''));
      const own = file.folder.toLowerCase();
      return folder === '' || own === folder || own.startsWith(folder + '/');
    }
    case 'hasLink': {
      const text = texts[0] ?? '';
      // The note the link names, where the vault has it: two notes of one name in two folders are two notes.
      const target = links && text !== '' ? links.resolve(text, row) : null;
      const targets = target !== null ? links!.targetsOf(row) : null;
      if (targets) return targets.has(target);
      const want = wantedName(text);
      return want !== '' && linkNames(file.links).has(want);
    }
    case 'hasProperty':
      return Object.hasOwn(row.properties, texts[0] ?? '');
    case 'asLink':
      return new BaseLink(file.path, texts[0] ?? file.basename);
  }
  return null;
}

const namesOf = new WeakMap<readonly string[], Set<string>>();
/** The names `hasLink` was asked for: a filter asks for the same few on every row. */
const wanted = new Map<string, string>();

function wantedName(text: string): string {
  let name = wanted.get(text);
  if (name === undefined) {
    if (wanted.size >= 10_000) wanted.clear();
    wanted.set(text, (name = linkName(text)));
  }
  return name;
}

/** A file's links by note name, made once per list: a filter of hundreds of `hasLink` over every note read each link once. */
function linkNames(links: readonly string[]): Set<string> {
  let names = namesOf.get(links);
  if (!names) namesOf.set(links, (names = new Set(links.map(linkName))));
  return names;
}

/**
 * The work a file method costs beyond its call, in a row's steps (evaluate.ts): `hasTag` compares
 * each tag with each value; `hasLink` reads the row's links once per evaluation (`linksRead`: it
 * has), then answers at once. Never what an earlier pass left in a cache: a
 * fresh build and an edit's pass charge a row alike, so a spent budget cuts the same rows.
 */
export function fileMethodCost(row: BaseRowSource, name: string, values: readonly Value[], linksRead: boolean): number {
  if (name === 'hasTag') return row.file.tags.length * values.length;
  if (name === 'hasLink') return linksRead ? 1 : Math.max(1, row.file.links.length);
  return 0;
}

/** A link target compared by note name: `Folder/Note.md` and `Note` name the same note. */
function linkName(target: string): string {
  return target.replace(/^\[\[|\]\]$/g, '').replace(/[#|][^]*$/, '').replace(/^.*\//, '').replace(/\.(md|markdown)$/i, '').trim().toLowerCase();
}

export function equal(a: Value, b: Value): boolean {
  if (a instanceof BaseDate || b instanceof BaseDate) {
    const x = a instanceof BaseDate ? a : typeof a === 'string' ? parseDate(a) : null;
    const y = b instanceof BaseDate ? b : typeof b === 'string' ? parseDate(b) : null;
    return x !== null && y !== null && x.ms === y.ms;
  }
  if (a instanceof BaseLink || b instanceof BaseLink) return linkName(a instanceof BaseLink ? a.target : displayText(a)) === linkName(b instanceof BaseLink ? b.target : displayText(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => equal(v, b[i]!));
  if (typeof a === 'number' && typeof b === 'string') return b.trim() !== '' && Number(b) === a;
  if (typeof a === 'string' && typeof b === 'number') return equal(b, a);
  return a === b;
}

/** Order of two values of one kind (numbers, text, dates, booleans), or null when they do not compare. */
export function compare(a: Value, b: Value): number | null {
  if (a instanceof BaseDate || b instanceof BaseDate) {
    const x = a instanceof BaseDate ? a : typeof a === 'string' ? parseDate(a) : null;
    const y = b instanceof BaseDate ? b : typeof b === 'string' ? parseDate(b) : null;
    return x && y ? x.ms - y.ms : null;
  }
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return textCompare(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return null;
}
