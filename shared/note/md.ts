// The one markdown-it instance every note is parsed and rendered with (the public
// article, its embeds, the admin's revision view, and the facts the note model takes
// from a note). Maintained plugins where they exist (footnotes, highlights, KaTeX);
// Obsidian's own syntax in small plugins under ./obsidian/.
import MarkdownIt, { type PluginSimple, type PluginWithOptions } from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import footnote from 'markdown-it-footnote';
import mark from 'markdown-it-mark';
import katexPlugin from '@vscode/markdown-it-katex';
import katex from 'katex';
import { strictLineBreaksNow } from './line-breaks.ts';
import { obsidianInlineMath } from './inline-math.ts';
import { obsidianDisplayMath } from './display-math.ts';
import { unsafeLinksPlugin } from './unsafe-links.ts';
import type { NoteEnv } from './env.ts';
import { formulaFits, formulaSource, highlightFits, newRenderSpent } from './render-budget.ts';
import { linkBareAddresses } from './bare-links.ts';
import { linearFootnoteTail } from './footnote-tail.ts';
import { blockDirectionPlugin } from './block-direction.ts';
import { budgetSource, cutAtBudget, noteRestPlugin } from './parse-budget.ts';
import { guardLinkNormalize } from './link-normalize.ts';
import { baseBlocksPlugin } from './obsidian/base-blocks.ts';
import { blockIdsPlugin } from './obsidian/block-ids.ts';
import { calloutsPlugin } from './obsidian/callouts.ts';
import { headingIds } from './obsidian/headings.ts';
import { headingAnchorsPlugin } from './obsidian/heading-anchors.ts';
import { mediaPlugin } from './obsidian/media.ts';
import { tagsPlugin } from './obsidian/tags.ts';
import { taskListsPlugin } from './obsidian/task-lists.ts';
import { liftEmbeds, wikilinksPlugin } from './obsidian/wikilinks.ts';

/**
 * Raw HTML is noted as it is written out, so every piece of it is seen wherever it sits
 * (inline footnotes, moved in after parsing, included): only the blocks holding some go
 * through the sanitiser (raw-islands.ts), which costs about three renders. Our own rules
 * never make `html_*` tokens.
 */
function flagRawHtml(md: MarkdownIt): void {
  for (const type of ['html_block', 'html_inline'] as const) {
    const write = md.renderer.rules[type]!;
    md.renderer.rules[type] = (tokens, idx, opts, env: NoteEnv, self) => {
      env.rawParts?.push(tokens[idx]!.content);
      return write(tokens, idx, opts, env, self);
    };
  }
}

/**
 * markdown-it's first core rule, doing what it does (`\r\n` and `\r` to `\n`, NUL to U+FFFD)
 * without copying a note that holds neither: its `replace(/\r\n?|\n/g, '\n')` rewrote every
 * newline, a copy of each note (9 MB of a 10,000-note build's allocations on one thread).
 * Then the note's parse budget (parse-budget.ts): past it, the rest is not parsed.
 */
function normalize(state: StateCore): void {
  state.src = budgetSource(normalized(state.src), state.env as object | undefined);
}

function normalized(src: string): string {
  if (src.includes('\r')) src = src.replace(/\r\n?/g, '\n');
  if (src.includes('\0')) src = src.replace(/\0/g, '\uFFFD');
  return src;
}

function createMarkdown(): MarkdownIt {
  // Obsidian's habits: single newlines break (unless its strict line breaks are on: markdown()), bare URLs link (as GFM links them), raw HTML is allowed (and sanitised).
  const md = new MarkdownIt({ html: true, linkify: true, breaks: true, typographer: false });
  md.core.ruler.at('normalize', normalize);
  linkBareAddresses(md);
  guardLinkNormalize(md);
  // (Two plugins' declarations name markdown-it's CommonJS types: the plugins are the same functions.)
  md.use(footnote as unknown as PluginSimple);
  linearFootnoteTail(md);
  md.use(mark);
  // The KaTeX we ship the stylesheet and fonts of renders the math (the plugin's own copy is older).
  const math = ((katexPlugin as unknown as { default?: unknown }).default ?? katexPlugin) as PluginWithOptions<object>;
  // strict: 'ignore': KaTeX would otherwise log a warning per LaTeX habit it tolerates, for every note.
  md.use(math, { katex, throwOnError: false, strict: 'ignore' });
  obsidianInlineMath(md);
  obsidianDisplayMath(md);
  // `$$…$$` written inside a paragraph: display math, in a <span> (a <p> cannot hold the plugin's <p>).
  const displayMath = md.renderer.rules.math_block!;
  md.renderer.rules.math_block = (tokens, idx, opts, env, self) => {
    const token = tokens[idx]!;
    if (token.map) return displayMath(tokens, idx, opts, env, self); // a block of its own (inline ones have no line map)
    return `<span class="katex-block">${katex.renderToString(token.content, { displayMode: true, throwOnError: false, strict: 'ignore' })}</span>`;
  };
  boundMath(md);
  boundHighlight(md);
  flagRawHtml(md);
  md.use(wikilinksPlugin).use(tagsPlugin).use(mediaPlugin).use(baseBlocksPlugin);
  // Registered after the media rules so it runs before them, first after the inline parse.
  md.use(unsafeLinksPlugin);
  // Order matters: ids first (a callout or list item keeps its `^id`), then callouts and
  // tasks, then embeds lifted out of paragraphs, then heading ids over the final tree.
  md.use(blockIdsPlugin).use(calloutsPlugin).use(taskListsPlugin);
  md.core.ruler.push('obsidian_embeds', liftEmbeds);
  md.core.ruler.push('heading_ids', headingIds);
  md.use(headingAnchorsPlugin);
  md.use(blockDirectionPlugin);
  md.use(noteRestPlugin);
  return md;
}

/** An environment KaTeX numbers, as its starred form: Obsidian's MathJax numbers no equation unless `\tag` asks. */
const NUMBERED = /\\(begin|end)\{(align|alignat|equation|gather)\}/g;
/**
 * MathJax's environments KaTeX has not, as the nearest it has: a vault's `flalign` showed red
 * TeX where Obsidian typesets it. flalign's columns keep their alignment, not its flush margins;
 * multline's lines are centred.
 */
const MATHJAX_ONLY = /\\(begin|end)\{(flalign|multline|eqnarray|x{1,2}alignat)\*?\}/g;
const KATEX_NAME: Record<string, string> = { flalign: 'align*', multline: 'gather*', eqnarray: 'array', xalignat: 'alignat*', xxalignat: 'alignat*' };

/** `tex` as KaTeX typesets what MathJax would: no equation numbers, MathJax-only environments renamed. */
export function forKatex(tex: string): string {
  if (!tex.includes('\\begin{')) return tex;
  return tex.replace(NUMBERED, '\\$1{$2*}').replace(MATHJAX_ONLY, (_, edge: string, name: string) => {
    const renamed = KATEX_NAME[name]!;
    // eqnarray's three columns, right, centre, left, are an array's with its column spec.
    return renamed === 'array' && edge === 'begin' ? '\\begin{array}{rcl}' : `\\${edge}{${renamed}}`;
  });
}

/**
 * Each formula renders while the note's math budget lasts (render-budget.ts), then shows as
 * its TeX; as Obsidian shows it (forKatex).
 */
/**
 * A formula marked left to right, as a formula shown as TeX is: a block's `dir="auto"` passes
 * over an element with a direction of its own, so the letters of the MathML KaTeX writes beside
 * its drawing (`x` in `$$x^2$$ وهذه معادلة…`) no longer set an Arabic paragraph left to right.
 */
const leftToRight = (html: string): string => html.replace(/ class="katex(-error)?"/, ' class="katex$1" dir="ltr"');

function boundMath(md: MarkdownIt): void {
  for (const name of ['math_inline', 'math_inline_block', 'math_block']) {
    const render = md.renderer.rules[name];
    if (!render) continue;
    md.renderer.rules[name] = (tokens, idx, opts, env: NoteEnv | undefined, self) => {
      const token = tokens[idx]!;
      if (env && !formulaFits((env.spent ??= newRenderSpent()).math, token.content)) return formulaSource(token.content, token.type !== 'math_inline' && token.map !== null);
      const written = token.content;
      token.content = forKatex(written);
      try {
        return leftToRight(render(tokens, idx, opts, env, self));
      } finally {
        token.content = written;
      }
    };
  }
}

/** Options as given, without colouring: a block past the note's code budget (render-budget.ts). */
const plainOptions = new WeakMap<object, object>();

/** Each code block is coloured while the note's code budget lasts (render-budget.ts), then left plain. */
function boundHighlight(md: MarkdownIt): void {
  const fence = md.renderer.rules.fence!;
  md.renderer.rules.fence = (tokens, idx, opts, env: NoteEnv | undefined, self) => {
    if (!opts.highlight || !env || highlightFits((env.spent ??= newRenderSpent()).code, tokens[idx]!.content.length)) return fence(tokens, idx, opts, env, self);
    let plain = plainOptions.get(opts) as typeof opts | undefined;
    if (!plain) plainOptions.set(opts, (plain = { ...opts, highlight: null }));
    return fence(tokens, idx, plain, env, self);
  };
}

let shared: MarkdownIt | null = null;

export function markdown(): MarkdownIt {
  shared ??= createMarkdown();
  // The vault's line breaks as this process reads them now (line-breaks.ts): markdown-it reads the option at each render.
  shared.options.breaks = !strictLineBreaksNow();
  return shared;
}

/**
 * The block tokens of `text` as the renderer's parser reads it (its normalize step and parse budget first), no
 * inline text parsed: what code, math, fences and raw HTML take. `env` is kept for inline
 * parses of the blocks after it (footnotes land there).
 */
export function blockTokens(text: string, env: object = {}): Token[] {
  const md = markdown();
  const tokens: Token[] = [];
  const src = normalized(text);
  md.block.parse(cutAtBudget(src)?.head ?? src, md, env, tokens);
  return tokens;
}
