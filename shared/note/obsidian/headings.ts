// Heading ids, so `[[Note#Heading]]` and `[[Note#A#B]]` land on their heading, and the
// one rule that finds a heading (or a section) from a link's heading path. An id never
// takes one the page itself uses (`#comments`, `#main`…) or one footnotes use.
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { inlineText } from '../plain-text.ts';

export interface HeadingInfo {
  level: number;
  /** The heading as a reader sees it (`# [[A|B]] c` shows `B c`): its id and every text made from it come from this. */
  text: string;
  /** The Markdown it was written as, when that differs: a link may name the heading as Obsidian does, from it. */
  source?: string;
  id: string;
}

/**
 * Ids the page around an article uses (site/templates; a test keeps the list whole),
 * plus those of the search box and the skip link later issues add.
 */
export const RESERVED_IDS = new Set([
  ...['main', 'comments', 'mentions', 'search', 'top', 'content', 'nav', 'footer', 'header'],
  // Comments and mentions (CONTRACT §8): the section's parts, the form's fields, the notice.
  ...['comments-title', 'mentions-title', 'comment-form', 'comment-name', 'comment-email', 'comment-website', 'comment-subject', 'comment-body', 'comment-hint', 'comment-notice', 'discussed-title'],
  // The reader's tools (CONTRACT §12): the headings' anchors' label.
  's-anchor-label',
  // The search page's list of every topic, where the topic row's last link leads.
  's-browse-topics',
  // A topic page's nested topics, above its tag page note's text.
  'subtopics-title',
  // A folder page's two lists (site/plan/folder-pages.ts).
  's-folder-folders',
  's-folder-notes',
]);
// Footnotes' own anchors (markdown-it-footnote): fn1, fnref1, fnref1:1, fn-e1-1 (an embed's).
const FOOTNOTE_ID = /^fn(ref)?(\d+|-[\w-]+-\d+)(:\d+)?$/;

export function headingId(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-');
}

/** Per set of taken ids, per base: the next suffix to try (0 is the base itself). */
const nextSuffix = new WeakMap<Set<string>, Map<string, number>>();

const isFree = (id: string, taken: Set<string>) => !taken.has(id) && !RESERVED_IDS.has(id) && !FOOTNOTE_ID.test(id);

/**
 * A free id for `base` among `taken` (which it joins): the first of base, base-1, base-2…
 * free. Ids are only ever added to `taken`, so the suffixes tried before stay taken and the
 * next try starts after them (counting from 1 each time made 32,000 `# a` take 35 s).
 */
export function uniqueId(base: string, taken: Set<string>): string {
  let next = nextSuffix.get(taken);
  if (!next) nextSuffix.set(taken, (next = new Map()));
  let n = next.get(base) ?? 0;
  let id = n === 0 ? base : `${base}-${n}`;
  while (!isFree(id, taken)) id = `${base}-${++n}`;
  next.set(base, n + 1);
  taken.add(id);
  return id;
}

export interface HeadingEnv {
  headings?: HeadingInfo[];
}

/** Core rule: every heading gets an id; the list of headings is left on the env. */
export function headingIds(state: StateCore): void {
  const taken = new Set<string>();
  const headings: HeadingInfo[] = [];
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type !== 'heading_open') continue;
    const inline = tokens[i + 1];
    const source = inline?.content ?? '';
    const text = inline?.children ? inlineText(inline.children).replace(/\s+/g, ' ').trim() : source;
    const id = uniqueId(headingId(text) || 'section', taken);
    token.attrSet('id', id);
    headings.push(text === source ? { level: Number(token.tag.slice(1)), text, id } : { level: Number(token.tag.slice(1)), text, source, id });
  }
  (state.env as HeadingEnv).headings = headings;
}

// Obsidian names a heading in a link with its link brackets and bars as spaces (`# [[A|B]] c` → `#A B c`).
const obsidianName = (source: string): string => source.replace(/\[\[|\]\]|\|/g, ' ');

/**
 * A heading's name as Obsidian compares it with a link's: its punctuation as spaces, runs of
 * space as one, in any case. Its link suggestions write names so (`[[#**dict_search **]]` for
 * `**dict_search:**`, `[[#_ _iter _ _()]]` for `\_\_iter\_\_()`); marked apart from the other names.
 */
const strippedName = (text: string): string => '\u0000' + text.replace(/[!"#$%&()*+,.:;<=>?@^`{|}~/[\]\\]/g, ' ').replace(/\s+/g, ' ').trim().toLowerCase();

/** The headings a link's segment names: by its id's form, else by Obsidian's stripped form. */
const named = (byName: Map<string, number[]>, segment: string): number[] => byName.get(headingId(segment)) ?? byName.get(strippedName(segment)) ?? [];

/** A note's headings looked up by name: made once per list, so a link costs what its path is long, not the note's outline. */
interface HeadingIndex {
  /** The list's length when made (a list that grew is indexed again). */
  length: number;
  /** Each name a link may give (as shown, as Obsidian writes it) → the headings of that name, in order. */
  byName: Map<string, number[]>;
  /** Where each heading's section ends: the next heading of its level or higher, or the end. */
  sectionEnd: Int32Array;
  ids: Set<string>;
}

const indexes = new WeakMap<HeadingInfo[], HeadingIndex>();

function indexOf(headings: HeadingInfo[]): HeadingIndex {
  const known = indexes.get(headings);
  if (known && known.length === headings.length) return known;
  const byName = new Map<string, number[]>();
  const add = (name: string, i: number) => {
    const list = byName.get(name);
    if (!list) byName.set(name, [i]);
    else if (list[list.length - 1] !== i) list.push(i);
  };
  const sectionEnd = new Int32Array(headings.length).fill(headings.length);
  const open: number[] = [];
  headings.forEach((h, i) => {
    add(headingId(h.text), i);
    if (h.source !== undefined) add(headingId(obsidianName(h.source)), i);
    add(strippedName(h.source ?? h.text), i);
    while (open.length && headings[open[open.length - 1]!]!.level >= h.level) sectionEnd[open.pop()!] = i;
    open.push(i);
  });
  const index = { length: headings.length, byName, sectionEnd, ids: new Set(headings.map((h) => h.id)) };
  indexes.set(headings, index);
  return index;
}

/** The first of `list` (ascending) past `after`, or -1. */
function firstAfter(list: number[], after: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo < list.length ? list[lo]! : -1;
}

/**
 * The heading a link's heading path names: `[A, B]` is the first B under the first A
 * (Obsidian's `#A#B`); a single segment is the first heading of that name. When the
 * path does not fit the outline, the last segment alone decides.
 */
export function findHeading(headings: HeadingInfo[], path: string[]): number {
  if (path.length === 0) return -1;
  const { byName, sectionEnd } = indexOf(headings);
  let at = -1;
  for (const segment of path) {
    const found = firstAfter(named(byName, segment), at);
    // Under the heading found before: inside its section.
    if (found < 0 || (at >= 0 && found >= sectionEnd[at]!)) return named(byName, path[path.length - 1]!)[0] ?? -1;
    at = found;
  }
  return at;
}

/** Whether a heading of the list has this id (a link's `#Intro-1` lands on the second "Intro"). */
export function hasHeadingId(headings: HeadingInfo[], id: string): boolean {
  return indexOf(headings).ids.has(id);
}

/** The anchor (`#id`) a heading path points to in a note with these headings. */
export function headingAnchor(headings: HeadingInfo[], path: string[]): string {
  const i = findHeading(headings, path);
  const id = i >= 0 ? headings[i]!.id : headingId(path[path.length - 1] ?? '');
  return id ? `#${encodeURIComponent(id)}` : '';
}

/**
 * Token range of a heading's section: the heading and everything under it, subheadings
 * included, up to the next heading of its level or higher. `nth` counts headings in
 * document order (the index `findHeading` gives).
 */
export function sectionRange(tokens: Token[], nth: number): [number, number] | null {
  let seen = -1;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type !== 'heading_open') continue;
    if (++seen !== nth) continue;
    // A heading inside a quote or a list: the heading alone.
    if (token.level !== 0) return [i, i + 3];
    const level = Number(token.tag.slice(1));
    let end = i + 1;
    for (; end < tokens.length; end++) {
      const t = tokens[end]!;
      if (t.type === 'heading_open' && t.level === 0 && Number(t.tag.slice(1)) <= level) break;
      if (t.type === 'footnote_block_open') break;
    }
    return [i, end];
  }
  return null;
}
