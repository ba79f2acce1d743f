// Excerpts (spec 2.5): the first real paragraph of prose, as plain text, template
// leftovers skipped, cut at about 220 characters at a word boundary. Made from the
// note's public blocks (public-text.ts), so a private comment never reaches one.
import { TAG_CHARS } from './obsidian/tag-syntax.ts';
import { holdsPlaceholder } from './fields.ts';
import { countWordsIn, type PlainBlock } from './plain-text.ts';
import { flat } from './slots.ts';
import { publicBlocks } from './public-text.ts';
import { cutAtWord } from './shown-text.ts';

export const EXCERPT_LENGTH = 220;

const MONTHS =
  '(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)';
const DATE_TOKEN = `(?:\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}|\\d{1,2}[-/.]\\d{1,2}[-/.]\\d{2,4}|\\d{1,2}\\s+${MONTHS}\\.?,?\\s+\\d{4}|${MONTHS}\\.?\\s+\\d{1,2},?\\s+\\d{4}|\\d{12,}|\\d{8})`;
const TIME_TOKEN = '(?:\\d{1,2}:\\d{2}(?::\\d{2})?(?:\\.\\d+)?\\s*(?:[ap]\\.?m\\.?)?(?:\\s*(?:z|utc|gmt|[+-]\\d{2}:?\\d{2}))?)';
// A line holding only a timestamp, optionally labelled ("Created: 2024-01-05 10:30").
const BARE_TIMESTAMP = new RegExp(
  `^(?:(?:date|created|updated|modified|published|time)\\s*::?\\s*)?(?:\\w+,?\\s+)?(?:${DATE_TOKEN}(?:[T\\s,]+${TIME_TOKEN})?|${TIME_TOKEN})$`,
  'iu',
);
// "Tags: #a #b", "tags:: a, b", or a line of nothing but #tags.
const TAGS_LINE = new RegExp(`^(?:(?:tags?|topics?|keywords)\\s*::?[^]*|(?:#[${TAG_CHARS}]+[\\s,]*)+)$`, 'iu');
// Dataview-style inline fields ("status:: draft") and template placeholders.
const FIELD_LINE = /^[\p{L}\p{N}_ -]{1,40}::/u;

/**
 * True for a line a template leaves behind rather than prose: `line` as written,
 * `text` the same line as plain text (a lone image is an empty line).
 */
export function isTemplateLeftover(line: string, text: string = line): boolean {
  const rawTrim = line.trim();
  const t = text.replace(/\*\*|__/g, '').trim();
  if (rawTrim === '' || t === '') return true;
  if (TAGS_LINE.test(rawTrim) || FIELD_LINE.test(rawTrim) || holdsPlaceholder(rawTrim)) return true;
  return t.length <= 200 && BARE_TIMESTAMP.test(t);
}


/** A block's text with template leftover lines dropped, as one line of words. */
function keptText(block: PlainBlock): string {
  const lines = block.text.split('\n');
  const written = block.raw?.split('\n');
  const raw = written && written.length === lines.length ? written : null;
  return lines
    .filter((line, i) => !isTemplateLeftover(raw ? raw[i]! : line, line))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The excerpt of a note's public blocks: prose first; a note of only lists or quotes still gets one. */
export function excerptFromBlocks(blocks: Iterable<PlainBlock>, limit = EXCERPT_LENGTH): string {
  // One pass, stopping at the first prose: lists and quotes are kept aside in case there is none.
  const asides: PlainBlock[] = [];
  for (const block of blocks) {
    if (block.kind === 'list' || block.kind === 'quote') asides.push(block);
    if (block.kind !== 'prose') continue;
    const text = keptText(block);
    // Kept for the life of the note: flat, not the pieces it was joined from.
    if (text.length > 0) return flat(cutAtWord(text, limit));
  }
  for (const block of asides) {
    const text = keptText(block);
    if (text.length > 0) return flat(cutAtWord(text, limit));
  }
  return '';
}

/** The excerpt of a note body (its frontmatter already split off). */
export function excerptOf(body: string, limit = EXCERPT_LENGTH): string {
  return excerptFromBlocks(publicBlocks(body), limit);
}

/** Words of a note body's public text (code blocks and math aside). */
export function countWords(body: string): number {
  return countWordsIn(publicBlocks(body));
}

/** Minutes to read at about 200 words a minute, at least one. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / 200));
}
