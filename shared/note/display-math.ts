// A `$$` display block as Obsidian reads it. The KaTeX plugin's block rule took a first line
// `$$F$$ so the schema…` for a block's opening and ran on to the next `$$` anywhere below,
// so every list, callout and paragraph in between became one red formula. Such a line is a
// paragraph holding display math (the plugin's inline rule makes it); the rest is the
// plugin's: `$$x$$` alone on its line, or `$$` lines around the formula (to the end of the
// note when no line closes it, as an unclosed fence does).
import type MarkdownIt from 'markdown-it';
import type StateBlock from 'markdown-it/lib/rules_block/state_block.mjs';

function displayBlock(state: StateBlock, start: number, end: number, silent: boolean): boolean {
  const open = state.bMarks[start]! + state.tShift[start]!;
  const max = state.eMarks[start]!;
  if (open + 2 > max || state.src.charCodeAt(open) !== 0x24 || state.src.charCodeAt(open + 1) !== 0x24) return false;
  const first = state.src.slice(open + 2, max);
  const closer = first.indexOf('$$');
  let found = false;
  let firstLine = first;
  if (closer >= 0) {
    // `$$x$$ text` or `$$x$$ and $$y$$`: a paragraph's display math, not a block.
    if (first.slice(closer + 2).trim() !== '') return false;
    firstLine = first.slice(0, closer);
    found = true;
  }
  if (silent) return true;
  let next = start;
  let lastLine = '';
  // Where the formula's lines end: past the closing line, or before a line that ends the block it sits in.
  let after = end;
  while (!found) {
    next++;
    if (next >= end) break;
    const pos = state.bMarks[next]! + state.tShift[next]!;
    const lineEnd = state.eMarks[next]!;
    // A non-empty line indented less than the block it sits in (a list item's) ends it, and stays that block's.
    // Columns, not characters: Obsidian indents a list item's lines with a tab.
    if (pos < lineEnd && state.sCount[next]! < state.blkIndent) {
      after = next;
      break;
    }
    const line = state.src.slice(pos, lineEnd);
    const at = line.indexOf('$$');
    if (at >= 0) {
      lastLine = line.slice(0, at);
      found = true;
    }
  }
  state.line = found ? next + 1 : Math.min(after, end);
  const token = state.push('math_block', 'math', 0);
  token.block = true;
  const inner = state.getLines(start + 1, found ? next : state.line, state.sCount[start]!, true);
  token.content = (firstLine.trim() ? `${firstLine}\n` : '') + inner + (lastLine.trim() ? lastLine : '');
  token.map = [start, state.line];
  token.markup = '$$';
  return true;
}

/** Replaces the KaTeX plugin's `math_block` rule (its rendering stays the plugin's). */
export function obsidianDisplayMath(md: MarkdownIt): void {
  md.block.ruler.at('math_block', displayBlock, { alt: ['paragraph', 'reference', 'blockquote', 'list'] });
}
