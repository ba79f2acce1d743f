// Arabic and English side by side in one note: each paragraph, heading, list item and table
// cell of a note that holds any Arabic says its own direction, told by the script most of
// its words are in (shared/note/language.ts). The article's direction is the note's; an
// Arabic paragraph quoted in an English note reads right to left, an English one in an
// Arabic note left to right, as Obsidian shows each line in its own direction. A note with
// no Arabic letter is left as it is.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { blockDirection, hasArabic } from './language.ts';

/** Blocks whose text is the inline token right after them. */
const TEXT_BLOCKS = new Set(['paragraph_open', 'heading_open', 'th_open', 'td_open']);

/** A list item's first line: the first inline token inside it. */
function firstInline(tokens: Token[], from: number): Token | null {
  for (let i = from + 1, depth = 1; i < tokens.length && depth > 0; i++) {
    const t = tokens[i]!;
    if (t.type === 'list_item_open') depth++;
    else if (t.type === 'list_item_close') depth--;
    else if (t.type === 'inline') return t;
  }
  return null;
}

function blockDirections(state: StateCore): void {
  if (!hasArabic(state.src)) return;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    const inline = TEXT_BLOCKS.has(t.type) ? tokens[i + 1] : t.type === 'list_item_open' ? firstInline(tokens, i) : null;
    if (inline?.type !== 'inline') continue;
    const dir = blockDirection(inline.content);
    if (dir) t.attrSet('dir', dir);
  }
}

export function blockDirectionPlugin(md: MarkdownIt): void {
  md.core.ruler.push('block_direction', blockDirections);
}
