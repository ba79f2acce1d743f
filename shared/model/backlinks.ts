// The sentence around a link (CONTRACT §12's backlinks: "Linked from", each with the words
// that lead here). Read from the linking note's public text (private comments gone, code
// skipped) line by line, links shown as their text, math drawn as the article draws it;
// read once per record, so a plan reads each linking note once at most.
import { publicMarkdown } from '../note/comments.ts';
import { propertyLinks } from '../note/property-links.ts';
import { escapeHtml } from '../note/escape.ts';
import { linkPlaces } from '../note/link-places.ts';
import type { LinkPlace } from '../note/written-places.ts';
import { markdown } from '../note/md.ts';
import { sanitizeNoteHtml } from '../note/sanitize.ts';
import { linkShownText, parseWikiRef } from '../wikilinks.ts';
import type { VaultPath } from '../vault-path.ts';
import type { NoteRecord } from './note-record.ts';

/** A snippet is at most this many characters (a long sentence is cut around the link). */
export const SNIPPET_MAX = 200;

// Block markers a line starts with: quotes, callout heads, list bullets, tasks, numbers, heading marks.
const LINE_START = /^\s*(?:>\s*)*(?:\[![\w-]+\][+-]?\s*)?(?:[-*+]\s+(?:\[.\]\s+)?|\d+[.)]\s+|#{1,6}\s+)?/;
const PICTURE = /!\[[^[\]\n]*\]\([^()\n]*\)/g;
const INLINE_MARKS = /\*\*|__|==|~~|`|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)/g;
const SENTENCE_END = /[.!?؟。…]["'”’)]*(?=\s|$)/g;

const memo = new WeakMap<NoteRecord, { generation: object; byTarget: Map<VaultPath, string> }>();

/** A footnote's reference (`[^note]`), drawn as a number on the page: no words of the sentence. */
const FOOTNOTE_REF = /\[\^[^\]\s[^]{1,100}\]/g;

const plain = (s: string) => s.replace(INLINE_MARKS, '').replace(FOOTNOTE_REF, '');

const TABLE_ROW = /^\s*\|.*\|\s*$/;
/** Text between a table row's links: each cell's pipe a separator (an escaped `\|` the character). */
const cells = (s: string) => plain(s).replace(/\\\|/g, '\u0000').replace(/(?:(?<!\s)\s+)?\|\s*/g, ' · ').replace(/\u0000/g, '|');

/** Nothing a reader would read: spaces, punctuation, isolates. */
const WORDLESS = /^[\s\p{P}\u2068\u2069]*$/u;

const WORDY = /[^\s\p{P}\u2068\u2069]/gu;

/**
 * A line's sentences, found once for all the links on it: a line of thousands of links (an
 * index written as one paragraph) was read again for each of them.
 */
class Sentences {
  /** Where the sentences begin and end: 0, each end before the text's, and its length. */
  readonly bounds: number[];
  /** How many word characters come before each offset, once a long stretch is asked about. */
  private words: Int32Array | null = null;

  constructor(readonly text: string) {
    const ends = [...text.matchAll(SENTENCE_END)].map((m) => m.index! + m[0].length).filter((end) => end < text.length);
    this.bounds = [0, ...ends, text.length];
  }

  /** The sentence holding offset `at`: the last bound at or before it (never the text's end). */
  index(at: number): number {
    let k = 0;
    for (let hi = this.bounds.length - 2; k < hi; ) {
      const mid = (k + hi + 1) >> 1;
      if (this.bounds[mid]! <= at) k = mid;
      else hi = mid - 1;
    }
    return k;
  }

  /** Whether `text` from `from` to `to` holds no word: spaces, punctuation and isolates only. */
  wordless(from: number, to: number): boolean {
    if (to - from < 256) return to <= from || WORDLESS.test(this.text.slice(from, to));
    if (!this.words) {
      this.words = new Int32Array(this.text.length + 1);
      for (const m of this.text.matchAll(WORDY)) this.words[m.index! + 1] = 1;
      for (let i = 1; i <= this.text.length; i++) this.words[i]! += this.words[i - 1]!;
    }
    return this.words[to] === this.words[from];
  }
}

/**
 * The sentence of `text` holding the link at offset `at` (`length` characters), cut to
 * SNIPPET_MAX around it. A link that stands alone in its sentence (`- A tool. [[Tool]]`)
 * brings the sentence before it, else the one after: its own words alone are the title the
 * reader has just read.
 */
export function sentenceAround(text: string, at: number, length = 0, sentences = new Sentences(text)): string {
  return sentenceCut(text, at, length, sentences).sentence;
}

/** sentenceAround's sentence, and where its first character of `text` is (past a leading `…`). */
function sentenceCut(text: string, at: number, length: number, sentences: Sentences): { sentence: string; from: number } {
  const { bounds } = sentences;
  const k = sentences.index(at);
  let [start, end] = [bounds[k]!, bounds[k + 1]!];
  if (length > 0 && sentences.wordless(start, at) && sentences.wordless(at + length, end)) {
    if (k > 0) start = bounds[k - 1]!;
    else if (k + 2 < bounds.length) end = bounds[k + 2]!;
  }
  let sentence = text.slice(start, end).trim();
  const lead = text.slice(start, end).length - text.slice(start, end).trimStart().length;
  const offset = at - start - lead;
  let from = start + lead;
  if (sentence.length > SNIPPET_MAX) {
    const cut = Math.max(0, Math.min(offset - SNIPPET_MAX / 2, sentence.length - SNIPPET_MAX));
    const kept = sentence.slice(cut, cut + SNIPPET_MAX);
    from += cut + (kept.length - kept.trimStart().length);
    sentence = (cut > 0 ? '…' : '') + kept.trim() + (cut + SNIPPET_MAX < sentence.length ? '…' : '');
  }
  return { sentence, from };
}

// One character stands for each piece of math while a line's sentences are found: a `.` in
// `$a. b$` ends no sentence, and a cut never halves the math.
const MATH = '\uFFFC';

/** A line's inline math, as the parser reads it (not in code, not escaped), each with its HTML as the article renders it. */
function mathIn(line: string): { at: number; end: number; html: string }[] {
  if (!line.includes('$')) return [];
  const md = markdown();
  const env = {};
  const state = new md.inline.State(line, md, env, []);
  const rules = md.inline.ruler.getRules('');
  const found: { at: number; end: number; html: string }[] = [];
  // markdown-it's own inline loop (ParserInline.tokenize), noting where each top-level math token was written.
  while (state.pos < state.posMax) {
    const at = state.pos;
    const before = state.tokens.length;
    if (!rules.some((rule) => rule(state, false))) {
      state.pending += state.src[state.pos++];
      continue;
    }
    const token = state.tokens[state.tokens.length - 1];
    if (state.tokens.length > before && token?.type.startsWith('math')) found.push({ at, end: state.pos, html: sanitizeNoteHtml(md.renderer.render([token], md.options, env)) });
  }
  return found;
}

/** A sentence as HTML: its text escaped, each MATH character the line's next piece of math, drawn. */
function sentenceHtml(sentence: string, math: string[], first: number): string {
  let k = first;
  return sentence
    .split(MATH)
    .map((part) => escapeHtml(part))
    .reduce((html, part) => html + (math[k++] ?? '') + part);
}

interface LinkRead {
  at: number;
  length: number;
  /** The words a reader reads for it ('' for an embed). */
  shown: string;
  /** The note or file it names, as written; null for a web address or a link into the same note. */
  target: string | null;
}

/** What a reader reads for a link the parser found (link-places.ts); null for a reference definition, which is no sentence. */
function readOf(place: LinkPlace): Omit<LinkRead, 'at'> | null {
  if (place.kind === 'wiki') {
    const ref = parseWikiRef(place.target + place.heading + place.alias);
    const shown = place.bang ? '' : (ref.alias ?? linkShownText(ref.target, ref.subpath));
    return { length: place.length, shown, target: ref.target || null };
  }
  if (place.kind === 'definition') return null;
  let url = place.address;
  try {
    url = decodeURI(url);
  } catch {
    // left as written
  }
  const target = /^[a-z][a-z0-9+.-]*:/i.test(url) ? null : url.replace(/#[^]*$/, '') || null;
  // A picture in a link's text shows no words.
  return { length: place.length, shown: place.bang ? '' : plain(place.label.replace(PICTURE, '')).trim(), target };
}

/** A link's sentence: the target as written, and the sentence around its first link there, as HTML. */
export interface LinkSentence {
  target: string;
  html: string;
}

/**
 * For each target `note` links to (as written: web addresses and links into the note left
 * out), the sentence around its first link there, in the note's order: plain text, escaped,
 * with its math drawn as the article draws it. A link shows its alias, else its target as
 * written: never the title of the note it leads to; isolated, so that an English title in an
 * Arabic sentence (or the other way) reads as it does on the linking page. Only targets
 * `wanted` takes are cut out (what a link resolves to is the reader's: linkSnippets, a
 * document's linkers): a realistic vault's links to notes no page shows cost nothing.
 */
export function linkSentences(note: NoteRecord, wanted: (target: string) => boolean = () => true): LinkSentence[] {
  const out: LinkSentence[] = [];
  const seen = new Set<string>();
  const body = publicMarkdown(note.body);
  // The links the parser reads (none in code or math), the ones a rename rewrites.
  const places = linkPlaces(body, false);
  let next = 0;
  let lineAt = 0;
  for (const line of body.split('\n')) {
    const start = lineAt;
    lineAt += line.length + 1;
    if (next >= places.length || places[next]!.at >= lineAt) continue;
    const lead = LINE_START.exec(line)![0].length;
    let source = line.slice(lead).replace(/\s\^[\w-]+\s*$/, '');
    // A table row reads as its cells one after another (`| b | [[Z]] |` is "b · Z"): its outer pipes become spaces, keeping the links' offsets.
    const row = TABLE_ROW.test(source);
    if (row) source = source.replace(/^(\s*)\|/, '$1 ').replace(/\|(\s*)$/, ' $1');
    const between = row ? cells : plain;
    const links: LinkRead[] = [];
    for (; next < places.length && places[next]!.at < lineAt; next++) {
      const place = places[next]!;
      const at = place.at - start - lead;
      // A picture in a link's text is read as part of the link.
      const inside = links.length > 0 && at < links[links.length - 1]!.at + links[links.length - 1]!.length;
      const read = at >= 0 && at + place.length <= source.length && !inside ? readOf(place) : null;
      if (read) links.push({ at, ...read });
    }
    const maths = mathIn(source);
    const math: string[] = [];
    // The words from `from` to `to`, each piece of math one MATH character.
    const words = (from: number, to: number) => {
      let out = '';
      for (const m of maths) {
        if (m.at < from || m.end > to) continue;
        out += between(source.slice(from, m.at)).replaceAll(MATH, '') + MATH;
        math.push(m.html);
        from = m.end;
      }
      return out + between(source.slice(from, to)).replaceAll(MATH, '');
    };
    let text = '';
    let last = 0;
    const hits: [string, number, number][] = [];
    for (const link of links) {
      text += words(last, link.at);
      last = link.at + link.length;
      const { shown, target } = link;
      const at = text.length;
      // A link's words keep their own direction in the sentence (FSI … PDI), as the link does on its page.
      if (shown) text += `\u2068${shown.replaceAll(MATH, '')}\u2069`;
      if (target !== null && !seen.has(target)) {
        seen.add(target);
        if (!wanted(target)) continue;
        hits.push([target, at, text.length - at]);
      }
    }
    text += words(last, source.length);
    const sentences = hits.length > 0 ? new Sentences(text) : null;
    for (const [target, at, length] of hits) {
      const { sentence, from } = sentenceCut(text, at, length, sentences!);
      let before = 0;
      for (let i = text.indexOf(MATH); i >= 0 && i < from; i = text.indexOf(MATH, i + 1)) before++;
      out.push({ target, html: sentenceHtml(sentence, math, before) });
    }
  }
  // A note its text does not link, its properties may: the property, as the panel shows it (`up: Parent`).
  for (const { key, target, shown } of propertyLinks(note.data)) {
    if (seen.has(target)) continue;
    seen.add(target);
    if (wanted(target)) out.push({ target, html: escapeHtml(`${key}: \u2068${shown}\u2069`) });
  }
  return out;
}

/**
 * For each note `note` links to (as `resolve` finds it), the sentence around its first link
 * there (linkSentences), as HTML; remembered per record while links resolve the same.
 */
export function linkSnippets(note: NoteRecord, generation: object, resolve: (target: string) => VaultPath | null): Map<VaultPath, string> {
  const known = memo.get(note);
  if (known && known.generation === generation) return known.byTarget;
  const byTarget = new Map<VaultPath, string>();
  const pathOf = new Map<string, VaultPath>();
  const taken = new Set<VaultPath>();
  // The first link to each note the page shows, as before a target resolved here was cut out.
  const wanted = (target: string) => {
    const path = resolve(target);
    if (path === null || taken.has(path)) return false;
    taken.add(path);
    pathOf.set(target, path);
    return true;
  };
  for (const { target, html } of linkSentences(note, wanted)) byTarget.set(pathOf.get(target)!, html);
  memo.set(note, { generation, byTarget });
  return byTarget;
}
