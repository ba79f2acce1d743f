// A block id on the author's raw HTML (`</details> ^det`, or `^det` on its own line after an
// HTML block). The HTML is the author's, so the id goes on an element of ours: the element
// the block ends, from the HTML block that opened it (blocks of Markdown between included),
// is wrapped in a <div id="^det">, so `[[Note#^det]]` lands on it and `![[Note#^det]]`
// embeds it, sanitised as any raw HTML. When the blocks do not read as whole elements (one
// left open, one closed out of order, a tag this cannot read), a wrapper would cross the
// author's elements: an empty anchor carrying the id goes right before the block instead.
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { CLOSE_TAG, OPEN_TAG, RAW_TEXT, RAW_TEXT_END, VOID } from '../html-tags.ts';

interface Tag {
  name: string;
  close: boolean;
  selfClosed: boolean;
}

/** Just past the next `end` from `from`, or -1. */
function past(html: string, end: string, from: number): number {
  const found = html.indexOf(end, from);
  return found < 0 ? -1 : found + end.length;
}

/** The element tags of an HTML block in order (comments and raw text passed over), or null when it holds what this does not read. */
function tagsOf(html: string): Tag[] | null {
  const tags: Tag[] = [];
  let at = html.indexOf('<');
  while (at >= 0) {
    const rest = html.slice(at);
    let next: number;
    if (rest.startsWith('<!--')) next = past(html, '-->', at + 4);
    else if (rest.startsWith('<!') || rest.startsWith('<?') || /^<\/[^A-Za-z]/.test(rest)) next = past(html, '>', at + 2);
    else if (rest.startsWith('</')) {
      const close = CLOSE_TAG.exec(rest);
      if (!close) return null;
      tags.push({ name: close[1]!.toLowerCase(), close: true, selfClosed: false });
      next = at + close[0].length;
    } else if (/^<[A-Za-z]/.test(rest)) {
      const open = OPEN_TAG.exec(rest);
      if (!open) return null;
      const name = open[1]!.toLowerCase();
      next = at + open[0].length;
      if (RAW_TEXT.has(name)) {
        // Whole with its text, or unreadable (plaintext never ends, nor does raw text left open).
        const end = RAW_TEXT_END.get(name)!;
        end.lastIndex = next;
        const found = name === 'plaintext' ? null : end.exec(html);
        const close = found ? CLOSE_TAG.exec(html.slice(found.index)) : null;
        if (!found || !close || close[1]!.toLowerCase() !== name) return null;
        next = found.index + close[0].length;
      } else tags.push({ name, close: false, selfClosed: open[3] === '/' });
    } else next = at + 1;
    if (next < 0) return null;
    at = html.indexOf('<', next);
  }
  return tags;
}

/** The author's elements open at one level of the tree, outermost first, each with the token that opened it. */
interface Level {
  open: Array<{ name: string; at: number }>;
  foreign: number;
  broken: boolean;
}

const freshLevel = (): Level => ({ open: [], foreign: 0, broken: false });

/**
 * Reads HTML block `j`'s tags into its level: the first token of the run of blocks that
 * ends with it (`j` itself when it is whole on its own), or null when it leaves an element
 * open or the level cannot be read.
 */
function runStart(level: Level, tags: Tag[] | null, j: number): number | null {
  if (level.broken || tags === null) {
    level.broken = true;
    return null;
  }
  let low = level.open.length;
  let from = j;
  for (const tag of tags) {
    const foreign = tag.name === 'svg' || tag.name === 'math';
    if (!tag.close) {
      // A self-closed element counts as closed only in SVG or MathML, as the HTML parser reads it.
      if (VOID.has(tag.name) || (tag.selfClosed && level.foreign > 0)) continue;
      level.open.push({ name: tag.name, at: j });
      if (foreign) level.foreign++;
      continue;
    }
    const top = level.open.at(-1);
    if (top?.name !== tag.name) {
      level.broken = true;
      return null;
    }
    level.open.pop();
    if (foreign) level.foreign--;
    if (level.open.length < low) {
      low = level.open.length;
      from = top.at;
    }
  }
  return level.open.length === low ? from : null;
}

/** Gives each HTML block of `named` (the id each one's block takes) its wrapper, or its anchor. */
export function htmlBlockIds(state: StateCore, named: Map<Token, string>): void {
  const tokens = state.tokens;
  const levels: Level[] = [];
  const opens = new Map<number, Array<{ to: number; id: string }>>();
  const closes = new Map<number, number>();
  const anchors = new Map<number, string>();
  for (let j = 0; j < tokens.length; j++) {
    const t = tokens[j]!;
    // A block that holds blocks starts their level afresh: the author's HTML is read per container.
    if (t.nesting === 1) levels[t.level + 1] = freshLevel();
    if (t.type !== 'html_block') continue;
    const start = runStart((levels[t.level] ??= freshLevel()), tagsOf(t.content), j);
    const id = named.get(t);
    if (id === undefined) continue;
    if (start === null) anchors.set(j, id);
    else {
      opens.set(start, [...(opens.get(start) ?? []), { to: j, id }]);
      closes.set(j, (closes.get(j) ?? 0) + 1);
    }
  }
  const out: Token[] = [];
  for (let j = 0; j < tokens.length; j++) {
    const t = tokens[j]!;
    // Runs nest or stand apart (each is whole): the longer one starting here opens first.
    for (const run of (opens.get(j) ?? []).sort((a, b) => b.to - a.to)) out.push(blockToken(state, 'obsidian_block_open', 1, t.level, run.id));
    const anchor = anchors.get(j);
    if (anchor !== undefined) out.push(blockToken(state, 'obsidian_block_anchor', 0, t.level, anchor));
    out.push(t);
    for (let n = closes.get(j) ?? 0; n > 0; n--) out.push(blockToken(state, 'obsidian_block_close', -1, t.level, null));
  }
  state.tokens = out;
}

/**
 * A wrapper's open or close, or an anchor. It keeps the level of the blocks it wraps, so
 * what reads a note's top-level blocks (its plain text, word count, sections) reads them as before.
 */
function blockToken(state: StateCore, type: string, nesting: 1 | 0 | -1, level: number, id: string | null): Token {
  const token = new state.Token(type, nesting === 0 ? 'a' : 'div', nesting);
  token.block = true;
  token.level = level;
  if (id !== null) token.attrSet('id', id);
  return token;
}

const isWrapper = (t: Token) => t.type === 'obsidian_block_open' || t.type === 'obsidian_block_close';

/**
 * A run of a note's tokens cut out of it (a section an embed shows) with its wrappers whole:
 * one the cut crosses is left out, its blocks kept, so the embed never closes what holds it.
 */
export function wholeWrappers(slice: Token[]): Token[] {
  if (!slice.some(isWrapper)) return slice;
  const whole = new Set<Token>();
  const open: Token[] = [];
  for (const t of slice) {
    if (t.type === 'obsidian_block_open') open.push(t);
    else if (t.type === 'obsidian_block_close' && open.length) whole.add(open.pop()!).add(t);
  }
  return slice.filter((t) => !isWrapper(t) || whole.has(t));
}
