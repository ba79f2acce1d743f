// Arabic and English side by side in one note: in a note that holds a letter of a script
// written right to left, each paragraph, heading, list item and table cell takes the direction
// of its own first strong character (`dir="auto"`), the rule the admin's editor gives each line
// and Obsidian shows each line by. The article's direction stays the note's; an Arabic quote
// in an English post reads right to left, an English line in an Arabic note left to right.
// Callout titles too; code in a line stays left to right and decides nothing.
// A note with no such letter is left as it is.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { RTL_LETTER } from './language.ts';

const BLOCKS = new Set(['paragraph_open', 'heading_open', 'list_item_open', 'th_open', 'td_open']);

/** A letter: what a reader's browser takes a direction from (digits, marks and pictures give none). */
const LETTER = /\p{L}/u;

/** Whether `children` (a block's inline text) show a letter of their own words: code and math are left to right islands and give none. */
function wordsShowLetter(children: readonly Token[] | null): boolean {
  for (const child of children ?? []) {
    const shown = child.type === 'text' ? child.content : child.type === 'wikilink' && !child.meta?.embed ? child.content : '';
    if (LETTER.test(shown)) return true;
  }
  return false;
}

/**
 * Whether the block opened at `tokens[at]` shows a letter in its own words. `dir="auto"` over
 * no letter is left to right, so a photo, a date, `2024` or a line of code alone stood at the
 * left of an Arabic article: such a block keeps the article's direction.
 */
function showsLetter(tokens: StateCore['tokens'], at: number): boolean {
  return wordsShowLetter(tokens.slice(at + 1, at + 3).find((t) => t.type === 'inline')?.children ?? null);
}

function blockDirections(state: StateCore): void {
  if (!RTL_LETTER.test(state.src)) return;
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    // Code reads left to right inside an Arabic line (`int **` showed as `**int`), and a block's
    // dir="auto" passes over it, an element with a direction of its own (as over math: md.ts).
    if (token.type === 'inline') for (const child of token.children ?? []) if (child.type === 'code_inline') child.attrSet('dir', 'ltr');
    if (token.type === 'callout_title' && wordsShowLetter(token.children)) token.attrSet('dir', 'auto');
    if (!BLOCKS.has(token.type) || !showsLetter(tokens, i)) continue;
    // A list item's first paragraph (a loose list's): the item takes the direction. An item's
    // dir="auto" passes over a child with a direction of its own, so its marker fell to the left.
    if (token.type === 'paragraph_open' && tokens[i - 1]?.type === 'list_item_open') continue;
    token.attrSet('dir', 'auto');
  }
}

export function blockDirectionPlugin(md: MarkdownIt): void {
  md.core.ruler.push('block_direction', blockDirections);
}
