// Raw HTML goes through the sanitiser in islands, not the whole body. markdown-it's own
// output is already escaped (a note without raw HTML is never sanitised); an island is the
// run of top-level blocks from the first one holding the author's HTML until every element
// that HTML opened is closed again, or the end of the body. Each island is sanitised on its
// own, so it comes out whole and closed: whatever its HTML leaves open or unfinished ends
// there, and the markup after it is read by the browser as in a note without raw HTML.
import type { default as MarkdownIt, Options as MarkdownOptions } from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import type { NoteEnv } from './env.ts';
import { CLOSE_TAG, OPEN_TAG, RAW_TEXT, RAW_TEXT_END, VOID } from './html-tags.ts';
import { sanitizeNoteHtml } from './sanitize.ts';

/**
 * Which elements the author's HTML leaves open, read from its fragments in order. When in
 * doubt (a tag it cannot read, a comment or script left open) it says open: an island
 * longer than needed is only slower.
 */
export class RawBalance {
  private readonly open = new Map<string, number>();
  private depth = 0;
  private stuck = false;
  /** A raw-text element (script, iframe…) whose end tag has not come yet. */
  private inText: string | null = null;

  get closed(): boolean {
    return !this.stuck && this.inText === null && this.depth === 0;
  }

  feed(html: string): void {
    let at = this.inText ? this.textEnd(html, 0) : html.indexOf('<');
    while (at >= 0 && !this.stuck) at = this.tag(html, at);
  }

  /** Past the end tag of the raw-text element open, or -1 while it is still open. */
  private textEnd(html: string, from: number): number {
    // Looked for in place: lowercasing the whole fragment for each element made 20,000 `<style>x</style>` take 8 s.
    const endTag = RAW_TEXT_END.get(this.inText!)!;
    endTag.lastIndex = from;
    const end = endTag.exec(html)?.index ?? -1;
    if (end < 0) return -1;
    this.inText = null;
    return html.indexOf('<', end + 2);
  }

  /** Reads the tag at `at`; the next `<` to look at, or -1. */
  private tag(html: string, at: number): number {
    const rest = html.slice(at);
    if (rest.startsWith('<!--')) return this.skipTo(html, '-->', at + 4);
    if (rest.startsWith('<!') || rest.startsWith('<?')) return this.skipTo(html, '>', at + 2);
    if (rest.startsWith('</')) {
      if (!/^<\/[A-Za-z]/.test(rest)) return this.skipTo(html, '>', at + 2);
      const close = CLOSE_TAG.exec(rest);
      if (!close) return this.giveUp();
      const name = close[1]!.toLowerCase();
      const n = this.open.get(name) ?? 0;
      if (n > 0) {
        this.open.set(name, n - 1);
        this.depth--;
      }
      return html.indexOf('<', at + close[0].length);
    }
    if (!/^<[A-Za-z]/.test(rest)) return html.indexOf('<', at + 1);
    const open = OPEN_TAG.exec(rest);
    if (!open) return this.giveUp();
    const name = open[1]!.toLowerCase();
    const after = at + open[0].length;
    if (name === 'plaintext') return this.giveUp();
    if (RAW_TEXT.has(name)) {
      this.inText = name;
      return this.textEnd(html, after);
    }
    // A self-closed element counts as closed only in SVG or MathML, as the HTML parser reads it.
    const foreign = (this.open.get('svg') ?? 0) + (this.open.get('math') ?? 0) > 0;
    if (!VOID.has(name) && !(open[3] && foreign)) {
      this.open.set(name, (this.open.get(name) ?? 0) + 1);
      this.depth++;
    }
    return html.indexOf('<', after);
  }

  private skipTo(html: string, end: string, from: number): number {
    const found = html.indexOf(end, from);
    return found < 0 ? this.giveUp() : html.indexOf('<', found + end.length);
  }

  private giveUp(): number {
    this.stuck = true;
    return -1;
  }
}

/**
 * Elements an author may write bare (no attributes) that the sanitiser keeps as written. None
 * changes how the HTML after it is parsed (no raw text, tables, forms or foreign content).
 */
const PLAIN = new Set(['b', 'i', 'em', 'strong', 'u', 's', 'del', 'ins', 'mark', 'small', 'sub', 'sup', 'kbd', 'code', 'samp', 'var', 'abbr', 'cite', 'q', 'p', 'div', 'span', 'center', 'blockquote', 'details', 'summary', 'ul', 'ol', 'li', 'dl', 'dt', 'dd', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const PLAIN_VOID = new Set(['br', 'wbr', 'hr']);
const BARE_TAG = /<(\/?)([A-Za-z][A-Za-z0-9]*)\s*(\/?)>/y;

/**
 * Whether the author's HTML is only bare tags of PLAIN (and PLAIN_VOID) and text without `<`,
 * each element closed in the order opened: an island of it is left as written, since the
 * sanitiser would change only its spelling (`<br>` as `<br />`). Real notes' HTML is mostly
 * this (`<br>` in a table cell, `<details><summary>`, `<kbd>`): sanitising it was a fifth of a
 * realistic page's view. Anything else, or anything left open, goes to the sanitiser.
 */
export class BareHtml {
  private readonly open: string[] = [];
  private bare = true;

  get closed(): boolean {
    return this.bare && this.open.length === 0;
  }

  feed(html: string): void {
    for (let at = html.indexOf('<'); at >= 0 && this.bare; at = html.indexOf('<', at)) {
      BARE_TAG.lastIndex = at;
      const tag = BARE_TAG.exec(html);
      const name = tag?.[2]!.toLowerCase() ?? '';
      if (!tag) this.bare = false;
      else if (PLAIN_VOID.has(name)) this.bare = tag[1] === '';
      else if (!PLAIN.has(name) || tag[3] === '/') this.bare = false;
      else if (tag[1] === '') this.open.push(name);
      else this.bare = this.open.pop() === name;
      at = BARE_TAG.lastIndex;
    }
  }
}

/** The rendered tokens, and where the islands are in it (`[start, end)` offsets). */
export interface RenderedBlocks {
  html: string;
  islands: Array<[number, number]>;
}

/**
 * markdown-it's `renderer.render`, one top-level block at a time (every rule sees the whole
 * token list, as there), noting which blocks wrote the author's HTML (md.ts hands each
 * fragment to `env.rawParts`).
 */
export function renderBlocks(md: MarkdownIt, tokens: Token[], options: MarkdownOptions, env: NoteEnv): RenderedBlocks {
  const renderer = md.renderer;
  const rules = renderer.rules;
  const parts: string[] = [];
  env.rawParts = parts;
  const islands: Array<[number, number]> = [];
  let html = '';
  let depth = 0;
  let blockAt = 0;
  let partsAt = 0;
  let island: { start: number; balance: RawBalance; bare: BareHtml } | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (depth === 0) {
      blockAt = html.length;
      partsAt = parts.length;
    }
    if (token.type === 'inline') html += renderer.renderInline(token.children ?? [], options, env);
    else if (rules[token.type] !== undefined) html += rules[token.type]!(tokens, i, options, env, renderer);
    else html += renderer.renderToken(tokens, i, options);
    depth = Math.max(0, depth + token.nesting);
    if (depth > 0 || (parts.length === partsAt && !island)) continue;
    island ??= { start: blockAt, balance: new RawBalance(), bare: new BareHtml() };
    for (let k = partsAt; k < parts.length; k++) {
      island.balance.feed(parts[k]!);
      island.bare.feed(parts[k]!);
    }
    if (island.balance.closed) {
      // Only bare tags, all closed in order: nothing for the sanitiser to take out (BareHtml).
      if (!island.bare.closed) islands.push([island.start, html.length]);
      island = null;
    }
  }
  if (island) islands.push([island.start, html.length]);
  env.rawParts = undefined;
  return { html, islands };
}

/** The rendered HTML with each island passed through the sanitiser. */
export function sanitizeIslands(html: string, islands: ReadonlyArray<readonly [number, number]>): string {
  if (islands.length === 0) return html;
  let out = '';
  let at = 0;
  for (const [start, end] of islands) {
    out += html.slice(at, start) + sanitizeNoteHtml(html.slice(start, end));
    at = end;
  }
  return out + html.slice(at);
}
