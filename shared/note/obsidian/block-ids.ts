// Block ids: `^id` at the end of a paragraph or list item is hidden from the text and
// becomes the element's `id="^id"`, so `[[Note#^id]]` lands on it and `![[Note#^id]]`
// can embed it. A `^id` alone on the line after a block (a table, list, quote, callout,
// code or math block, raw HTML, a heading) names that block, as Obsidian reads it; so does one
// at the end of a quote's last line or of a callout's title line. Raw HTML's ids: html-block-ids.ts.
import type MarkdownIt from 'markdown-it';
import type { RenderRule } from 'markdown-it/lib/renderer.mjs';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { escapeHtml } from '../escape.ts';
import { htmlBlockIds } from './html-block-ids.ts';

const TRAILING_ID = /(^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$/;
// In an HTML block (which runs to a blank line), `^id` may also stand alone on its last line.
const HTML_TRAILING_ID = /(^|[ \t\n])\^([A-Za-z0-9-]+)[ \t]*$/;
// A callout's first line (callouts.ts reads it after the ids are taken).
const CALLOUT_MARKER = /^\[![^\]|\n]+/;
/** Blocks without children that a `^id` on the line after them names. */
const LEAVES = new Set(['fence', 'code_block', 'math_block']);

/** The open token matching the close token at `close`. */
export function openerOf(tokens: Token[], close: number): number {
  const closing = tokens[close]!;
  for (let i = close - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.nesting === 1 && t.level === closing.level) return i;
  }
  return -1;
}

/** The quote (or callout) the block ending at `end` ends, the outermost one when quotes nest; or null. */
function quoteEnded(tokens: Token[], end: number): Token | null {
  let close = end;
  while (tokens[close + 1]?.type === 'blockquote_close') close++;
  return close > end ? tokens[openerOf(tokens, close)]! : null;
}

/**
 * The block an id at the end of paragraph `open` names: the list item holding it; the quote
 * it ends (its last line is the quote's); else the paragraph.
 */
function owner(tokens: Token[], open: number): Token {
  const before = tokens[open - 1];
  if (before?.type === 'list_item_open') return before;
  return quoteEnded(tokens, open + 2) ?? tokens[open]!;
}

/**
 * `- step ^id` followed by indented lines of the same item, or `> [!type] Title ^id` followed
 * by the callout's body: the id ends the first line, not the paragraph, and Obsidian gives it
 * to the list item or the callout.
 */
function firstLineId(tokens: Token[], open: number): void {
  const children = tokens[open + 1]!.children!;
  const brk = children.findIndex((t) => t.type === 'softbreak' || t.type === 'hardbreak');
  const text = children[brk - 1];
  if (brk < 1 || text?.type !== 'text') return;
  const m = TRAILING_ID.exec(text.content);
  if (!m || (m.index === 0 && brk === 1)) return;
  text.content = text.content.slice(0, m.index).replace(/(?<![ \t])[ \t]+$/, '');
  const inline = tokens[open + 1]!;
  inline.content = inline.content.replace(/(^|[ \t])\^[A-Za-z0-9-]+[ \t]*(?=\n)/, '');
  tokens[open - 1]!.attrSet('id', `^${m[2]}`);
}

/**
 * `## Corollario ^e2ecda`, a heading's own line ending in an id (outline-style notes write
 * `- ## Heading ^id`): hidden, and the list item holding the heading takes it, as Obsidian gives
 * it; a heading elsewhere keeps the id its name gives it, and an anchor before it carries the block's.
 */
function headingLineId(tokens: Token[], open: number, anchors: Map<number, string>): void {
  const inline = tokens[open + 1]!;
  const children = inline.children;
  const last = children?.at(-1);
  const m = last?.type === 'text' && inline.content.includes('^') ? TRAILING_ID.exec(last.content) : null;
  if (!m || (m.index === 0 && children!.length === 1)) return;
  last!.content = last!.content.slice(0, m.index).replace(/(?<![ \t])[ \t]+$/, '');
  inline.content = inline.content.replace(TRAILING_ID, '').replace(/(?<![ \t])[ \t]+$/, '');
  const id = `^${m[2]}`;
  if (tokens[open - 1]?.type === 'list_item_open') tokens[open - 1]!.attrSet('id', id);
  else anchors.set(open, id);
}

/** The id that ends an HTML block's last line (`</details> ^det`, or `^det` alone on it), taken out of its text; or null. */
function htmlTrailingId(token: Token): string | null {
  const body = token.content.replace(/(?<!\n)\n+$/, '');
  const m = HTML_TRAILING_ID.exec(body);
  if (!m) return null;
  token.content = body.slice(0, m.index).replace(/(?<![ \t\n])[ \t\n]+$/, '') + '\n';
  return `^${m[2]}`;
}

/** An empty anchor carrying block id `id`, before block `before` (rendered as html-block-ids.ts renders its own). */
function anchorToken(state: StateCore, before: Token, id: string): Token {
  const token = new state.Token('obsidian_block_anchor', 'a', 0);
  token.block = true;
  token.level = before.level;
  token.attrSet('id', id);
  return token;
}

/** A table row that is only `^id`, written without a pipe. */
const ID_ROW = /^[ \t]*\^([A-Za-z0-9-]+)[ \t]*$/;
/** The `>` a line in a quote or callout starts with. */
const QUOTE_MARKS = /^(?:[ \t]{0,8}>){1,20}/;

/**
 * `^id` on the line right under a table, with no blank line between (ttrpg-convert-cli writes
 * every roll table so, and Obsidian names the table by it): the table's rule read it as a last
 * row. The row is taken out and the id given to the table.
 */
function tableRowIds(state: StateCore): void {
  const tokens = state.tokens;
  let lines: string[] | null = null;
  for (let close = 0; close < tokens.length; close++) {
    if (tokens[close]!.type !== 'tbody_close') continue;
    const row = tokens.findLastIndex((t, k) => k < close && t.type === 'tr_open');
    const cells = tokens.slice(row + 1, close - 1).filter((t) => t.type === 'inline');
    const m = cells[0] ? ID_ROW.exec(cells[0].content) : null;
    if (!m || cells.slice(1).some((c) => c.content.trim() !== '')) continue;
    // Written as `^id` alone, not as a row `| ^id |` someone means as a cell.
    const line = tokens[row]!.map?.[0];
    lines ??= state.src.split('\n');
    if (line === undefined || !ID_ROW.test((lines[line] ?? '').replace(QUOTE_MARKS, ''))) continue;
    const table = openerOf(tokens, tokens.findIndex((t, k) => k > close && t.type === 'table_close'));
    if (table < 0) continue;
    tokens[table]!.attrSet('id', `^${m[1]}`);
    // The row goes, and the body with it when the row was its only one.
    const open = openerOf(tokens, close);
    const [from, count] = open === row - 1 ? [open, close - open + 1] : [row, close - row];
    tokens.splice(from, count);
    close = from;
  }
}

function blockIds(state: StateCore): void {
  if (state.src.includes('^')) tableRowIds(state);
  const tokens = state.tokens;
  const drop = new Set<number>();
  /** Headings (by their open token) named by a `^id` on the line after them. */
  const anchors = new Map<number, string>();
  // Raw HTML blocks and the ids their blocks take.
  const html = new Map<Token, string>();
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (token.type === 'html_block') {
      const id = token.content.includes('^') ? htmlTrailingId(token) : null;
      const quote = id === null ? null : quoteEnded(tokens, i);
      if (quote) quote.attrSet('id', id!);
      else if (id !== null) html.set(token, id);
      continue;
    }
    if (token.type === 'heading_open') {
      headingLineId(tokens, i, anchors);
      continue;
    }
    if (token.type !== 'paragraph_open') continue;
    const inline = tokens[i + 1]!;
    const children = inline.children;
    const last = children?.at(-1);
    if (inline.type !== 'inline' || !last || !inline.content.includes('^')) continue;
    const m = last.type === 'text' ? TRAILING_ID.exec(last.content) : null;
    const parent = tokens[i - 1]?.type;
    // An id ending the first line is hidden even when another ends the block (which keeps the last).
    if (parent === 'list_item_open' || (parent === 'blockquote_open' && CALLOUT_MARKER.test(inline.content))) firstLineId(tokens, i);
    if (!m) continue;
    const id = `^${m[2]}`;
    const alone = children!.length === 1 && m.index === 0 && m[1] === '';
    if (alone) {
      // `^id` on its own line after a block: it names that block.
      const previous = tokens[i - 1];
      if (previous?.type === 'html_block') html.set(previous, id);
      else if (previous && LEAVES.has(previous.type)) previous.attrSet('id', id);
      else {
        const opener = previous && previous.nesting === -1 ? openerOf(tokens, i - 1) : -1;
        // A heading keeps the id its name gives it (`[[#Heading]]`): the block's goes on an anchor before it.
        if (opener >= 0 && tokens[opener]!.type === 'heading_open') anchors.set(opener, id);
        else if (opener >= 0) (tokens[opener]!.type === 'paragraph_open' ? owner(tokens, opener) : tokens[opener]!).attrSet('id', id);
      }
      drop.add(i).add(i + 1).add(i + 2);
      continue;
    }
    last.content = last.content.slice(0, m.index).replace(/(?<![ \t])[ \t]+$/, '');
    // A softbreak left dangling before the removed id.
    if (last.content === '' && children!.length > 1) {
      children!.pop();
      while (children!.length && children!.at(-1)!.type === 'softbreak') children!.pop();
    }
    inline.content = inline.content.replace(TRAILING_ID, '').replace(/(?<![ \t])[ \t]+$/, '');
    owner(tokens, i).attrSet('id', id);
  }
  if (drop.size || anchors.size) {
    const out: Token[] = [];
    tokens.forEach((t, i) => {
      const anchor = anchors.get(i);
      if (anchor !== undefined) out.push(anchorToken(state, t, anchor));
      if (!drop.has(i)) out.push(t);
    });
    state.tokens = out;
  }
  if (html.size) htmlBlockIds(state, html);
}

/**
 * A code or math block's id on its outermost element (`<pre id="^code">`), as a table's is:
 * their own rules would put it on the <code> inside, or nowhere.
 */
function idOnFirstElement(rule: RenderRule): RenderRule {
  return (tokens, idx, opts, env, self) => {
    const token = tokens[idx]!;
    const id = token.attrGet('id');
    if (!id) return rule(tokens, idx, opts, env, self);
    const attrs = token.attrs;
    // Rendering is synchronous: the parse's token is as it was once this returns.
    token.attrs = attrs!.filter(([k]) => k !== 'id');
    let html: string;
    try {
      html = rule(tokens, idx, opts, env, self);
    } finally {
      token.attrs = attrs;
    }
    const attr = ` id="${escapeHtml(id)}"`;
    const tag = /^<[A-Za-z][A-Za-z0-9-]*/.exec(html);
    // A block the vault fills per page (a base) is a hole, not yet an element: ours holds it.
    return tag ? tag[0] + attr + html.slice(tag[0].length) : `<div${attr}>${html}</div>\n`;
  };
}

export function blockIdsPlugin(md: MarkdownIt): void {
  md.core.ruler.push('obsidian_block_ids', blockIds);
  const rules = md.renderer.rules;
  for (const type of LEAVES) rules[type] = idOnFirstElement(rules[type]!);
  rules.obsidian_block_anchor = (tokens, idx, _opts, _env, self) => `<a${self.renderAttrs(tokens[idx]!)}></a>\n`;
}
