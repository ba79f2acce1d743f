// The blocks a `[[Note#^` link can name, as Obsidian suggests them: each paragraph, list item,
// quote or callout, table, code or math block, with the id it already has and the place a new
// id goes so that the renderer (block-ids.ts) gives it to that block. Read by the renderer's
// own parser, so what is listed is what the site shows.
import type Token from 'markdown-it/lib/token.mjs';
import { frontmatterLength } from '../frontmatter.ts';
import { markdown } from '../md.ts';

export type BlockKind = 'paragraph' | 'item' | 'quote' | 'table' | 'code' | 'math';

export interface NoteBlock {
  kind: BlockKind;
  /** Its id without the `^`, or null. */
  id: string | null;
  /** Its text on one line, shortened: a suggestion's label. */
  text: string;
  /** The block's first line in the whole note (0-based; frontmatter lines count). */
  first: number;
  /** The line a new id is added to: at its end, or on a line of its own after it (`alone`). */
  line: number;
  alone: boolean;
}

const LABEL_MAX = 90;
/** Blocks that take an id on a line of their own after them (a blank line between, so it is a paragraph of its own). */
const ALONE: Partial<Record<string, BlockKind>> = { blockquote_open: 'quote', callout_open: 'quote', table_open: 'table', fence: 'code', code_block: 'code', math_block: 'math' };

function label(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > LABEL_MAX ? `${line.slice(0, LABEL_MAX - 1)}\u2026` : line;
}

/** The text a quote, callout or table shows first: a callout's title, else its first inline content. */
function firstInline(tokens: Token[], from: number): string {
  if (tokens[from + 1]?.type === 'callout_title' && tokens[from + 1]!.content) return tokens[from + 1]!.content;
  for (let i = from; i < tokens.length; i++) if (tokens[i]!.type === 'inline') return tokens[i]!.content.split('\n')[0]!;
  return '';
}

/** A table's header row as text: `| a | b |` → `a | b`. */
function tableHeader(source: string, line: number): string {
  const cells = (source.split('\n', line + 1)[line] ?? '').split('|').map((c) => c.trim());
  if (cells[0] === '') cells.shift();
  if (cells.at(-1) === '') cells.pop();
  return cells.join(' | ');
}

/** The blocks of a note's whole text (frontmatter included: lines count from the file's first). */
export function noteBlocks(text: string): NoteBlock[] {
  // The body starts after a byte-order mark and the frontmatter block; its first line is the file's line `offset`.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const at = bom + frontmatterLength(bom ? text.slice(1) : text);
  const offset = text.slice(0, at).split('\n').length - 1;
  const source = text.slice(at);
  const tokens = markdown().parse(source, {});
  const blocks: NoteBlock[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (!token.map) continue;
    const id = token.attrGet('id')?.replace(/^\^/, '') ?? null;
    if (token.type === 'list_item_open') {
      // Its id ends its first line, which must be text (`- ` then a fence names no item).
      if (tokens[i + 1]?.type !== 'paragraph_open' || tokens[i + 1]!.map![0] !== token.map[0]) continue;
      blocks.push({ kind: 'item', id, text: label(tokens[i + 2]!.content.split('\n')[0]!), first: offset + token.map[0], line: offset + token.map[0], alone: false });
    } else if (token.level !== 0) continue;
    else if (token.type === 'paragraph_open') {
      blocks.push({ kind: 'paragraph', id, text: label(tokens[i + 1]!.content), first: offset + token.map[0], line: offset + token.map[1] - 1, alone: false });
    } else if (ALONE[token.type]) {
      // A table by its header row; a quote or callout by its first line or title; code by its first line.
      const shown = token.type === 'table_open' ? tableHeader(source, token.map[0]) : token.nesting === 1 ? firstInline(tokens, i) : (token.content.split('\n').find((l) => l.trim()) ?? '');
      blocks.push({ kind: ALONE[token.type]!, id, text: label(shown), first: offset + token.map[0], line: offset + token.map[1] - 1, alone: true });
    }
  }
  return blocks;
}

/** The change that gives `id` to `block` (one of noteBlocks(text)): ` ^id` ending its line, or `^id` on a line after it. */
export function blockIdChange(text: string, block: NoteBlock, id: string): { from: number; to: number; insert: string } {
  let end = -1;
  for (let n = 0; n <= block.line && (end = text.indexOf('\n', end + 1)) >= 0; n++);
  if (end < 0) end = text.length;
  // The line's end, before a carriage return of a CRLF line.
  const at = text[end - 1] === '\r' ? end - 1 : end;
  if (!block.alone) {
    let from = at;
    while (from > 0 && (text[from - 1] === ' ' || text[from - 1] === '\t')) from--;
    return { from, to: at, insert: ` ^${id}` };
  }
  // A blank line after the id too, unless one follows already: text right below would join its line.
  const nextLine = /^\r?\n([^\n]*)/.exec(text.slice(end))?.[1];
  const blankAfter = nextLine === undefined || nextLine.trim() === '';
  return { from: at, to: at, insert: `\n\n^${id}${blankAfter ? '' : '\n'}` };
}

/** The note's text with `id` given to `block` (blockIdChange). */
export function withBlockId(text: string, block: NoteBlock, id: string): string {
  const { from, to, insert } = blockIdChange(text, block, id);
  return text.slice(0, from) + insert + text.slice(to);
}

/** The block of `text` that `listed` (a block of an earlier text) is: at the same place, else the one block of its kind and text; or null. */
export function sameBlock(text: string, listed: NoteBlock): NoteBlock | null {
  const blocks = noteBlocks(text);
  const here = blocks.find((b) => b.line === listed.line && b.kind === listed.kind && b.text === listed.text);
  if (here) return here;
  const alike = blocks.filter((b) => b.kind === listed.kind && b.text === listed.text);
  return alike.length === 1 ? alike[0]! : null;
}

const ID_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789';

/** A new block id as Obsidian makes them (six lowercase letters and digits), none of `taken`. */
export function newBlockId(taken: Iterable<string | null>): string {
  const used = new Set(taken);
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(6));
    const id = Array.from(bytes, (b) => ID_CHARS[b % ID_CHARS.length]).join('');
    if (!used.has(id)) return id;
  }
}
