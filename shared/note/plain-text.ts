// A note's public text, as plain text: what visitors read, with Markdown marks, link
// targets, tags' `#`, block ids and private comments gone. Made from the parser's
// tokens of the public Markdown, so every derived output (excerpt, meta description,
// feed, word count, search index) reads the same text the article shows.
import type Token from 'markdown-it/lib/token.mjs';
import { linkShownText } from '../wikilinks.ts';
import { isUnspaced } from '../search/unspaced.ts';
import type { WikiMeta } from './obsidian/wikilinks.ts';

export type BlockKind = 'prose' | 'list' | 'quote' | 'callout' | 'heading' | 'code' | 'math' | 'table' | 'html' | 'footnote';

export interface PlainBlock {
  kind: BlockKind;
  /** The block's text, lines joined by '\n'. */
  text: string;
  /** The block as written in the note, lines joined by '\n' (for telling template leftovers from prose), when known. */
  raw?: string;
}

function wikiText(meta: WikiMeta): string {
  if (meta.embed) return '';
  if (meta.alias) return meta.alias;
  if (meta.target === '') return meta.subpath.join(' ').replace(/^\^.*/, '');
  return linkShownText(meta.target, meta.subpath);
}

// What TeX commands read as in plain text; any other command is dropped (its braces' text stays).
const TEX_SYMBOLS: Record<string, string> = {
  alpha: 'α', beta: 'β', gamma: 'γ', delta: 'δ', epsilon: 'ε', varepsilon: 'ε', zeta: 'ζ', eta: 'η', theta: 'θ', kappa: 'κ',
  lambda: 'λ', mu: 'μ', nu: 'ν', xi: 'ξ', pi: 'π', rho: 'ρ', sigma: 'σ', tau: 'τ', phi: 'φ', varphi: 'φ', chi: 'χ', psi: 'ψ',
  omega: 'ω', Gamma: 'Γ', Delta: 'Δ', Theta: 'Θ', Lambda: 'Λ', Pi: 'Π', Sigma: 'Σ', Phi: 'Φ', Psi: 'Ψ', Omega: 'Ω',
  cdot: '·', times: '×', div: '÷', pm: '±', le: '≤', leq: '≤', ge: '≥', geq: '≥', ne: '≠', neq: '≠', approx: '≈',
  equiv: '≡', infty: '∞', to: '→', rightarrow: '→', leftarrow: '←', in: '∈', sum: '∑', prod: '∏', int: '∫', sqrt: '√',
  partial: '∂', nabla: '∇', ldots: '…', dots: '…', cdots: '…', quad: ' ', qquad: ' ',
};

/**
 * Inline math as plain text (excerpts, meta descriptions, the feed, the search index):
 * `\frac{a}{b}` → `a/b`, `\alpha` → `α`, `\text{km}` → `km`; never TeX's commands.
 */
export function texText(tex: string): string {
  return tex
    .replace(/\\\\/g, ' ')
    .replace(/\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g, '$1/$2')
    .replace(/\\([A-Za-z]+)/g, (_, name: string) => TEX_SYMBOLS[name] ?? '')
    .replace(/\\[,;:! ]/g, ' ')
    .replace(/\\(.)/g, '$1')
    .replace(/[{}]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * How an inline HTML tag changes the depth of script or style elements (their text is
 * code, never prose: the sanitizer drops it from the page, so no plain text keeps it).
 */
function hiddenStep(html: string): number {
  const m = /^<(\/?)(script|style)\b/i.exec(html);
  if (!m) return 0;
  return m[1] ? -1 : /\/\s*>$/.test(html) ? 0 : 1;
}

/**
 * An inline HTML tag that ends a line or a cell (`<br>`, Kanban cards' and table cells' line breaks;
 * `<p>`, `<li>`, `<td>`…): the words on either side are two words, not one (`Gym<br>Laundry`).
 */
const BREAKING_TAG = /^<\/?(?:br|p|div|li|ul|ol|tr|td|th|table|hr|h[1-6]|dt|dd|dl|blockquote|section|details|summary)\b/i;

/** The text of an inline token's children; line breaks (and a breaking tag's) become '\n'. */
export function inlineText(children: Token[] | null): string {
  if (!children) return '';
  let out = '';
  let imageDepth = 0;
  let hidden = 0;
  for (const t of children) {
    if (t.type === 'html_inline') hidden = Math.max(0, hidden + hiddenStep(t.content));
    if (hidden > 0) continue;
    if (t.type === 'html_inline' && imageDepth === 0 && BREAKING_TAG.test(t.content)) out += '\n';
    switch (t.type) {
      case 'text':
      case 'code_inline':
        if (imageDepth === 0) out += t.content;
        break;
      case 'math_inline':
        out += texText(t.content);
        break;
      case 'softbreak':
      case 'hardbreak':
        out += '\n';
        break;
      case 'obsidian_tag':
        out += t.content;
        break;
      case 'wikilink':
        out += wikiText(t.meta as WikiMeta);
        break;
      case 'image':
        // An image's alt text is not prose.
        break;
      default:
        break;
    }
  }
  return out;
}

/**
 * What a raw HTML block or span says as text: scripts and styles dropped, tags read as a
 * space. Linear in the HTML: `/<[^>]*>/g` read to the end of the text from each of thousands
 * of `<` with no `>` after them (200 KB of `<!--` took ten seconds).
 */
function htmlText(html: string): string {
  return withoutTags(withoutScripts(html))
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

/** What `html.replace(/<[^>]*>/g, ' ')` gives, stopping at the last `>`. */
function withoutTags(html: string): string {
  let out = '';
  let from = 0;
  for (let open = html.indexOf('<'); open >= 0; open = html.indexOf('<', from)) {
    const close = html.indexOf('>', open);
    if (close < 0) break;
    out += html.slice(from, open) + ' ';
    from = close + 1;
  }
  return from === 0 ? html : out + html.slice(from);
}

const SCRIPT_OR_STYLE = /<(script|style)\b/gi;
const SCRIPT_CLOSE = /<\/script>/gi;
const STYLE_CLOSE = /<\/style>/gi;

/**
 * `html` without its `<script>…</script>` and `<style>…</style>` elements. One with no closing
 * tag after it is left; so is every later one of its kind, which nothing closes either.
 */
function withoutScripts(html: string): string {
  if (!/<(?:script|style)\b/i.test(html)) return html;
  const unclosed = new Set<string>();
  let out = '';
  let from = 0;
  SCRIPT_OR_STYLE.lastIndex = 0;
  for (let m; (m = SCRIPT_OR_STYLE.exec(html)); ) {
    const kind = m[1]!.toLowerCase();
    if (unclosed.has(kind)) continue;
    const closing = kind === 'script' ? SCRIPT_CLOSE : STYLE_CLOSE;
    closing.lastIndex = m.index;
    const close = closing.exec(html);
    if (!close) {
      unclosed.add(kind);
      continue;
    }
    out += html.slice(from, m.index) + ' ';
    from = close.index + close[0].length;
    SCRIPT_OR_STYLE.lastIndex = from;
  }
  return out + html.slice(from);
}

/** The kind of the block a top-level token opens. */
function kindOf(type: string): BlockKind | null {
  switch (type) {
    case 'paragraph_open':
      return 'prose';
    case 'bullet_list_open':
    case 'ordered_list_open':
      return 'list';
    case 'blockquote_open':
      return 'quote';
    case 'callout_open':
      return 'callout';
    case 'heading_open':
      return 'heading';
    case 'table_open':
      return 'table';
    case 'footnote_block_open':
      return 'footnote';
    default:
      return null;
  }
}

/**
 * The note's blocks in order, each a top-level element of the article. Embedded notes
 * are not part of the note's own text.
 */
export function plainBlocks(tokens: Token[]): PlainBlock[] {
  return [...plainBlocksOf(tokens)];
}

/** The same, one block at a time (an excerpt usually needs only the first). */
export function* plainBlocksOf(tokens: Token[]): Generator<PlainBlock> {
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.level !== 0) continue;
    if (t.type === 'fence' || t.type === 'code_block') {
      if (t.content.trim()) yield { kind: 'code', text: t.content.replace(/\n$/, '') };
      continue;
    }
    if (t.type === 'math_block' || t.type === 'math_inline_block') {
      yield { kind: 'math', text: t.content.trim() };
      continue;
    }
    if (t.type === 'html_block') {
      const text = htmlText(t.content).replace(/[ \t]+/g, ' ').trim();
      if (text) yield { kind: 'html', text };
      continue;
    }
    const kind = kindOf(t.type);
    if (!kind) continue;
    // The block runs to its closing token at the same level.
    let end = i + 1;
    let depth = 1;
    for (; end < tokens.length && depth > 0; end++) depth += tokens[end]!.nesting;
    let text = '';
    let raw = '';
    for (let j = i + 1; j < end; j++) {
      const inner = tokens[j]!;
      if (inner.type === 'inline' || inner.type === 'callout_title') {
        text += (text ? '\n' : '') + inlineText(inner.children);
        raw += (raw ? '\n' : '') + inner.content;
      } else if (inner.type === 'fence' || inner.type === 'code_block' || inner.type === 'math_block') {
        text += (text ? '\n' : '') + inner.content.replace(/\n$/, '');
      }
    }
    text = text.trim();
    if (text) yield { kind, text, raw };
    i = end - 1;
  }
}

/** All of a note's public text, blocks separated by blank lines (for a search index). */
export function blocksText(blocks: PlainBlock[]): string {
  return blocks.map((b) => b.text).join('\n\n');
}

const WORD_START = /[\p{L}\p{N}]/u;

/** Counts words (runs of text with a letter or digit) in text fed piece by piece. */
class WordCounter {
  words = 0;
  private inWord = false;
  private counted = false;

  feed(text: string): void {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 10 || c === 9 || c === 13 || c === 0xa0) {
        this.inWord = false;
        continue;
      }
      // Chinese and Japanese, written without spaces: each character a word, as Obsidian counts them.
      if (c >= 0x3005 && isUnspaced(c)) {
        this.words++;
        this.inWord = false;
        continue;
      }
      if (!this.inWord) {
        this.inWord = true;
        this.counted = false;
      }
      if (!this.counted && (c >= 0x80 ? WORD_START.test(text[i]!) : (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) {
        this.words++;
        this.counted = true;
      }
    }
  }

  /** A word ends here (a line or block boundary). */
  gap(): void {
    this.inWord = false;
  }
}

/** Words for the word count and reading time: code blocks and math aside. */
export function countWordsIn(blocks: Iterable<PlainBlock>): number {
  const counter = new WordCounter();
  for (const block of blocks) {
    if (block.kind === 'code' || block.kind === 'math') continue;
    counter.feed(block.text);
    counter.gap();
  }
  return counter.words;
}

/** The same count made straight from the tokens (no block text is built). */
export function countTokenWords(tokens: Token[]): number {
  const counter = new WordCounter();
  for (const t of tokens) {
    if (t.type === 'inline' || t.type === 'callout_title') {
      let hidden = 0;
      for (const c of t.children ?? []) {
        if (c.type === 'html_inline') hidden = Math.max(0, hidden + hiddenStep(c.content));
        if (hidden > 0) continue;
        if (c.type === 'softbreak' || c.type === 'hardbreak' || (c.type === 'html_inline' && BREAKING_TAG.test(c.content))) counter.gap();
        else if (c.type === 'wikilink') counter.feed(wikiText(c.meta as WikiMeta));
        else if (c.type === 'math_inline') counter.feed(texText(c.content));
        else if (c.type === 'text' || c.type === 'code_inline' || c.type === 'obsidian_tag') counter.feed(c.content);
      }
      counter.gap();
    } else if (t.type === 'html_block' && t.level === 0) {
      counter.feed(htmlText(t.content));
      counter.gap();
    }
  }
  return counter.words;
}
