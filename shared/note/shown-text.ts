// The texts a note gives that other pages show: its title (a garden's explorer shows every
// note's title on every page; each note it links lists it as a backlink), the label and icon
// of its tag or folder (on every page's navigation), its description (cards, meta). Each is
// one line and bounded here, its one owner: a 1 MB title made each page of a garden 1 MB,
// and 300 links from it wrote 639 MB of pages. The build warns of each cut (build-warnings.ts).
import { closedBidi } from './bidi.ts';
import type { Frontmatter } from './frontmatter.ts';
import { textValue } from './fields.ts';

/** The most characters a title or a label shows; a longer one is cut at a word, with an ellipsis. */
export const MAX_TITLE_LENGTH = 250;
/** The most characters a description shows. */
export const MAX_DESCRIPTION_LENGTH = 500;
/** The longest banner address a card shows: a longer one (a `banner:`, or the body's first image) is no banner. */
export const MAX_BANNER_LENGTH = 2048;
/** The most UTF-16 units an icon shows (an emoji, or a short mark): a family emoji takes 11. */
export const MAX_ICON_LENGTH = 32;

/** `text` without splitting a surrogate pair: at most `limit` units. */
function codePointSlice(text: string, limit: number): string {
  const code = text.charCodeAt(limit - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit);
}

/** Cuts `text` near `limit` characters at a word boundary, adding an ellipsis. */
export function cutAtWord(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const slice = text.slice(0, limit + 1);
  const lastSpace = slice.search(/\s\S*$/);
  const cut = lastSpace > limit * 0.6 ? slice.slice(0, lastSpace) : codePointSlice(text, limit);
  return cut.replace(/(?<![\s,;:.\-–—])[\s,;:.\-–—]+$/u, '') + '…';
}

/**
 * A text as one line: line breaks and tabs (a YAML block scalar) become spaces, and control
 * characters (a YAML `"\a"` or `"\e"` escape, a file name) go. They reached every page's
 * <title>, cards and the search index, where HTML has no use for them.
 */
export function oneLine(text: string): string {
  // A run of spaces and breaks that holds a break becomes one space (matched as one run: ` *[breaks][breaks ]*` read a run of spaces once from each of its places).
  const spaced = text.replace(/[\t\n\v\f\r\u0085\u2028\u2029 ]+/g, (run) => (/[^ ]/.test(run) ? ' ' : run));
  // eslint-disable-next-line no-control-regex
  return spaced.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim();
}

/** A one-line text (oneLine) as pages show it: cut to `limit`, and the bidi controls it opens closed within it (bidi.ts). */
export function shownLine(line: string, limit = MAX_TITLE_LENGTH): string {
  return closedBidi(cutAtWord(line, limit));
}

/** A frontmatter value as one line of text; null when it holds none. */
function lineOf(value: unknown): string | null {
  const text = textValue(value);
  const line = text === null ? '' : oneLine(text);
  return line === '' ? null : line;
}

/** A title or label from frontmatter as pages show it; null when it holds no text. */
export function nameValue(value: unknown): string | null {
  const line = lineOf(value);
  return line === null ? null : shownLine(line);
}

/** A note's `description` as pages show it. */
export function descriptionValue(value: unknown): string | null {
  const line = lineOf(value);
  return line === null ? null : shownLine(line, MAX_DESCRIPTION_LENGTH);
}

/** An `icon` as pages show it: its first MAX_ICON_LENGTH units, whole characters only. */
export function iconValue(value: unknown): string | null {
  const line = lineOf(value);
  return line === null ? null : closedBidi(line.length <= MAX_ICON_LENGTH ? line : codePointSlice(line, MAX_ICON_LENGTH));
}

/**
 * Where a note's banner may come from, the first given winning (note-record.ts bannerOf): Obsidian's
 * `banner`, `cover`, `image`, and where the blogs people bring their posts from keep a post's
 * picture: Hugo's themes (`cover.image`, `images`, `featured_image`), Ghost (`feature_image`),
 * Jekyll's Minimal Mistakes (`header.image`, `header.teaser`, `header.overlay_image`).
 */
const BANNER_FIELDS: ReadonlyArray<readonly [key: string, inner: string | number | null]> = [
  ['banner', null],
  ['cover', null],
  ['cover', 'image'],
  ['image', null],
  ['featured_image', null],
  ['feature_image', null],
  ['images', 0],
  ['header', 'image'],
  ['header', 'teaser'],
  ['header', 'overlay_image'],
];

/** The frontmatter field a banner comes from (`cover.image`), with its text, or null. */
export function bannerField(data: Frontmatter): { field: string; value: string } | null {
  for (const [key, inner] of BANNER_FIELDS) {
    const outer = data[key];
    const value = inner === null ? outer : outer && typeof outer === 'object' ? (outer as Record<string | number, unknown>)[inner] : undefined;
    // A raw length first: the bound is checked by its callers, never cleaned away here.
    if (typeof value === 'string' && textValue(value) !== null) return { field: inner === null ? key : `${key}.${inner}`, value };
  }
  return null;
}

/** A text the pages show cut (or, a banner, not at all): which frontmatter key, what it is, how long it is, and the most shown. */
export interface CutText {
  field: string;
  kind: 'label' | 'description' | 'icon' | 'banner';
  length: number;
  max: number;
}

/** Keys whose text pages show, each with its bound (the title: title.ts titleIsCut, whichever gave it). */
const BOUNDED_KEYS: Array<[key: 'label' | 'description' | 'icon', max: number]> = [
  ['label', MAX_TITLE_LENGTH],
  ['description', MAX_DESCRIPTION_LENGTH],
  ['icon', MAX_ICON_LENGTH],
];

/** The frontmatter texts of `data` but its title that pages show cut (`label_ar`, `labels.ar` among the labels). */
export function cutFrontmatterTexts(data: Frontmatter): CutText[] {
  const out: CutText[] = [];
  const check = (field: string, kind: CutText['kind'], value: unknown, max: number) => {
    // The raw length first: almost every value is short, and is not cleaned to be measured.
    if (typeof value !== 'string' || value.length <= max) return;
    const length = oneLine(value).length;
    if (length > max) out.push({ field, kind, length, max });
  };
  for (const [key, max] of BOUNDED_KEYS) check(key, key, data[key], max);
  // A long banner is left out, not cut.
  const banner = bannerField(data);
  if (banner !== null) check(banner.field, 'banner', banner.value, MAX_BANNER_LENGTH);
  for (const key of Object.keys(data)) if (key.startsWith('label_')) check(key, 'label', data[key], MAX_TITLE_LENGTH);
  const labels = data.labels;
  if (labels && typeof labels === 'object' && !Array.isArray(labels)) {
    for (const [lang, value] of Object.entries(labels as Record<string, unknown>)) check(`labels.${lang}`, 'label', value, MAX_TITLE_LENGTH);
  }
  return out;
}
