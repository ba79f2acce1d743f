// A note's title, and the text a reader sees of a heading. A heading is Markdown
// (`# [[Obsidian Publish|Publish]] sites`): every text made from one (the title,
// <title>, cards, lists, the feed, the search index) shows what the article shows.
import { closedBidi } from './bidi.ts';
import type { Frontmatter } from './frontmatter.ts';
import { holdsPlaceholder } from './fields.ts';
import { atxHeading } from './headings.ts';
import { markdown } from './md.ts';
import { inlineText } from './plain-text.ts';

// Characters that may start inline Markdown: text without any is its own display text.
const MARKUP = /[[\]*_`<>$~=\\&!]|https?:|www\./i;

/** A heading's Markdown as the text a reader sees: links show their text, marks go. */
export function headingText(source: string): string {
  if (!MARKUP.test(source)) return source;
  const [inline] = markdown().parseInline(source, {});
  return inlineText(inline?.children ?? null).replace(/\s+/g, ' ').trim();
}

/** The note's title: frontmatter `title`, else its first-line `# heading` as shown, else the file name. */
export function titleOf(data: Frontmatter, body: string, fileName: string): string {
  const t = data.title;
  if ((typeof t === 'string' || typeof t === 'number') && oneLine(String(t)) !== '' && !holdsPlaceholder(String(t))) {
    return oneLine(String(t));
  }
  const h1 = leadingHeading(body);
  const shown = h1 === null ? '' : oneLine(headingText(h1));
  if (shown !== '') return shown;
  return oneLine(fileName.replace(/\.(md|markdown|tex)$/i, ''));
}

/**
 * A title as one line of text: line breaks and tabs (a YAML block scalar) become spaces,
 * and control characters (a YAML `"\a"` or `"\e"` escape, a file name) go. They reached
 * every page's <title>, cards and the search index, where HTML has no use for them. Bidi
 * controls it opens are closed within it (bidi.ts).
 */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  // A run of spaces and breaks that holds a break becomes one space (matched as one run: ` *[breaks][breaks ]*` read a run of spaces once from each of its places).
  const spaced = text.replace(/[\t\n\v\f\r\u0085\u2028\u2029 ]+/g, (run) => (/[^ ]/.test(run) ? ' ' : run));
  return closedBidi(spaced.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim());
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
