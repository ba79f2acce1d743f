// Obsidian's links and embeds: [[Note]], [[Note|alias]], [[Note#A#B]], [[Note#^id]],
// [[file.pdf|label]] (a link to the file), ![[image.png|300x200]] (sized), and
// ![[Note]] / ![[Note#Heading]] / ![[Note#^id]] (the note, section or block in place).
// A link to a note a visitor cannot see is plain text; an embed of one is nothing.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import type StateInline from 'markdown-it/lib/rules_inline/state_inline.mjs';
import type Token from 'markdown-it/lib/token.mjs';
import { blockRef, isAttachmentTarget, isDrawingTarget, leavesBracketOpen, linkShownText, mayNameFile, parseWikiRef, type WikiRef } from '../../wikilinks.ts';
import { embedBudgetLeft, spendEmbedHtml } from '../embed-budget.ts';
import type { EmbedRef, NoteEnv } from '../env.ts';
import { escapeHtml } from '../escape.ts';
import { imageTagHtml } from '../picture.ts';
import { slotOrHtml } from '../slots.ts';
import { headingAnchor } from './headings.ts';

const IMAGE = /\.(png|jpe?g|gif|webp|avif|svg|bmp)$/i;
/** An image a page shows by its name (what `![[…]]` renders as <img>). */
export const isImageName = (name: string) => IMAGE.test(name);
const AUDIO = /\.(mp3|ogg|wav|m4a|flac|webm)$/i;
const VIDEO = /\.(mp4|webm|mov|ogv|mkv)$/i;
const PDF = /\.pdf$/i;

/** What a link to nothing a visitor may see opens with: a missing and an unpublished note read alike (a Markdown link's too, slots.ts). */
export const UNRESOLVED_OPEN = '<span class="s-wikilink s-unresolved">';

export interface WikiMeta extends EmbedRef {
  embed: boolean;
}

/** The last search for `]]` in a text: from `from`, the first one at `end` (-1: none). */
interface CloseSearch {
  from: number;
  end: number;
}
const lastClose = new WeakMap<StateInline, CloseSearch>();

/**
 * The first `]]` at or after `from` in the state's text. Every start up to the `]]` the
 * last search found (or any start at all, when it found none) has the same answer, so a
 * paragraph is scanned once however many `[[` it holds (1.6 MB of `[[a ` took 8.5 s).
 */
function closeAfter(state: StateInline, from: number): number {
  const last = lastClose.get(state);
  if (last && from >= last.from && (last.end < 0 || from <= last.end)) return last.end;
  const end = state.src.indexOf(']]', from);
  lastClose.set(state, { from, end });
  return end;
}

function wikilinkRule(state: StateInline, silent: boolean): boolean {
  const src = state.src;
  let pos = state.pos;
  const embed = src.charCodeAt(pos) === 0x21; /* ! */
  if (embed) pos++;
  if (src.charCodeAt(pos) !== 0x5b || src.charCodeAt(pos + 1) !== 0x5b) return false;
  let end = closeAfter(state, pos + 2);
  if (end < 0 || end > state.posMax) return false;
  let inner = src.slice(pos + 2, end);
  if (inner.includes('[[') || inner.includes('\n') || inner.trim() === '') return false;
  // Brackets only in the display text, as shared/wikilinks.ts (writtenLinks) reads a link.
  const bar = inner.indexOf('|');
  if (/[[\]]/.test(bar < 0 ? inner : inner.slice(0, bar))) return false;
  if (bar >= 0 && src.charCodeAt(end + 2) === 0x5d /* ] */ && end + 3 <= state.posMax && leavesBracketOpen(inner.slice(bar))) inner = src.slice(pos + 2, ++end);
  const ref = parseWikiRef(inner);
  if (ref.target === '' && ref.subpath.length === 0) return false;
  if (!silent) {
    const token = state.push('wikilink', '', 0);
    token.meta = { ...ref, embed } satisfies WikiMeta;
    token.content = inner;
    // Tells the core rule below there is an embedded note to lift out of its paragraph.
    if (isBlockEmbed(token.meta)) (state.env as LiftEnv).noteEmbeds = true;
  }
  state.pos = end + 2;
  return true;
}

/** `![[Note]]` and `![[Note#…]]`: an embedded note, not a file. */
export function isNoteEmbed(meta: WikiMeta): boolean {
  // `![[#Part]]`: a section of the note itself, as Obsidian shows it (a TTRPG vault's tabbed sheets are made of them).
  if (meta.target === '') return meta.embed && meta.subpath.length > 0;
  return meta.embed && !isAttachmentTarget(meta.target);
}

/** `![[Reading.base]]`, `![[Map.canvas]]`: a base or canvas shown in place. */
export function isDocumentEmbed(meta: WikiMeta): boolean {
  return meta.embed && /\.(base|canvas)$/i.test(meta.target);
}

/** `![[manual.pdf]]`: a PDF shown in the page. */
const isPdfEmbed = (meta: WikiMeta) => meta.embed && PDF.test(meta.target);

/** An embed shown as a block of its own (lifted out of its paragraph): a note's, a base's, a canvas's or a PDF's. */
const isBlockEmbed = (meta: WikiMeta) => isNoteEmbed(meta) || isDocumentEmbed(meta) || isPdfEmbed(meta);

/** The anchor of a heading path or block id, against the target's headings. */
function anchorOf(ref: WikiRef, headings: Parameters<typeof headingAnchor>[0]): string {
  const block = blockRef(ref.subpath);
  if (block !== null) return `#^${encodeURIComponent(block)}`;
  return headingAnchor(headings, ref.subpath);
}

const linkText = (ref: WikiRef): string => ref.alias || linkShownText(ref.target, ref.subpath);

function renderFile(meta: WikiMeta, env: NoteEnv): string {
  if (isDocumentEmbed(meta)) {
    const html = env.links?.document?.(meta.target, meta.subpath);
    if (html) return html;
  }
  const src = env.links?.attachment(meta.target);
  if (!src) return meta.embed ? '' : `${UNRESOLVED_OPEN}${escapeHtml(linkText(meta))}</span>`;
  const size = meta.alias && /^\d+(x\d+)?$/.test(meta.alias) ? meta.alias.split('x') : null;
  const drawing = isDrawingTarget(meta.target);
  // A drawing reads by its name, its picture's format and the plugin's suffix left out.
  const file = meta.target.replace(/^.*\//, '');
  const name = drawing ? file.replace(/\.excalidraw(?:\.md)?$/i, '') : file;
  // A base or canvas is a page: its link reads as a note's, without the extension.
  if (!meta.embed) {
    // `[[paper.pdf#page=7]]` (PDF++ adds `&selection=…`): the browser's viewer opens at that page, as Obsidian's does.
    const page = PDF.test(meta.target) ? pdfPage(meta) : undefined;
    const href = page ? `${src}#page=${page}` : src;
    return `<a class="s-attachment internal-link" href="${escapeHtml(href)}">${escapeHtml(meta.alias ?? name.replace(/\.(base|canvas)$/i, ''))}</a>`;
  }
  const dims = size ? ` width="${size[0]}"${size[1] ? ` height="${size[1]}"` : ''}` : '';
  const label = escapeHtml(meta.alias && !size ? meta.alias : name);
  if (IMAGE.test(meta.target) || (drawing && IMAGE.test(src))) {
    const view = env.links?.image?.(meta.target) ?? { src };
    return imageTagHtml(view, { alt: meta.alias && !size ? meta.alias : name, width: size?.[0], height: size?.[1] }, env.frame);
  }
  if (VIDEO.test(meta.target)) return `<video controls src="${escapeHtml(src)}"${dims}></video>`;
  if (AUDIO.test(meta.target)) return `<audio controls src="${escapeHtml(src)}"></audio>`;
  if (PDF.test(meta.target)) return pdfHtml(src, meta, label);
  return `<a class="s-attachment internal-link" href="${escapeHtml(src)}">${label}</a>`;
}

/** The page a PDF link or embed opens at: `#page=3`, or PDF++'s `#page=3&selection=12,0,14,20&color=yellow`. */
const pdfPage = (meta: WikiMeta) => meta.subpath.map((s) => /^page=(\d{1,6})(?:&|$)/.exec(s)?.[1]).find((n) => n !== undefined);

/**
 * `![[manual.pdf]]` as Obsidian shows it: the browser's own viewer in the page, no script
 * (`#page=3` opens at that page, `#height=400` sets its height in pixels), and a link to the
 * file beside it, what a reader without a viewer (a feed reader, a phone) gets.
 */
function pdfHtml(src: string, meta: WikiMeta, label: string): string {
  const page = pdfPage(meta);
  const height = meta.subpath.map((s) => /^height=(\d{2,4})$/.exec(s)?.[1]).find((n) => n !== undefined);
  const frame = escapeHtml(page ? `${src}#page=${page}` : src);
  const style = height ? ` style="height:${height}px;max-height:none"` : '';
  return (
    `<div class="s-pdf">\n<iframe class="s-pdf-frame" src="${frame}" title="${label}" loading="lazy"${style}></iframe>\n` +
    `<p class="s-pdf-link"><a class="s-attachment internal-link" href="${escapeHtml(src)}" download>${label}</a></p>\n</div>\n`
  );
}

function renderLink(meta: WikiMeta, env: NoteEnv): string {
  const text = escapeHtml(linkText(meta));
  if (meta.target === '') {
    return `<a class="s-wikilink internal-link" href="${escapeHtml(anchorOf(meta, env.headings ?? []))}">${text}</a>`;
  }
  const note = env.links?.note(meta.target);
  if (!note) return `${UNRESOLVED_OPEN}${text}</span>`;
  return `<a class="s-wikilink internal-link" href="${escapeHtml(note.href + anchorOf(meta, note.headings ?? []))}">${text}</a>`;
}

/** An embedded note shown as a link to it: the admin's view, and a page past its embed budget. */
function embedLink(meta: WikiMeta, env: NoteEnv): string {
  return `<p class="s-embed-link">${renderLink(meta, env)}</p>\n`;
}

/** An embedded note: in place when the host allows it and the page has room, else a link. */
function renderEmbed(meta: WikiMeta, env: NoteEnv): string {
  const links = env.links;
  if (!links?.embed) return embedLink(meta, env);
  // The page's embeds share one frame (its ids, stack and budget), made here if the caller gave none.
  const frame = (env.frame ??= { ids: new Set<string>(), stack: [], count: 0 });
  // Past the page's budget, a link: what holds it depends on the page (embeds left out count as cut, markdown.ts).
  if (!embedBudgetLeft(frame)) {
    frame.cut = (frame.cut ?? 0) + 1;
    return embedLink(meta, env);
  }
  const html = links.embed(meta, frame) ?? '';
  spendEmbedHtml(frame, html);
  return html;
}

/**
 * Embedded notes are blocks: a paragraph holding `![[Note]]` is split around it, so the
 * embedded content never sits inside a `<p>`.
 */
interface LiftEnv {
  noteEmbeds?: boolean;
}

/** An embed written another way (`![](Note.md)`, media.ts) as the token `![[…]]` makes: read, lifted and rendered alike. */
export function embedToken(state: StateCore, ref: WikiRef, content: string): Token {
  const token = new state.Token('wikilink', '', 0);
  token.meta = { ...ref, embed: true } satisfies WikiMeta;
  token.content = content;
  if (isBlockEmbed(token.meta as WikiMeta)) (state.env as LiftEnv).noteEmbeds = true;
  return token;
}

export function liftEmbeds(state: StateCore): void {
  if (!(state.env as LiftEnv).noteEmbeds) return;
  const tokens = state.tokens;
  const out: Token[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i]!;
    const inline = tokens[i + 1];
    const close = tokens[i + 2];
    if (
      open.type !== 'paragraph_open' ||
      inline?.type !== 'inline' ||
      close?.type !== 'paragraph_close' ||
      !inline.children?.some((c) => c.type === 'wikilink' && isBlockEmbed(c.meta))
    ) {
      out.push(open);
      continue;
    }
    let run: Token[] = [];
    const flush = () => {
      while (run.length && (run[0]!.type === 'softbreak' || run[0]!.type === 'hardbreak' || (run[0]!.type === 'text' && run[0]!.content.trim() === ''))) run.shift();
      while (run.length && (run.at(-1)!.type === 'softbreak' || run.at(-1)!.type === 'hardbreak' || (run.at(-1)!.type === 'text' && run.at(-1)!.content.trim() === '')))
        run.pop();
      if (run.length) {
        // The words around the embed lose the space that stood next to it.
        if (run[0]!.type === 'text') run[0]!.content = run[0]!.content.trimStart();
        if (run.at(-1)!.type === 'text') run.at(-1)!.content = run.at(-1)!.content.trimEnd();
        const p = new state.Token('paragraph_open', 'p', 1);
        Object.assign(p, { block: true, hidden: open.hidden, level: open.level, map: open.map });
        const body = new state.Token('inline', '', 0);
        Object.assign(body, { children: run, content: run.map((t) => t.content).join(''), level: inline.level, map: inline.map });
        const c = new state.Token('paragraph_close', 'p', -1);
        Object.assign(c, { block: true, hidden: close.hidden, level: close.level });
        out.push(p, body, c);
      }
      run = [];
    };
    for (const child of inline.children!) {
      if (child.type === 'wikilink' && isBlockEmbed(child.meta)) {
        flush();
        const block = new state.Token('obsidian_embed', 'div', 0);
        Object.assign(block, { block: true, meta: child.meta, level: open.level, map: open.map });
        out.push(block);
      } else run.push(child);
    }
    flush();
    // The last piece keeps the paragraph's attributes (a block id); an embed ending it, in a block
    // that holds them (`![[Note#Part]] ^id`: a link to ^id led nowhere).
    const last = out.at(-1);
    if (open.attrs && last?.type === 'paragraph_close') out[out.length - 3]!.attrs = open.attrs;
    else if (open.attrs && last?.type === 'obsidian_embed') {
      const holder = Object.assign(new state.Token('embed_block_open', 'div', 1), { block: true, attrs: open.attrs, level: open.level });
      out.splice(out.length - 1, 0, holder);
      out.push(Object.assign(new state.Token('embed_block_close', 'div', -1), { block: true, level: open.level }));
    }
    i += 2;
  }
  state.tokens = out;
  markEmbedLines(out);
}

/** Each embed learns the line it is written on (its block's first): whether a section or block shown holds it (markdown.ts). */
function markEmbedLines(tokens: Token[]): void {
  let line = -1;
  for (const t of tokens) {
    if (t.map) line = t.map[0];
    if (t.type === 'obsidian_embed') (t.meta as WikiMeta).line = line;
    else if (t.type === 'inline') {
      for (const c of t.children ?? []) if (c.type === 'wikilink' && isBlockEmbed(c.meta as WikiMeta)) (c.meta as WikiMeta).line = line;
    }
  }
}

/** The HTML of a wikilink or embed for a page (`env.links` answers for the vault). */
export function wikiHtml(meta: WikiMeta, env: NoteEnv): string {
  if (meta.target !== '' && isAttachmentTarget(meta.target)) return renderFile(meta, env);
  // `[[Node.js]]` is the note when one answers, else a file of that name (shared/wikilinks.ts).
  if (mayNameFile(meta.target) && !env.links?.note(meta.target)) return renderFile(meta, env);
  if (isNoteEmbed(meta)) return renderEmbed(meta, env);
  return renderLink(meta, env);
}

export function wikilinksPlugin(md: MarkdownIt): void {
  md.inline.ruler.before('link', 'wikilink', wikilinkRule);
  // A link inside the note itself (`[[#Heading]]`) depends on nothing else: no hole.
  const rule = (meta: WikiMeta, env: NoteEnv) => (meta.target === '' && !meta.embed ? renderLink(meta, env) : slotOrHtml(env, { kind: 'wiki', meta }));
  md.renderer.rules.wikilink = (tokens, idx, _opts, env: NoteEnv) => rule(tokens[idx]!.meta as WikiMeta, env);
  md.renderer.rules.obsidian_embed = (tokens, idx, _opts, env: NoteEnv) => rule(tokens[idx]!.meta as WikiMeta, env);
}
