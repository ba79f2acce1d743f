// Callouts: `> [!type] Title` (Obsidian's types and aliases, any other type styled as
// `note`), `> [!type]- Title` folded and `> [!type]+ Title` open as <details>, a title
// with inline Markdown and links, nested callouts nesting. The markup is Obsidian's own
// (`callout`, `callout-title`, `callout-content`, `data-callout`), so a vault's
// publish.css written for Obsidian styles it too.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { escapeHtml } from '../escape.ts';

// Any type (`[!Combat Quick Reference]-` folds, as in Obsidian), its metadata after `|`.
const MARKER = /^\[!([^\]|\n]+)(?:\|([^\]]*))?\]([+-]?)[ \t]*/u;

/** Obsidian's callout types, each with its aliases: the type names the colour and icon. */
export const CALLOUT_TYPES: Record<string, string[]> = {
  note: [],
  abstract: ['summary', 'tldr'],
  info: [],
  todo: [],
  tip: ['hint', 'important'],
  success: ['check', 'done'],
  question: ['help', 'faq'],
  warning: ['caution', 'attention'],
  failure: ['fail', 'missing'],
  danger: ['error'],
  bug: [],
  example: [],
  quote: ['cite'],
};

const CANONICAL = new Map<string, string>();
for (const [type, aliases] of Object.entries(CALLOUT_TYPES)) for (const name of [type, ...aliases]) CANONICAL.set(name, type);

/** The type a callout is styled as (unknown types look like `note`). */
export function calloutKind(type: string): string {
  return CANONICAL.get(type.toLowerCase()) ?? 'note';
}

interface CalloutMeta {
  type: string;
  fold: '' | '+' | '-';
  metadata: string;
}

function closerOf(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.type === 'blockquote_open') depth++;
    else if (t.type === 'blockquote_close' && --depth === 0) return i;
  }
  return -1;
}

const isBreak = (t: Token) => t.type === 'softbreak' || t.type === 'hardbreak';

/** A heading made by the line under its text (`-` or `=`), not by `#`s. */
const isSetext = (t: Token | undefined): boolean => t?.type === 'heading_open' && (t.markup === '-' || t.markup === '=') && t.map !== null;

/**
 * `> [!note] Title` over `> -` or `> ---` was read as a heading of the title line (the line
 * under it its setext underline), and the callout's syntax reached the page. Obsidian reads the
 * title line first, then the lines under it: an empty list item, a rule, a line of `=`. Under a
 * title alone, what the underline is follows the title; under more lines, they stay its heading.
 */
function underline(state: StateCore, at: number): void {
  const heading = state.tokens[at]!;
  if (state.tokens[at + 1]!.content.includes('\n')) return;
  const line = state.src.split('\n')[heading.map![1] - 1]?.replace(/^[\s>]*/, '').trim() ?? '';
  const block = (type: string, tag: string, nesting: 1 | 0 | -1) => Object.assign(new state.Token(type, tag, nesting), { block: true, level: heading.level });
  let under: Token[];
  if (heading.markup === '=') {
    const text = Object.assign(new state.Token('inline', '', 0), { content: line, children: [Object.assign(new state.Token('text', '', 0), { content: line })] });
    under = [block('paragraph_open', 'p', 1), text, block('paragraph_close', 'p', -1)];
  } else if (line === '-') {
    under = [block('bullet_list_open', 'ul', 1), block('list_item_open', 'li', 1), block('list_item_close', 'li', -1), block('bullet_list_close', 'ul', -1)];
  } else under = [Object.assign(block('hr', 'hr', 0), { markup: line })];
  state.tokens.splice(at + 3, 0, ...under);
}

function callouts(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    const setext = isSetext(tokens[i + 1]);
    if (open.type !== 'blockquote_open' || (tokens[i + 1]?.type !== 'paragraph_open' && !setext)) continue;
    const inline = tokens[i + 2]!;
    const first = inline.children?.[0];
    if (inline.type !== 'inline' || first?.type !== 'text') continue;
    const m = MARKER.exec(first.content);
    if (!m) continue;
    if (setext) underline(state, i + 1);
    const close = closerOf(tokens, i);
    if (close < 0) continue;
    // A type with spaces reads as one word: `combat-quick-reference`.
    const meta: CalloutMeta = { type: m[1]!.trim().toLowerCase().replace(/\s+/g, '-'), fold: m[3] as CalloutMeta['fold'], metadata: (m[2] ?? '').trim() };
    // The first line is the title; what follows it stays the callout's first paragraph.
    const children = inline.children!;
    const cut = children.findIndex(isBreak);
    const titleChildren = cut < 0 ? children : children.slice(0, cut);
    const rest = cut < 0 ? [] : children.slice(cut + 1);
    first.content = first.content.slice(m[0].length);
    const title = new state.Token('callout_title', '', 0);
    title.children = titleChildren.filter((t) => !(t.type === 'text' && t.content === ''));
    title.meta = meta;
    title.content = inline.content.split('\n')[0]!.replace(MARKER, '');
    open.type = 'callout_open';
    open.meta = meta;
    tokens[close]!.type = 'callout_close';
    tokens[close]!.meta = meta;
    const contentLines = inline.content.split('\n').slice(1).join('\n');
    if (rest.length) {
      inline.children = rest;
      inline.content = contentLines;
      tokens.splice(i + 1, 0, title);
    } else {
      // Nothing under the title on its line's paragraph: that paragraph goes.
      tokens.splice(i + 1, 3, title);
    }
  }
}

function renderOpen(meta: CalloutMeta, attrs: [string, string][] | null): string {
  const tag = meta.fold ? 'details' : 'div';
  const id = attrs?.find(([k]) => k === 'id')?.[1];
  return (
    `<${tag} class="callout s-callout" data-callout="${escapeHtml(meta.type)}"` +
    (meta.metadata ? ` data-callout-metadata="${escapeHtml(meta.metadata)}"` : '') +
    (meta.fold ? ` data-callout-fold="${meta.fold}"` : '') +
    (id ? ` id="${escapeHtml(id)}"` : '') +
    (meta.fold === '+' ? ' open' : '') +
    '>\n'
  );
}

export function calloutsPlugin(md: MarkdownIt): void {
  md.core.ruler.push('obsidian_callouts', callouts);
  md.renderer.rules.callout_open = (tokens, idx) => renderOpen(tokens[idx]!.meta, tokens[idx]!.attrs);
  md.renderer.rules.callout_title = (tokens, idx, opts, env, self) => {
    const token = tokens[idx]!;
    const meta = token.meta as CalloutMeta;
    const tag = meta.fold ? 'summary' : 'div';
    let inner = self.renderInline(token.children ?? [], opts, env).trim();
    if (inner === '') inner = escapeHtml(meta.type.charAt(0).toUpperCase() + meta.type.slice(1));
    return (
      `<${tag} class="callout-title s-callout-title"><span class="callout-icon" aria-hidden="true"></span>` +
      `<span class="callout-title-inner"${token.attrGet('dir') ? ` dir="${token.attrGet('dir')}"` : ''}>${inner}</span></${tag}>\n<div class="callout-content">\n`
    );
  };
  md.renderer.rules.callout_close = (tokens, idx) => `</div>\n</${(tokens[idx]!.meta as CalloutMeta).fold ? 'details' : 'div'}>\n`;
}
