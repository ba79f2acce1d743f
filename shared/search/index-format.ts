// Visitor search (CONTRACT §9): what the build writes and the browser reads, in one
// place so both index and query the same way. The index is MiniSearch's: its
// tokenizer, our one folding rule (shared/text-fold.ts, the admin's search folds the
// same), its BM25 ranking in the browser. It is written as a base plus a delta:
//
//   search.json            the manifest (no-cache): where the base lives, the base ids
//                          no longer current, and the notes changed since the base,
//                          whole (the browser indexes those few itself)
//   _s/search/shard.*.json the base's terms, split by their first two characters, so a
//                          query downloads only the shards of its own words
//   _s/search/lengths.*    the base's field lengths (BM25 needs them for every match)
//   _s/search/meta.*.json  what a result shows (address, title, date), 64 notes a file
//
// Base files are named by their content (immutable, cached for good): a manifest never
// points at a file that changed under it. An edit rewrites the manifest only; the base
// is rebuilt when the delta grows (site/plan/search-index.ts).
import type { Options } from 'minisearch';
import { foldText } from '../text-fold.ts';
import { isUnspaced, splitUnspaced } from './unspaced.ts';

export const SEARCH_FIELDS = ['title', 'headings', 'tags', 'text'] as const;
export type SearchField = (typeof SEARCH_FIELDS)[number];

/** The manifest's address: beside the search page (`/search`), so a site under a base path finds it. */
export const SEARCH_MANIFEST = 'search.json';
export const SEARCH_DIR = '_s/search';
/** Base notes per meta file. */
export const META_CHUNK = 64;

/**
 * A search page that has answered fetches every meta file while it is idle when they come
 * to this much or less (uncompressed; about 10,000 notes, a sixth to a quarter of it
 * compressed), so the next query's results show without waiting for theirs.
 */
export const META_WARM_BYTES = 1_000_000;

/** What a query ranks (boosts over BM25); MiniSearch's own options otherwise. */
export const SEARCH_BOOST: Partial<Record<SearchField, number>> = { title: 3, tags: 2, headings: 1.5 };

// MiniSearch's default tokenizer splits at spaces, line breaks and punctuation; ours at math,
// currency and modifier symbols too, so `key=value`, `$HOME`, `a+b` and `x^2` hold the words a
// reader types (Obsidian finds them inside). Emoji and other symbols (`°`, `©`) stay in words.
const SEPARATORS = String.raw`\n\r\p{Z}\p{P}\p{Sm}\p{Sc}\p{Sk}`;
const SEPARATOR = new RegExp(`^[${SEPARATORS}]$`, 'u');
/** A word as the index reads one: a run between separators (a result's passage marks them). */
export const WORD_RUN = new RegExp(`[^${SEPARATORS}]+`, 'gu');
/** Per UTF-16 code unit, whether SEPARATOR holds it: 0 not asked yet, 1 no, 2 yes (read from it, so the two never disagree). */
const SEPARATES = new Uint8Array(0x10000);

/** The width of the separator at `i` (1, or 2 for one beyond the BMP), 0 when `i` starts a word's character. */
function separatorAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const low = text.charCodeAt(i + 1);
    if (low >= 0xdc00 && low <= 0xdfff) return SEPARATOR.test(text.slice(i, i + 2)) ? 2 : 0;
  }
  let known = SEPARATES[c]!;
  if (known === 0) SEPARATES[c] = known = SEPARATOR.test(String.fromCharCode(c)) ? 2 : 1;
  return known === 2 ? 1 : 0;
}

/**
 * `text.split(/[\n\r\p{Z}\p{P}\p{Sm}\p{Sc}\p{Sk}]+/u)` in one pass without the regex:
 * each character's class is asked once a process (the build's search base spent a fifth of
 * its time splitting, and any one accented letter or dash sent a note's whole text to it).
 * A word of Chinese or Japanese is split further (unspaced.ts): `query` reads it as a query.
 */
function split(text: string, query: boolean): string[] {
  const out: string[] = [];
  let start = 0;
  let i = 0;
  let unspaced = false;
  const push = (word: string) => {
    if (unspaced) splitUnspaced(word, query, out);
    else out.push(word);
    unspaced = false;
  };
  while (i < text.length) {
    let width = separatorAt(text, i);
    if (width === 0) {
      const c = text.charCodeAt(i);
      if (c >= 0x3005 && !unspaced && isUnspaced(c)) unspaced = true;
      i++;
      continue;
    }
    push(text.slice(start, i));
    while (width > 0) {
      i += width;
      width = i < text.length ? separatorAt(text, i) : 0;
    }
    start = i;
  }
  push(text.slice(start));
  return out;
}

/** A field's words as the index holds them. */
export const tokenize = (text: string): string[] => split(text, false);

/** A query's words as it looks them up (a run of Chinese or Japanese as its pairs of characters). */
export const tokenizeQuery = (text: string): string[] => split(text, true);

// Arabic writes its article and the commonest particles onto the word: `الكتاب`, `والكتاب`,
// `بالكتاب`, `للتجربة` (ل with the article), `وكتب`. A reader looks for `كتاب`. The prefixes are
// those of the Light10 stemmer (Larkey et al.; Lucene's ArabicStemmer), folded as foldText
// folds. The longest the word starts with comes off when at least three letters stay, else
// none does, so that `والد`, `بالغ`, `الله` and `لله` stay whole.
const PROCLITICS = ['\u0648\u0627\u0644', '\u0628\u0627\u0644', '\u0643\u0627\u0644', '\u0641\u0627\u0644', '\u0644\u0644', '\u0627\u0644', '\u0648'];

// Hebrew writes its article and particles onto the word too, one letter each and stacked:
// `הכספת`, `בכספת`, `והכספת`, `בהערה`; a reader looks for `כספת`, `הערה`. Each of ו ה ב כ ל מ ש
// comes off the front while three letters stay, in the index and the query alike, so a word
// and the same word with its particles reach one form (a root's own first letter may go too,
// on both sides: `משפט` and `שפט` find each other, as a light stemmer allows).
const HEBREW_WORD = /^[\u05d0-\u05ea]{4,100}$/;
const HEBREW_PREFIX = /^[\u05d5\u05d4\u05d1\u05db\u05dc\u05de\u05e9]/;

function withoutHebrewPrefixes(folded: string): string | null {
  let rest = folded;
  while (rest.length > 3 && HEBREW_PREFIX.test(rest)) rest = rest.slice(1);
  return rest === folded ? null : rest;
}

/**
 * A word without the article or particle written onto it, or null: a word that starts with one
 * is indexed both ways, and a query drops it (`المدرسة`, `والمدرسة` and `مدرسة` find each other).
 */
function withoutProclitic(folded: string): string | null {
  if (HEBREW_WORD.test(folded)) return withoutHebrewPrefixes(folded);
  const prefix = PROCLITICS.find((p) => folded.startsWith(p));
  if (prefix === undefined) return null;
  const rest = folded.slice(prefix.length);
  return [...rest].length >= 3 ? rest : null;
}

/**
 * A token as the index holds it: folded (case, accents, Arabic forms), and without its
 * article or particle too; or nothing.
 */
export function processTerm(term: string): string | string[] | null {
  const folded = foldText(term);
  if (folded === '') return null;
  const bare = withoutProclitic(folded);
  return bare ? [folded, bare] : folded;
}

/** A query's word as it is looked up: folded, without an Arabic article or particle. */
export function processQueryTerm(term: string): string | null {
  const folded = foldText(term);
  return folded === '' ? null : (withoutProclitic(folded) ?? folded);
}

/** The shard a term lives in: its first two characters (one for a one-character term). */
export function shardKey(term: string): string {
  const first = term.codePointAt(0);
  if (first === undefined) return '';
  const width = first > 0xffff ? 2 : 1;
  const second = term.codePointAt(width);
  return second === undefined ? term.slice(0, width) : term.slice(0, width + (second > 0xffff ? 2 : 1));
}

/** A term matches longer words from its second character on (`gard` finds `garden`). */
export const prefixSearch = (term: string): boolean => term.length > 1;

/** The options MiniSearch is made with, on both sides. */
export const indexOptions: Options<SearchDoc & { id: number }> = {
  fields: [...SEARCH_FIELDS],
  idField: 'id',
  tokenize,
  processTerm,
  // Nothing to tidy up: the browser's engine is given only current notes' postings.
  autoVacuum: false,
};

/** One note as the index reads it. */
export interface SearchDoc {
  title: string;
  headings: string;
  tags: string;
  text: string;
}

/** What a result shows: encoded address, title, date as the site writes it, ISO date, language. */
export type MetaRow = [url: string, title: string, dateText: string, dateIso: string, lang: string];

export interface DeltaDoc extends SearchDoc {
  id: number;
  meta: MetaRow;
}

export interface SearchManifest {
  v: 1;
  /** Base notes (ids 0 to docs - 1). */
  docs: number;
  /** MiniSearch's average field lengths over the base. */
  avg: number[];
  /** File of the base's field lengths: `docs × fields` numbers. */
  lengths: string;
  /** [first shard key, file], sorted by key: a key lives in the last shard whose first key is not after it. */
  shards: [string, string][];
  /** Meta files, META_CHUNK base ids each. */
  meta: string[];
  /** Their bytes in all (uncompressed): a page that has searched fetches them all while idle when this is small. */
  metaBytes: number;
  /** Base ids edited, unpublished or deleted since. */
  gone: number[];
  /** Notes changed or added since the base (ids from `docs` on). */
  delta: DeltaDoc[];
  /**
   * No base yet: a server's first build of a large vault goes live first and makes its base
   * at the next quiet moment, seconds later. The page reads the manifest again until it is.
   */
  preparing?: true;
}

/** A shard: each term with its postings per field, `[fieldId, [doc gap, term frequency, …]]`. */
export type ShardFile = [term: string, ...fields: (number | number[])[]][];

/** Where the shard of `key` is in a sorted list of first keys (-1: before the first). */
export function shardIndex(shards: [string, string][], key: string): number {
  let lo = 0;
  let hi = shards.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (shards[mid]![0] <= key) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The shard of `key` in a sorted list of first keys. */
export function shardFor(shards: [string, string][], key: string): string | null {
  const found = shardIndex(shards, key);
  return found < 0 ? null : shards[found]![1];
}

/**
 * Where the shards holding the words `term` finds are: its key's; and when it is a prefix
 * of one character (two code units: a prefix is longer than one), the keys of two that
 * start with it, which may run on into the shards after.
 */
export function shardsHolding(shards: [string, string][], term: string, prefix: boolean): number[] {
  const key = shardKey(term);
  const at = shardIndex(shards, key);
  const out = at >= 0 ? [at] : [];
  if (prefix && key === term) for (let j = at + 1; j < shards.length && shards[j]![0].startsWith(key); j++) out.push(j);
  return out;
}

/** JSON safe to serve anywhere: `<` escaped, so no text in it can ever read as markup or a server marker. */
export function safeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
