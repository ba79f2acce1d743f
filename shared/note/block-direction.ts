// Arabic and English side by side in one note: in a note that holds a letter of a script
// written right to left, each paragraph, heading, list item and table cell takes the direction
// of its own first strong character (`dir="auto"`), the rule the admin's editor gives each line
// and Obsidian shows each line by. The article's direction stays the note's; an Arabic quote
// in an English post reads right to left, an English line in an Arabic note left to right.
// A note with no such letter is left as it is.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import { RTL_LETTER } from './language.ts';

const BLOCKS = new Set(['paragraph_open', 'heading_open', 'list_item_open', 'th_open', 'td_open']);

/** A letter: what a reader's browser takes a direction from (digits, marks and pictures give none). */
const LETTER = /\p{L}/u;

/**
 * Whether the block opened at `tokens[at]` shows a letter in its own text. `dir="auto"` over
 * no letter is left to right, so a photo, a date or `2024` alone stood at the left of an Arabic
 * article: such a block keeps the article's direction.
 */
function showsLetter(tokens: StateCore['tokens'], at: number): boolean {
  const inline = tokens.slice(at + 1, at + 3).find((t) => t.type === 'inline');
  for (const child of inline?.children ?? []) {
    const shown = child.type === 'text' || child.type === 'code_inline' ? child.content : child.type === 'wikilink' && !child.meta?.embed ? child.content : '';
    if (LETTER.test(shown)) return true;
  }
  return false;
}

function blockDirections(state: StateCore): void {
  if (!RTL_LETTER.test(state.src)) return;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) if (BLOCKS.has(tokens[i]!.type) && showsLetter(tokens, i)) tokens[i]!.attrSet('dir', 'auto');
}

export function blockDirectionPlugin(md: MarkdownIt): void {
  md.core.ruler.push('block_direction', blockDirections);
}
