// Block ids: `^id` at the end of a paragraph or list item is hidden from the text and
// becomes the element's `id="^id"`, so `[[Note#^id]]` lands on it and `![[Note#^id]]`
// can embed it. A `^id` alone on the line after a table, list or quote names that block.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';

const TRAILING_ID = /(^|[ \t])\^([A-Za-z0-9-]+)[ \t]*$/;

/** The open token matching the close token at `close`. */
export function openerOf(tokens: Token[], close: number): number {
  const closing = tokens[close]!;
  for (let i = close - 1; i >= 0; i--) {
    const t = tokens[i]!;
    if (t.nesting === 1 && t.level === closing.level) return i;
  }
  return -1;
}

/** The block an id at paragraph `open` names: the list item holding it, else the paragraph. */
function owner(tokens: Token[], open: number): Token {
  const before = tokens[open - 1];
  return before?.type === 'list_item_open' ? before : tokens[open]!;
}

/**
 * `- step ^id` followed by indented lines of the same item: the id ends the item's first
 * line, not its paragraph, and Obsidian still gives it to the list item.
 */
function firstLineId(tokens: Token[], open: number): void {
  const children = tokens[open + 1]!.children!;
  const brk = children.findIndex((t) => t.type === 'softbreak' || t.type === 'hardbreak');
  const text = children[brk - 1];
  if (brk < 1 || text?.type !== 'text') return;
  const m = TRAILING_ID.exec(text.content);
  if (!m || (m.index === 0 && brk === 1)) return;
  text.content = text.content.slice(0, m.index).replace(/[ \t]+$/, '');
  const inline = tokens[open + 1]!;
  inline.content = inline.content.replace(/(^|[ \t])\^[A-Za-z0-9-]+[ \t]*(?=\n)/, '');
  tokens[open - 1]!.attrSet('id', `^${m[2]}`);
}

function blockIds(state: StateCore): void {
  const tokens = state.tokens;
  const drop = new Set<number>();
  for (let i = 0; i + 2 < tokens.length; i++) {
    if (tokens[i]!.type !== 'paragraph_open') continue;
    const inline = tokens[i + 1]!;
    const children = inline.children;
    const last = children?.at(-1);
    if (inline.type !== 'inline' || !last || !inline.content.includes('^')) continue;
    const m = last.type === 'text' ? TRAILING_ID.exec(last.content) : null;
    if (!m) {
      if (tokens[i - 1]?.type === 'list_item_open') firstLineId(tokens, i);
      continue;
    }
    const id = `^${m[2]}`;
    const alone = children!.length === 1 && m.index === 0 && m[1] === '';
    if (alone) {
      // `^id` on its own line after a block (a table, list, quote, paragraph): it names that block.
      const previous = tokens[i - 1];
      const opener = previous && previous.nesting === -1 ? openerOf(tokens, i - 1) : -1;
      if (opener >= 0) (tokens[opener]!.type === 'paragraph_open' ? owner(tokens, opener) : tokens[opener]!).attrSet('id', id);
      drop.add(i).add(i + 1).add(i + 2);
      continue;
    }
    last.content = last.content.slice(0, m.index).replace(/[ \t]+$/, '');
    // A softbreak left dangling before the removed id.
    if (last.content === '' && children!.length > 1) {
      children!.pop();
      while (children!.length && children!.at(-1)!.type === 'softbreak') children!.pop();
    }
    inline.content = inline.content.replace(TRAILING_ID, '').replace(/[ \t]+$/, '');
    owner(tokens, i).attrSet('id', id);
  }
  if (drop.size) state.tokens = tokens.filter((_t, i) => !drop.has(i));
}

export function blockIdsPlugin(md: MarkdownIt): void {
  md.core.ruler.push('obsidian_block_ids', blockIds);
}
