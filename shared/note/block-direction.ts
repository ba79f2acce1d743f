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

function blockDirections(state: StateCore): void {
  if (!RTL_LETTER.test(state.src)) return;
  for (const t of state.tokens) if (BLOCKS.has(t.type)) t.attrSet('dir', 'auto');
}

export function blockDirectionPlugin(md: MarkdownIt): void {
  md.core.ruler.push('block_direction', blockDirections);
}
