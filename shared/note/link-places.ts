// Where a note's links are, as written: the one reading that a rename rewrites and that the
// admin's backlinks and the site's "Linked from" read, so they agree with the renderer (the
// note's facts, analyze.ts) on what is a link. Candidates are found by the expressions
// (wikilinks: wikilinks.ts; `[text](address)`, `[text](<address>)` and reference
// definitions: link-address.ts). Which of them sit in code, math or raw HTML is decided by
// the Markdown parser itself, as comments.ts decides it for `%%`: a marker is put before each
// candidate, the text is parsed once, and a marker found inside such a token is no link.
// A link inside a `%%` comment is still a link of the note (Obsidian indexes and renames it);
// the public readers remove comments first (publicMarkdown).
import type Token from 'markdown-it/lib/token.mjs';
import { MARKDOWN_LINK, REFERENCE_DEFINITION } from '../link-address.ts';
import { writtenLinks, type WrittenLink } from '../wikilinks.ts';
import { holdsMarker, LITERAL_TYPES, marker, markersIn, MAY_BE_INDENTED_CODE } from './comments.ts';
import { frontmatterLength } from './frontmatter.ts';
import { blockTokens, markdown } from './md.ts';

/** A wikilink as written. */
export interface WikiPlace extends WrittenLink {
  kind: 'wiki';
}

/** A Markdown link or picture (`[text](address)`), or a reference definition (`[ref]: address`). */
export interface AddressPlace {
  kind: 'markdown' | 'definition';
  at: number;
  length: number;
  bang: string;
  /** The link's text, or the definition's label. */
  label: string;
  /** The address as written, without the <> around it. */
  address: string;
  addressAt: number;
  /** Written in <> (may hold spaces). */
  angle: boolean;
}

export type LinkPlace = WikiPlace | AddressPlace;

// Tokens whose text is shown as written (code, math, raw HTML): a link there is text.
const HIDING_TYPES = new Set([...LITERAL_TYPES, 'html_block', 'html_inline']);
// Blocks that take whole lines: a definition's line inside one is no definition.
const LEAF_BLOCKS = new Set(['paragraph_open', 'heading_open', 'code_block', 'fence', 'html_block', 'math_block', 'table_open', 'hr']);
// What can hide a link from the parser: a backtick, a `$`, raw HTML, a `~~~` fence, indented code.
const mayHideLinks = (text: string): boolean => /[`$<]|~~~/.test(text) || MAY_BE_INDENTED_CODE.test(text);

/** Every place of `text` written as a link, in order, code or not (readAsLinks tells). */
export function writtenPlaces(text: string): LinkPlace[] {
  const places: LinkPlace[] = [];
  if (text.includes('[[')) for (const w of writtenLinks(text)) places.push({ kind: 'wiki', ...w });
  const wikis = places.length;
  let nested = false;
  if (text.includes('](')) {
    let k = 0;
    for (const m of text.matchAll(MARKDOWN_LINK)) {
      const at = m.index!;
      // A Markdown link inside a wikilink's display text is the wikilink's.
      while (k < wikis && places[k]!.at + places[k]!.length <= at) k++;
      if (k < wikis && places[k]!.at < at + m[0].length) continue;
      places.push(markdownPlace(m, at));
      // The pictures in a link's text (`[![alt](pic.png)](Note.md)`) are links too.
      if (m[2]!.includes('](')) {
        const labelAt = at + m[1]!.length + 1;
        for (const inner of m[2]!.matchAll(MARKDOWN_LINK)) places.push(markdownPlace(inner, labelAt + inner.index!));
        nested = true;
      }
    }
  }
  if (text.includes(']:')) {
    for (const m of text.matchAll(REFERENCE_DEFINITION)) {
      const [whole, before, label, angled, bare] = m as unknown as [string, string, string, string | undefined, string | undefined];
      const angle = angled !== undefined;
      const address = angle ? angled : bare!;
      const end = m.index! + whole.length;
      places.push({ kind: 'definition', at: m.index! + before.length, length: whole.length - before.length, bang: '', label, address, addressAt: end - address.length - (angle ? 1 : 0), angle });
    }
  }
  return (wikis < places.length && wikis > 0) || nested ? places.sort((a, b) => a.at - b.at) : places;
}

function markdownPlace(m: RegExpMatchArray, at: number): AddressPlace {
  const [whole, bang, label, angled, bare] = m as unknown as [string, string, string, string | undefined, string | undefined];
  const angle = angled !== undefined;
  return { kind: 'markdown', at, length: whole.length, bang, label, address: angle ? angled : bare!, addressAt: at + bang.length + label.length + 3 + (angle ? 1 : 0), angle };
}

/** Whether the `[` at `at` is escaped (`\\[[Note]]` is text): an odd run of backslashes before it. */
function escaped(text: string, at: number): boolean {
  let n = 0;
  while (at - n - 1 >= 0 && text.charCodeAt(at - n - 1) === 0x5c /* \\ */) n++;
  return n % 2 === 1;
}

/** The markers in inline tokens' text, code, math and raw HTML left out (what the renderer shows as text or links). */
function readMarkers(tokens: Token[], into: Set<number>): void {
  for (const token of tokens) {
    if (HIDING_TYPES.has(token.type)) continue;
    markersIn(token.content, into);
    if (token.children) readMarkers(token.children, into);
  }
}

// What can make code, math or raw HTML inside a block's text.
const INLINE_LITERAL = /[`$<]/;

/**
 * The markers of `marked` the parser reads as text, and the block tokens. A marker counts
 * where it is found, in the text of a heading, paragraph, table cell or footnote outside code,
 * math and raw HTML, never where it is not: a line a block swallows whole (an unclosed `$$`
 * in a list item takes the lines after it and shows none) holds no link. The renderer's parser,
 * by its public parts: the blocks of the whole text, then the text of only those blocks that
 * hold a marker and something that can open code inline (most hold none: a full parse is most
 * of the admin's index of a vault).
 */
function parseMarked(marked: string): { read: Set<number>; blocks: Token[] } {
  const md = markdown();
  const env: { footnotes?: { list?: { tokens?: Token[] }[] } } = {};
  const blocks = blockTokens(marked, env);
  const read = new Set<number>();
  for (const token of blocks) {
    if (token.type !== 'inline' || !holdsMarker(token.content)) continue;
    if (!INLINE_LITERAL.test(token.content)) {
      markersIn(token.content, read);
      continue;
    }
    const children: Token[] = [];
    md.inline.parse(token.content, md, env, children);
    readMarkers(children, read);
  }
  // An inline footnote's (`^[…]`) text is parsed apart from its paragraph.
  for (const footnote of env.footnotes?.list ?? []) if (footnote.tokens) readMarkers(footnote.tokens, read);
  return { read, blocks };
}

/**
 * The places of `written` (found in `text` by writtenPlaces) the parser reads as links: not
 * escaped, not in code, math or raw HTML, and a definition only on a line no block of text takes. A whole
 * note's (`withFrontmatter`) frontmatter links (`related: "[[Note]]"`) are links. Parses
 * `text` at most once, and not at all when nothing in it can hide a link.
 */
export function readAsLinks(text: string, written: LinkPlace[], withFrontmatter = true): LinkPlace[] {
  if (written.length === 0) return written;
  const bodyAt = withFrontmatter ? frontmatterLength(text) : 0;
  const places = written.filter((p) => p.at < bodyAt || p.kind === 'definition' || !escaped(text, p.at + p.bang.length));
  const definitions = places.some((p) => p.kind === 'definition');
  if (!definitions && !mayHideLinks(text)) return places;
  let marked = '';
  let last = bodyAt;
  places.forEach((p, i) => {
    if (p.at < bodyAt || p.kind === 'definition') return;
    marked += text.slice(last, p.at) + marker(i);
    last = p.at;
  });
  marked += text.slice(last);
  const { read, blocks } = parseMarked(marked);
  const taken = new Set<number>();
  if (definitions) {
    for (const t of blocks) if (t.map && LEAF_BLOCKS.has(t.type)) for (let line = t.map[0]; line < t.map[1]; line++) taken.add(line);
  }
  let line = 0;
  let counted = bodyAt;
  return places.filter((p, i) => {
    if (p.at < bodyAt) return true;
    if (p.kind !== 'definition') return read.has(i);
    for (let at = text.indexOf('\n', counted); at >= 0 && at < p.at; at = text.indexOf('\n', at + 1)) {
      line++;
      counted = at + 1;
    }
    return !taken.has(line);
  });
}

/** Every link of `text` (a whole note, or a body without its frontmatter) as the parser reads it (see readAsLinks). */
export const linkPlaces = (text: string, withFrontmatter = true): LinkPlace[] => readAsLinks(text, writtenPlaces(text), withFrontmatter);
