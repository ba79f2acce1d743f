// A note's title, and the text a reader sees of a heading. A heading is Markdown
// (`# [[Obsidian Publish|Publish]] sites`): every text made from one (the title,
// <title>, cards, lists, the feed, the search index) shows what the article shows.
import type { Frontmatter } from './frontmatter.ts';
import { holdsPlaceholder } from './fields.ts';
import { atxHeading } from './headings.ts';
import { markdown } from './md.ts';
import { inlineText } from './plain-text.ts';
import { MAX_TITLE_LENGTH, oneLine, shownLine } from './shown-text.ts';

// Characters that may start inline Markdown: text without any is its own display text.
const MARKUP = /[[\]*_`<>$~=\\&!]|https?:|www\./i;

/** A heading's Markdown as the text a reader sees: links show their text, marks go. */
export function headingText(source: string): string {
  if (!MARKUP.test(source)) return source;
  const [inline] = markdown().parseInline(source, {});
  return inlineText(inline?.children ?? null).replace(/\s+/g, ' ').trim();
}

/**
 * A frontmatter text pages show whole (a `title`, a `description`) as a reader reads it: a
 * `[[link|its words]]` in it shows its words, as in a heading; any other value as it is.
 */
export function linksAsWords(value: unknown): unknown {
  return typeof value === 'string' && value.includes('[[') ? headingText(value) : value;
}

/** The note's title before its bound: frontmatter `title`, else its first-line `# heading` as shown, else the file name. */
/** A character reference (`&#8217;`, `&amp;`), as WordPress exports write their titles. */
const CHARACTER_REFERENCE = /&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});/g;

/** The characters a title's references name, as a browser reads them (an unknown name stays as written). */
const referencesRead = (s: string): string => (s.includes('&') ? s.replace(CHARACTER_REFERENCE, (ref) => markdown().utils.unescapeAll(ref)) : s);

function fullTitle(data: Frontmatter, body: string, fileName: string): string {
  const t = linksAsWords(data.title);
  const given = typeof t === 'string' || typeof t === 'number' ? oneLine(referencesRead(String(t))) : '';
  if (given !== '' && !holdsPlaceholder(String(t))) return given;
  const h1 = leadingHeading(body);
  const shown = h1 === null ? '' : oneLine(headingText(h1));
  if (shown !== '') return shown;
  // A drawing's note (`Plan.excalidraw.md`) is named as the plugin shows it: Plan.
  return oneLine(fileName.replace(/(?:\.excalidraw)?\.(?:md|markdown)$|\.tex$/i, ''));
}

/** The note's title as pages show it: one line, at most MAX_TITLE_LENGTH characters (shown-text.ts). */
export function titleOf(data: Frontmatter, body: string, fileName: string): string {
  return shownLine(fullTitle(data, body, fileName));
}

/** Whether pages show the title a note gives cut (longer than MAX_TITLE_LENGTH). */
export function titleIsCut(data: Frontmatter, body: string, fileName: string): boolean {
  return fullTitle(data, body, fileName).length > MAX_TITLE_LENGTH;
}

/** The Markdown of a `# heading` that opens the body (its closing `#`s gone, as CommonMark reads it), if any. */
export function leadingHeading(body: string): string | null {
  const first = /\S/.exec(body);
  if (!first || body[first.index] !== '#') return null;
  // Four columns in (a tab, or four spaces), a `#` line is indented code, not a heading.
  const indent = body.slice(body.lastIndexOf('\n', first.index) + 1, first.index);
  if (indent.length > 3 || indent.includes('\t')) return null;
  const lineEnd = body.indexOf('\n', first.index);
  const line = lineEnd < 0 ? body.slice(first.index) : body.slice(first.index, body[lineEnd - 1] === '\r' ? lineEnd - 1 : lineEnd);
  const heading = atxHeading(line);
  return heading && heading.level === 1 && heading.text !== '' ? heading.text : null;
}
