// Note bodies as the article renders them: markdown-it with Obsidian's habits
// (single newlines break, [[wikilinks]], ![[embeds]], private %% comments %%,
// > [!callouts]). Links to notes a visitor cannot see render as plain text.
// One renderer for the public article and the admin app's revision view
// (Appendix B: a revision "renders exactly as a note renders elsewhere").
import MarkdownIt from 'markdown-it';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import { stripComments } from './excerpt.ts';
import { sanitizeNoteHtml } from './sanitize.ts';

export interface RenderLinks {
  /** A visible note's wire address (percent-encoded) for a link target, or null. */
  note(target: string): { href: string; title: string } | null;
  /** A published attachment's wire address for an embed or image target, or null. */
  attachment(target: string): string | null;
}

interface Env {
  links: RenderLinks;
  /** Set when the author wrote raw HTML: the output then goes through the sanitiser. */
  rawHtml?: boolean;
}

const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg|bmp)$/i;
const AUDIO = /\.(mp3|ogg|wav|m4a|flac)$/i;
const VIDEO = /\.(mp4|webm|mov)$/i;

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

export function headingId(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s+/g, '-')
    .replace(/-+/g, '-');
}

function wikilinkRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  let pos = state.pos;
  const embed = src.charCodeAt(pos) === 0x21; /* ! */
  if (embed) pos++;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
  const end = src.indexOf(']]', pos + 2);
  if (end < 0) return false;
  const inner = src.slice(pos + 2, end);
  if (inner.includes('[') || inner.includes('\n') || inner.trim() === '') return false;
  if (!silent) {
    const pipe = inner.indexOf('|');
    const ref = pipe >= 0 ? inner.slice(0, pipe) : inner;
    const alias = pipe >= 0 ? inner.slice(pipe + 1).trim() : null;
    const hash = ref.indexOf('#');
    const target = (hash >= 0 ? ref.slice(0, hash) : ref).trim();
    const heading = hash >= 0 ? ref.slice(hash + 1).trim() : null;
    const token = state.push('wikilink', '', 0);
    token.meta = { embed, target, heading, alias };
  }
  state.pos = end + 2;
  return true;
}

function renderWikilink(meta: { embed: boolean; target: string; heading: string | null; alias: string | null }, env: Env): string {
  const { embed, target, heading, alias } = meta;
  if (embed && /\.[a-z0-9]{2,5}$/i.test(target) && !/\.(md|markdown)$/i.test(target)) {
    const src = env.links.attachment(target);
    if (!src) return '';
    const size = alias && /^\d+(x\d+)?$/.test(alias) ? alias.split('x') : null;
    const dims = size ? ` width="${size[0]}"${size[1] ? ` height="${size[1]}"` : ''}` : '';
    const label = escapeHtml(alias && !size ? alias : target.replace(/^.*\//, ''));
    if (IMAGE.test(target)) return `<img src="${escapeHtml(src)}" alt="${label}" loading="lazy"${dims}>`;
    if (AUDIO.test(target)) return `<audio controls src="${escapeHtml(src)}"></audio>`;
    if (VIDEO.test(target)) return `<video controls src="${escapeHtml(src)}"${dims}></video>`;
    return `<a class="s-attachment" href="${escapeHtml(src)}">${label}</a>`;
  }
  const note = target === '' ? null : env.links.note(target);
  const text = escapeHtml(alias ?? (heading && target === '' ? heading : target.replace(/^.*\//, '') + (heading ? ` › ${heading}` : '')));
  const anchor = heading ? `#${encodeURIComponent(headingId(heading))}` : '';
  if (target === '' && heading) return `<a class="s-wikilink" href="${anchor}">${text}</a>`;
  if (!note) return `<span class="s-wikilink s-unresolved">${text}</span>`;
  return `<a class="s-wikilink" href="${escapeHtml(note.href)}${anchor}">${text}</a>`;
}

/** Heading ids, so `[[Note#Heading]]` lands on its heading. */
function headingIds(state: StateCore): void {
  const seen = new Map<string, number>();
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.type !== 'heading_open') continue;
    const inline = tokens[i + 1];
    const base = headingId(inline?.content ?? '') || 'section';
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    tokens[i]!.attrSet('id', n === 0 ? base : `${base}-${n}`);
  }
}

/** `> [!note] Title` blockquotes become callouts. */
function callouts(state: StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.type !== 'blockquote_open') continue;
    const inline = tokens[i + 2];
    if (!inline || inline.type !== 'inline') continue;
    const m = /^\[!([\w-]+)\][+-]?[ \t]*([^\n]*)/.exec(inline.content);
    if (!m) continue;
    const kind = m[1]!.toLowerCase();
    tokens[i]!.attrJoin('class', `s-callout s-callout-${kind}`);
    const title = m[2]!.trim() || kind.charAt(0).toUpperCase() + kind.slice(1);
    const first = inline.children?.[0];
    if (first && first.type === 'text') {
      // Replace the marker line with a title; the rest of the paragraph stays.
      const rest = inline.children!.slice(1);
      const breakAt = rest.findIndex((t) => t.type === 'softbreak' || t.type === 'hardbreak');
      const titleToken = new state.Token('html_inline', '', 0);
      titleToken.content = `<strong class="s-callout-title">${escapeHtml(title)}</strong>`;
      inline.children = breakAt >= 0 ? [titleToken, ...rest.slice(breakAt)] : [titleToken];
    }
  }
}

/**
 * Notes the author's raw HTML, right after inline parsing (before our own rules add
 * html tokens of their own). Without it the output is all ours, escaped as we write it,
 * and skips the sanitiser, which costs about three renders.
 */
function rawHtmlSeen(state: StateCore): void {
  const seen = state.tokens.some((t) => t.type === 'html_block' || (t.type === 'inline' && t.children?.some((c) => c.type === 'html_inline')));
  if (seen) (state.env as Env).rawHtml = true;
}

function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: true, linkify: true, breaks: true, typographer: false });
  md.core.ruler.after('inline', 'raw_html_seen', rawHtmlSeen);
  md.inline.ruler.before('link', 'wikilink', wikilinkRule);
  md.core.ruler.push('heading_ids', headingIds);
  md.core.ruler.push('callouts', callouts);
  md.renderer.rules.wikilink = (tokens, idx, _opts, env: Env) => renderWikilink(tokens[idx]!.meta, env);
  const defaultImage = md.renderer.rules.image!;
  md.renderer.rules.image = (tokens, idx, opts, env: Env, self) => {
    const token = tokens[idx]!;
    const src = token.attrGet('src') ?? '';
    if (!/^[a-z][a-z0-9+.-]*:|^\/\//i.test(src)) {
      const resolved = env.links.attachment(safeDecode(src));
      if (!resolved) return '';
      token.attrSet('src', resolved);
    }
    token.attrSet('loading', 'lazy');
    return defaultImage(tokens, idx, opts, env, self);
  };
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, opts, _env, self) => self.renderToken(tokens, idx, opts));
  md.renderer.rules.link_open = (tokens, idx, opts, env: Env, self) => {
    const token = tokens[idx]!;
    const href = token.attrGet('href') ?? '';
    if (/^[a-z][a-z0-9+.-]*:|^\/\//i.test(href)) {
      if (/^https?:/i.test(href)) token.attrSet('rel', 'noopener');
    } else if (href !== '' && !href.startsWith('#') && !href.startsWith('/')) {
      const [pathPart, hash] = safeDecode(href).split('#') as [string, string | undefined];
      const anchor = hash ? `#${encodeURIComponent(headingId(hash))}` : '';
      const note = /\.(md|markdown)$/i.test(pathPart) ? env.links.note(pathPart) : null;
      const file = note ? null : env.links.attachment(pathPart);
      token.attrSet('href', note ? note.href + anchor : file ?? '#');
    }
    return defaultLinkOpen(tokens, idx, opts, env, self);
  };
  return md;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

let shared: MarkdownIt | null = null;

/**
 * The article body's HTML. A leading `# heading` that repeats the title is left
 * out: the article page shows the title already.
 */
export function renderNoteHtml(body: string, title: string, links: RenderLinks, isTex = false): string {
  shared ??= createMarkdown();
  if (isTex) return `<pre class="s-tex">${escapeHtml(stripComments(body))}</pre>`;
  let text = stripComments(body);
  const lead = /^\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|$)/.exec(text);
  if (lead && lead[1]!.trim().toLowerCase() === title.trim().toLowerCase()) text = text.slice(lead[0].length);
  const env: Env = { links };
  const html = shared.render(text, env);
  // CONTRACT §7: raw HTML is passed through the sanitiser, so a published note runs nothing.
  return env.rawHtml ? sanitizeNoteHtml(html) : html;
}

export { escapeHtml };
