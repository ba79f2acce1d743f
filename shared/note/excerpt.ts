// Excerpts (spec 2.5): the first real paragraph of prose, Markdown marks stripped,
// template leftovers skipped, cut at about 220 characters at a word boundary.

export const EXCERPT_LENGTH = 220;

/** Obsidian comments (`%% … %%`) are private: never published, never excerpted. */
export function stripComments(markdown: string): string {
  return markdown.replace(/%%[\s\S]*?%%/g, '');
}

/** Removes Markdown marks from one paragraph, leaving its words. */
export function stripMarkdown(text: string): string {
  return (
    text
      // embeds and images go entirely
      .replace(/!\[\[[^\]]*\]\]/g, '')
      .replace(/!\[[^\]]*\]\([^)]*\)/g, '')
      // wikilinks keep their alias, else their target's name
      .replace(/\[\[([^\]|#]*)(?:#[^\]|]*)?\|([^\]]*)\]\]/g, '$2')
      .replace(/\[\[([^\]|#]*)(?:#([^\]|]*))?\]\]/g, (_m, target: string, heading?: string) => target.trim() || heading || '')
      // links keep their text; footnote references go
      .replace(/\[\^[^\]]*\]/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/\[([^\]]*)\]\[[^\]]*\]/g, '$1')
      .replace(/<https?:\/\/[^>]+>/g, (m) => m.slice(1, -1))
      // inline HTML tags go, their text stays
      .replace(/<\/?[a-zA-Z][^>]*>/g, '')
      // inline code keeps its text
      .replace(/`+([^`]*)`+/g, '$1')
      // emphasis, strike, highlight
      .replace(/(\*\*|__)(?=\S)([\s\S]*?\S)\1/g, '$2')
      .replace(/(^|[^\w*])\*(?=\S)([^*]*?\S)\*(?!\w)/g, '$1$2')
      .replace(/(^|[^\w])_(?=\S)([^_]*?\S)_(?!\w)/g, '$1$2')
      .replace(/~~(?=\S)([\s\S]*?\S)~~/g, '$1')
      .replace(/==(?=\S)([\s\S]*?\S)==/g, '$1')
      // inline tags keep their word
      .replace(/(^|\s)#([\p{L}\p{N}_/-]+)/gu, '$1$2')
      // escapes
      .replace(/\\([\\`*_{}[\]()#+\-.!|~=<>])/g, '$1')
      .replace(/&nbsp;/g, ' ')
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/\s+/g, ' ')
      .trim()
  );
}

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
const TAGS_LINE = /^(?:(?:tags?|topics?|keywords)\s*::?\s*.*|(?:#[\p{L}\p{N}_/-]+[\s,]*)+)$/iu;
// Dataview-style inline fields ("status:: draft") and template placeholders.
const FIELD_LINE = /^[\p{L}\p{N}_ -]{1,40}::\s*.*$/u;
const PLACEHOLDER = /\{\{[^}]*\}\}|<%[\s\S]*?%>/;

/** True for a line a template leaves behind rather than prose. */
export function isTemplateLeftover(line: string): boolean {
  const rawTrim = line.trim();
  if (rawTrim === '') return true;
  if (TAGS_LINE.test(rawTrim) || FIELD_LINE.test(rawTrim) || PLACEHOLDER.test(rawTrim)) return true;
  // Timestamps and lone images are short: a long line is prose (and skips the costly strip).
  if (rawTrim.length > 200) return false;
  const t = stripMarkdown(rawTrim);
  return t === '' || BARE_TIMESTAMP.test(t);
}

type BlockKind = 'prose' | 'list' | 'quote' | 'skip';

function classify(lines: string[]): BlockKind {
  const first = lines[0]!.trim();
  if (/^#{1,6}(\s|$)/.test(first)) return 'skip';
  if (/^(```|~~~)/.test(first)) return 'skip';
  if (/^(\*\s*){3,}$|^(-\s*){3,}$|^(_\s*){3,}$/.test(first)) return 'skip';
  if (/^\|/.test(first) || (lines[1] !== undefined && /^\s*\|?\s*:?-{3,}/.test(lines[1]))) return 'skip';
  if (/^>\s*\[!/.test(first)) return 'skip'; // callouts are asides, not the opening prose
  if (/^</.test(first) && !/^<(a|b|i|em|strong|span|code)\b/i.test(first)) return 'skip';
  if (/^ {4,}|^\t/.test(lines[0]!)) return 'skip';
  if (/^([-*+]|\d+[.)])\s/.test(first)) return 'list';
  if (/^>/.test(first)) return 'quote';
  return 'prose';
}

/** Splits Markdown into blocks (blank-line separated, fenced code kept whole). */
function blocksOf(markdown: string): string[][] {
  const blocks: string[][] = [];
  let current: string[] = [];
  let fence: string | null = null;
  for (const line of markdown.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (fence) {
      current.push(line);
      if (trimmed.startsWith(fence)) {
        blocks.push(current);
        current = [];
        fence = null;
      }
      continue;
    }
    const open = /^(```|~~~)/.exec(trimmed);
    if (open) {
      if (current.length) blocks.push(current);
      current = [line];
      fence = open[1]!;
      continue;
    }
    if (trimmed === '') {
      if (current.length) blocks.push(current);
      current = [];
    } else if (/^#{1,6}(\s|$)/.test(trimmed)) {
      // a heading is its own block even without blank lines around it
      if (current.length) blocks.push(current);
      blocks.push([line]);
      current = [];
    } else {
      current.push(line);
    }
  }
  if (current.length) blocks.push(current);
  return blocks;
}

function textOf(lines: string[], kind: BlockKind): string {
  const kept = lines
    .map((l) => (kind === 'quote' ? l.replace(/^\s*>\s?/, '') : kind === 'list' ? l.replace(/^\s*([-*+]|\d+[.)])\s+(\[.\]\s+)?/, '') : l))
    .filter((l) => !isTemplateLeftover(l));
  return stripMarkdown(kept.join(' '));
}

/** Cuts `text` near `limit` characters at a word boundary, adding an ellipsis. */
export function cutAtWord(text: string, limit = EXCERPT_LENGTH): string {
  if (text.length <= limit) return text;
  const slice = text.slice(0, limit + 1);
  const lastSpace = slice.search(/\s\S*$/);
  const cut = lastSpace > limit * 0.6 ? slice.slice(0, lastSpace) : text.slice(0, limit);
  return cut.replace(/[\s,;:.\-–—]+$/u, '') + '…';
}

export function excerptOf(body: string, limit = EXCERPT_LENGTH): string {
  const blocks = blocksOf(stripComments(body));
  // Prose first; a note made only of lists or quotes still gets an excerpt.
  for (const wanted of [['prose'], ['list', 'quote']] as BlockKind[][]) {
    for (const lines of blocks) {
      const kind = classify(lines);
      if (!wanted.includes(kind)) continue;
      const text = textOf(lines, kind);
      if (text.length > 0) return cutAtWord(text, limit);
    }
  }
  return '';
}

const WORD_START = /[\p{L}\p{N}]/u;

/**
 * Words of a note's prose, for the word count and reading time: runs of text with
 * a letter or digit in them, outside code blocks, comments, link targets and tags'
 * markup. One pass over the text; it runs for every note of the vault.
 */
export function countWords(body: string): number {
  const text = stripComments(body)
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, ' ')
    .replace(/\]\([^)]*\)/g, ' ')
    .replace(/<[^>]+>/g, ' ');
  let words = 0;
  let inWord = false;
  let counted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space = c === 32 || c === 10 || c === 9 || c === 13 || c === 0xa0;
    if (space) {
      inWord = false;
      continue;
    }
    if (!inWord) {
      inWord = true;
      counted = false;
    }
    if (!counted && (c >= 0x80 ? WORD_START.test(text[i]!) : (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) {
      words++;
      counted = true;
    }
  }
  return words;
}

/** Minutes to read at about 200 words a minute, at least one. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.round(words / 200));
}
