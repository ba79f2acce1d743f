// Where a note's links are, as written: the one reading that a rename rewrites and that the
// admin's backlinks and the site's "Linked from" read, so they agree with the renderer (the
// note's facts, analyze.ts) on what is a link. Candidates are the places written as links
// (written-places.ts). Which of them sit in code, math or raw HTML is decided by
// the Markdown parser itself, as comments.ts decides it for `%%`: a marker is put before each
// candidate, the text is parsed once, and a marker found inside such a token is no link.
// A link inside a `%%` comment is still a link of the note (Obsidian indexes and renames it);
// the public readers remove comments first (publicMarkdown).
import type Token from 'markdown-it/lib/token.mjs';
import { holdsMarker, LITERAL_TYPES, marker, markersIn, MAY_BE_INDENTED_CODE } from './comments.ts';
import { frontmatterLength } from './frontmatter.ts';
import { takeDefinitions } from './footnote-tail.ts';
import { blockTokens, markdown } from './md.ts';
import { writtenPlaces, type LinkPlace } from './written-places.ts';

// Tokens whose text is shown as written (code, math, raw HTML): a link there is text.
const HIDING_TYPES = new Set([...LITERAL_TYPES, 'html_block', 'html_inline']);
// Blocks that take whole lines: a definition's line inside one is no definition.
const LEAF_BLOCKS = new Set(['paragraph_open', 'heading_open', 'code_block', 'fence', 'html_block', 'math_block', 'table_open', 'hr']);
// What can hide a link from the parser: a backtick, a `$`, raw HTML, a `~~~` fence, indented
// code, or a footnote's definition (the page leaves out one the note never refers to).
const mayHideLinks = (text: string): boolean => /[`$<]|~~~/.test(text) || (text.includes('[^') && text.includes(']:')) || MAY_BE_INDENTED_CODE.test(text);
const lineEnd = (c: number) => c === 0x0a || c === 0x0d;
// What a table's delimiter row is made of (quote marks before it).
const delimiterChar = (c: number) => c === 0x2d /* - */ || c === 0x7c /* | */ || c === 0x3a /* : */ || c === 0x20 || c === 0x09 || c === 0x3e /* > */;

/**
 * Whether a line of text[from…] can be a table's delimiter row: a table splits its rows at
 * every unescaped `|`, so `[[Note|shown]]` in a row is two cells' text and no link
 * (`[[Note\|shown]]` is one), and leaves out the cells past its header's columns. A loop over
 * the lines holding a `-`, each read once: V8 tries a multiline `^` at every character.
 */
function mayHoldTable(text: string, from: number): boolean {
  for (let dash = text.indexOf('-', from); dash >= 0; ) {
    let at = dash;
    while (at > from && !lineEnd(text.charCodeAt(at - 1))) at--;
    while (at < text.length && delimiterChar(text.charCodeAt(at))) at++;
    if (at === text.length || lineEnd(text.charCodeAt(at))) return true;
    while (at < text.length && !lineEnd(text.charCodeAt(at))) at++;
    dash = text.indexOf('-', at);
  }
  return false;
}

/** Whether text[from, to) holds a `|` no backslash escapes. */
function holdsPipe(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at++) if (text.charCodeAt(at) === 0x7c /* | */ && text.charCodeAt(at - 1) !== 0x5c /* \\ */) return true;
  return false;
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

type FootnoteEnv = { footnotes?: { refs?: Record<string, number>; list?: { label?: string; tokens?: Token[] }[] } };

/**
 * The block tokens the page shows: markdown-it-footnote's tail leaves out the definitions the
 * note never refers to (takeDefinitions). Which labels are referred to is known once the text
 * that can refer (`[^label]`) is parsed inline, definitions' own text included, as the renderer does.
 */
function shownBlocks(blocks: Token[], env: FootnoteEnv, parsed: Map<Token, Token[]>): Token[] {
  if (!blocks.some((t) => t.type === 'footnote_reference_open')) return blocks;
  const md = markdown();
  for (const t of blocks) {
    if (t.type !== 'inline' || !t.content.includes('[^')) continue;
    const children: Token[] = [];
    md.inline.parse(t.content, md, env, children);
    parsed.set(t, children);
  }
  const { flow, definitions } = takeDefinitions(blocks);
  for (const entry of env.footnotes?.list ?? []) if (entry.label) for (const t of definitions.get(entry.label) ?? []) flow.push(t);
  return flow;
}

// What can make code, math or raw HTML inside a block's text.
const INLINE_LITERAL = /[`$<]/;

/**
 * The markers of `marked` the parser reads as text, each with the block that reads it, and
 * the block tokens. A marker counts where it is found, in the text of a heading, paragraph,
 * table cell or footnote outside code, math and raw HTML, never where it is not: a line a
 * block swallows whole (an unclosed `$$` in a list item takes the lines after it and shows
 * none) holds no link. The renderer's parser, by its public parts: the blocks of the whole
 * text, then the text of only those blocks that hold a marker and something that can open
 * code inline (most hold none: a full parse is most of the admin's index of a vault).
 */
function parseMarked(marked: string): { read: Map<number, number>; blocks: Token[] } {
  const md = markdown();
  const env: FootnoteEnv = {};
  const blocks = blockTokens(marked, env);
  const read = new Map<number, number>();
  const found = new Set<number>();
  const readIn = (block: number) => {
    for (const n of found) read.set(n, block);
    found.clear();
  };
  // The blocks the footnotes' check parsed inline are read from that parse, not parsed again.
  const parsed = new Map<Token, Token[]>();
  shownBlocks(blocks, env, parsed).forEach((token, block) => {
    if (token.type !== 'inline' || !holdsMarker(token.content)) return;
    if (!INLINE_LITERAL.test(token.content)) markersIn(token.content, found);
    else {
      let children = parsed.get(token);
      if (!children) md.inline.parse(token.content, md, env, (children = []));
      readMarkers(children, found);
    }
    readIn(block);
  });
  // An inline footnote's (`^[…]`) text is parsed apart from its paragraph.
  (env.footnotes?.list ?? []).forEach((footnote, k) => {
    if (footnote.tokens) readMarkers(footnote.tokens, found);
    readIn(-1 - k);
  });
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
  // A table shows no cell past its header's columns, and splits a link holding a `|`.
  const table = places.some((p) => p.at >= bodyAt && p.kind !== 'definition') && mayHoldTable(text, bodyAt);
  if (!definitions && !table && !mayHideLinks(text)) return places;
  // A link holding a `|` counts only where one block reads it whole: a marker after it too.
  const piped = places.map((p) => table && p.at >= bodyAt && p.kind !== 'definition' && holdsPipe(text, p.at, p.at + p.length));
  // The markers by place: each link's start, and a piped link's end (before the next start at the same place).
  const cuts: [at: number, n: number][] = [];
  places.forEach((p, i) => {
    if (p.at < bodyAt || p.kind === 'definition') return;
    cuts.push([p.at, i]);
    if (piped[i]) cuts.push([p.at + p.length, places.length + i]);
  });
  if (piped.includes(true)) cuts.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
  let marked = '';
  let last = bodyAt;
  for (const [at, n] of cuts) {
    marked += text.slice(last, at) + marker(n);
    last = at;
  }
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
    if (p.kind !== 'definition') return read.has(i) && (!piped[i] || read.get(i) === read.get(places.length + i));
    for (let at = text.indexOf('\n', counted); at >= 0 && at < p.at; at = text.indexOf('\n', at + 1)) {
      line++;
      counted = at + 1;
    }
    return !taken.has(line);
  });
}

/** Every link of `text` (a whole note, or a body without its frontmatter) as the parser reads it (see readAsLinks). */
export const linkPlaces = (text: string, withFrontmatter = true): LinkPlace[] => readAsLinks(text, writtenPlaces(text), withFrontmatter);
