// A note's title, and the text a reader sees of a heading. A heading is Markdown
// (`# [[Obsidian Publish|Publish]] sites`): every text made from one (the title,
// <title>, cards, lists, the feed, the search index) shows what the article shows.
import { closedBidi } from './bidi.ts';
import type { Frontmatter } from './frontmatter.ts';
import { PLACEHOLDER } from './fields.ts';
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
  if ((typeof t === 'string' || typeof t === 'number') && oneLine(String(t)) !== '' && !PLACEHOLDER.test(String(t))) {
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
  return closedBidi(text.replace(/ *[\t\n\v\f\r\u0085\u2028\u2029][\t\n\v\f\r\u0085\u2028\u2029 ]*/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim());
}

/** The Markdown of a `# heading` that opens the body (its closing `#`s gone, as CommonMark reads it), if any. */
export function leadingHeading(body: string): string | null {
  const m = /^\s*#[ \t]+(.*?)(?:[ \t]+#+)?[ \t]*(?:\r?\n|$)/.exec(body);
  const text = m ? m[1]!.trim() : '';
  return text === '' ? null : text;
}
