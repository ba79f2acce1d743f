// Renders a note the way its article renders (Appendix B: a revision "renders
// exactly as a note renders elsewhere"): the same markdown-it options and rules as
// the public article (site/build/markdown.ts: single newlines break, [[wikilinks]],
// ![[embeds]], %% comments %%, > [!callouts], heading ids, a leading `# Title`
// dropped), the same title and language rules from shared/note. site/ and admin/
// never import each other, so the rules are mirrored here; moving the renderer to
// shared/ would let both import one module. Loaded on demand; the HTML is shown in
// a sandboxed frame.
import MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import { stripComments } from '../../../../shared/note/excerpt.ts';
import { titleOf } from '../../../../shared/note/fields.ts';
import { directionOf, noteLanguage } from '../../../../shared/note/language.ts';
import { readKey } from '../tree/frontmatter.ts';

export interface Links {
  /** The admin's address for a note target, or null when no such note. */
  note(target: string): string | null;
  /** A URL for an attachment target, or null. */
  attachment(target: string): string | null;
}

interface Env {
  links: Links;
}

const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg|bmp)$/i;
const AUDIO = /\.(mp3|ogg|wav|m4a|flac)$/i;
const VIDEO = /\.(mp4|webm|mov)$/i;

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** CONTRACT §6: `Folder/My Note.md` → `/Folder/My-Note`. */
export function noteAddress(path: string): string {
  const bare = path.replace(/\.(md|markdown|tex)$/i, '').replace(/ /g, '-');
  return '/' + bare.split('/').map(encodeURIComponent).join('/');
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
  const embed = src.charCodeAt(pos) === 0x21;
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
    const token = state.push('wikilink', '', 0);
    token.meta = {
      embed,
      target: (hash >= 0 ? ref.slice(0, hash) : ref).trim(),
      heading: hash >= 0 ? ref.slice(hash + 1).trim() : null,
      alias,
    };
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
  const href = target === '' ? null : env.links.note(target);
  const text = escapeHtml(alias ?? (heading && target === '' ? heading : target.replace(/^.*\//, '') + (heading ? ` › ${heading}` : '')));
  const anchor = heading ? `#${encodeURIComponent(headingId(heading))}` : '';
  if (target === '' && heading) return `<a class="s-wikilink" href="${anchor}">${text}</a>`;
  if (!href) return `<span class="s-wikilink s-unresolved">${text}</span>`;
  return `<a class="s-wikilink" href="${escapeHtml(href)}${anchor}">${text}</a>`;
}

function headingIds(state: StateCore): void {
  const seen = new Map<string, number>();
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i]!.type !== 'heading_open') continue;
    const base = headingId(tokens[i + 1]?.content ?? '') || 'section';
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    tokens[i]!.attrSet('id', n === 0 ? base : `${base}-${n}`);
  }
}

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
      const rest = inline.children!.slice(1);
      const breakAt = rest.findIndex((t) => t.type === 'softbreak' || t.type === 'hardbreak');
      const titleToken = new state.Token('html_inline', '', 0);
      titleToken.content = `<strong class="s-callout-title">${escapeHtml(title)}</strong>`;
      inline.children = breakAt >= 0 ? [titleToken, ...rest.slice(breakAt)] : [titleToken];
    }
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function createMarkdown(): MarkdownIt {
  const md = new MarkdownIt({ html: true, linkify: true, breaks: true, typographer: false });
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
      token.attrSet('href', note ? note + anchor : (file ?? '#'));
    }
    return defaultLinkOpen(tokens, idx, opts, env, self);
  };
  return md;
}

let md: MarkdownIt | null = null;

function splitFrontmatter(text: string): string {
  const m = text.match(/^---\r?\n[\s\S]*?\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/);
  return m ? text.slice(m[0].length) : text;
}

export interface Rendered {
  title: string;
  html: string;
  dir: 'rtl' | 'ltr';
  lang: string;
}

export function renderNote(path: string, text: string, links: Links): Rendered {
  md ??= createMarkdown();
  const body = splitFrontmatter(text);
  const data: Record<string, unknown> = {};
  for (const key of ['title', 'lang', 'language']) {
    const v = readKey(text, key);
    if (typeof v === 'string') data[key] = v;
  }
  const fileName = path.slice(path.lastIndexOf('/') + 1);
  const title = titleOf(data, body, fileName);
  const lang = noteLanguage(data, title, body);
  if (/\.tex$/i.test(path)) return { title, html: `<pre class="s-tex">${escapeHtml(stripComments(body))}</pre>`, dir: directionOf(lang), lang };
  let source = stripComments(body);
  const lead = /^\s*#[ \t]+(.+?)[ \t#]*(?:\r?\n|$)/.exec(source);
  if (lead && lead[1]!.trim().toLowerCase() === title.trim().toLowerCase()) source = source.slice(lead[0].length);
  return { title, html: md.render(source, { links } satisfies Env), dir: directionOf(lang), lang };
}

/** A full document for a sandboxed iframe: the article plus a reading stylesheet. */
export function articleDocument(r: Rendered, dark: boolean): string {
  const fg = dark ? '#e6e3dc' : '#1f1d1a';
  const bg = dark ? '#1b1a18' : '#fffdf8';
  const accent = dark ? '#e0b95b' : '#8a5a00';
  const code = dark ? '#2a2825' : '#f3efe6';
  return `<!doctype html><html lang="${escapeHtml(r.lang)}" dir="${r.dir}"><head><meta charset="utf-8"><base target="_blank"><style>
:root{color-scheme:${dark ? 'dark' : 'light'}}
body{font:17px/1.65 Georgia,'Noto Naskh Arabic',serif;max-width:42rem;margin:1.5rem auto;padding:0 1.25rem;color:${fg};background:${bg}}
h1,h2,h3{font-family:system-ui,sans-serif;line-height:1.25}a{color:${accent}}.s-unresolved{opacity:.7}
img,video{max-width:100%}pre{overflow:auto;padding:.75rem;background:${code}}code{font-size:.9em}
blockquote{margin-inline:0;padding-inline-start:1rem;border-inline-start:3px solid #c9a64a}
.s-callout{background:${code};padding:.5rem 1rem;border-radius:6px}.s-callout-title{display:block}
table{border-collapse:collapse}td,th{border:1px solid #8884;padding:.25rem .5rem}
</style></head><body><article class="s-article"><h1 class="s-title">${escapeHtml(r.title)}</h1><div class="s-body">${r.html}</div></article></body></html>`;
}
