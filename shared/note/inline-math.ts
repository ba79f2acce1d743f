// `$x$` as Obsidian reads it (Pandoc's rule): a `$` opens only when a non-space follows it, and
// closes only after a non-space and before no digit. The KaTeX plugin's own rule took
// `$100 … | $—` and `$ x $` for formulas, so a line of prices in prose turned into math.
// Replaces the plugin's `math_inline` rule (`$$` stays its `math_inline_block`'s).
import type MarkdownIt from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';

const SPACE = /\s/u;
const DIGIT = /[0-9]/;
/** A letter or digit right before `$` (`US$5`) makes it no opener, as the plugin had it. */
const WORD = /[\p{L}\p{N}_]/u;

/** The `$` at `from` or after it that closes a formula, or -1: not escaped, after a non-space, before no digit. */
function closerAfter(src: string, from: number, max: number): number {
  for (let at = src.indexOf('$', from); at >= 0 && at < max; at = src.indexOf('$', at + 1)) {
    let slashes = 0;
    while (src[at - 1 - slashes] === '\\') slashes++;
    if (slashes % 2 === 1) continue;
    if (!SPACE.test(src[at - 1]!) && !DIGIT.test(src[at + 1] ?? '')) return at;
  }
  return -1;
}

function inlineMath(state: StateInline, silent: boolean): boolean {
  const { src, pos } = state;
  if (src[pos] !== '$') return false;
  // Inside an HTML element written in the text, as the plugin left it.
  const last = state.tokens.at(-1);
  if (last?.type === 'html_inline' && /^<\w/.test(last.content) && !last.content.endsWith('/>')) return false;
  const next = src[pos + 1];
  const prev = src[pos - 1];
  const opens = next !== undefined && next !== '$' && !SPACE.test(next) && prev !== '\\' && !(prev !== undefined && WORD.test(prev));
  const close = opens ? closerAfter(src, pos + 1, state.posMax) : -1;
  if (close < 0) {
    if (!silent) state.pending += '$';
    state.pos = pos + 1;
    return true;
  }
  if (!silent) {
    const token = state.push('math_inline', 'math', 0);
    token.markup = '$';
    token.content = src.slice(pos + 1, close);
  }
  state.pos = close + 1;
  return true;
}

export function obsidianInlineMath(md: MarkdownIt): void {
  md.inline.ruler.at('math_inline', inlineMath);
}
