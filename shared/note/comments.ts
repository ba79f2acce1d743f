// CONTRACT §7: `%%…%%` (inline or spanning lines) is private: removed before anything
// public is made of a note (page, embeds, excerpt, feed, meta description, word count,
// search). `%%` inside a code span, a code block or math is literal text. Which `%%`
// sit in code is decided by the Markdown parser itself, not by patterns over the text:
// every `%%` is first replaced by a numbered marker, the text is parsed, and a marker
// found inside a code or math token is code. The others delimit comments, in pairs;
// an unclosed one hides everything after it (hiding too much never leaks).
import type Token from 'markdown-it/lib/token.mjs';
import { markdown } from './md.ts';
import { flat } from './slots.ts';

const OPEN = '\uE000';
const CLOSE = '\uE001';
// Digits of a marker's number, written in the private use area so they never read as Markdown.
const DIGIT0 = 0xe010;
/** Tokens of code and math: their text is shown as written. */
export const LITERAL_TYPES = new Set(['code_inline', 'code_block', 'fence', 'math_inline', 'math_block', 'math_inline_block', 'math_inline_bare_block']);

/** The `n`th marker put in a text for the parser to place (link-places.ts does the same for links). */
export function marker(n: number): string {
  let digits = '';
  for (const d of n.toString(16)) digits += String.fromCharCode(DIGIT0 + parseInt(d, 16));
  return OPEN + digits + CLOSE;
}

const MARKER = /\uE000([\uE010-\uE01F]+)\uE001/g;

/** Whether `text` holds a marker. */
export const holdsMarker = (text: string): boolean => text.includes(OPEN);

/** The numbers of the markers in `text`, added to `into`. */
export function markersIn(text: string, into: Set<number>): void {
  if (!text.includes(OPEN)) return;
  for (const m of text.matchAll(MARKER)) {
    let n = 0;
    for (const ch of m[1]!) n = n * 16 + (ch.charCodeAt(0) - DIGIT0);
    into.add(n);
  }
}

function literalMarkers(tokens: Token[], into: Set<number>): void {
  for (const token of tokens) {
    if (LITERAL_TYPES.has(token.type)) {
      markersIn(token.content, into);
      markersIn(token.info, into);
    }
    if (token.children) literalMarkers(token.children, into);
  }
}

/**
 * A line whose text stands a tab or four spaces in, at its start or after a quote's `>` or a
 * list item's marker: it may be indented code (`>     code` and `-     code` are code in the
 * quote or the item). Meant for a test of "nothing here needs the parser" (it errs towards yes).
 */
export const MAY_BE_INDENTED_CODE = /^[ >*+\-\d.)]*(?:\t| {4})/m;

/** Whether `text` may hold code or math: a backtick, a `$`, a `~~~` fence, a line that may be indented code. */
const mayHoldCode = (text: string): boolean => /[`$]|~~~/.test(text) || MAY_BE_INDENTED_CODE.test(text);

/** The note's Markdown with its private comments removed (the one privacy boundary). */
export function publicMarkdown(body: string): string {
  let at = body.indexOf('%%');
  if (at < 0) return body;
  // Without anything that can open code, no `%%` is code: no parse is needed to tell.
  if (!mayHoldCode(body)) return removeComments(body, () => false);
  let count = 0;
  let marked = '';
  let last = 0;
  while (at >= 0) {
    marked += body.slice(last, at) + marker(count++);
    last = at + 2;
    at = body.indexOf('%%', last);
  }
  marked += body.slice(last);
  const literal = new Set<number>();
  literalMarkers(markdown().parse(marked, {}), literal);
  let n = 0;
  return removeComments(body, () => literal.has(n++));
}

/** Removes `%%…%%` pairs, skipping each `%%` that `isLiteral` (called once per `%%`, in order) says is code. */
function removeComments(body: string, isLiteral: () => boolean): string {
  let out = '';
  let from = 0;
  let open = -1;
  for (let at = body.indexOf('%%'); at >= 0; at = body.indexOf('%%', at + 2)) {
    if (isLiteral()) continue;
    if (open < 0) {
      out += body.slice(from, at);
      open = at;
    } else {
      from = at + 2;
      open = -1;
    }
  }
  // An unclosed comment runs to the end of the note.
  return flat(open >= 0 ? out : out + body.slice(from));
}

/** `.tex` notes are not Markdown: there `%%…%%` is removed wherever it stands. */
export function publicTex(body: string): string {
  return body.replace(/%%[\s\S]*?%%/g, '').replace(/%%[\s\S]*$/, '');
}
