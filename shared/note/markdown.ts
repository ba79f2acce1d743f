// Note bodies as the article renders them: Obsidian's dialect (CONTRACT §7) through
// the one markdown-it instance (md.ts). Private comments go first (comments.ts); links
// to notes a visitor cannot see render as plain text; embeds are rendered in place by
// the host (RenderLinks.embed). One renderer for the public article, its embeds and the
// admin app's revision view (Appendix B: a revision "renders exactly as a note renders
// elsewhere"). Fenced code is coloured by Prism as it is written out (highlight.ts).
import type { default as MarkdownIt, Options as MarkdownOptions } from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { blockRef, type WikiRef } from '../wikilinks.ts';
import { publicMarkdown, publicTex } from './comments.ts';
import type { EmbedFrame, EmbedLevel, EmbedRef, NoteEnv, RenderLinks } from './env.ts';
import { spendEmbed } from './embed-budget.ts';
import { escapeHtml } from './escape.ts';
import { highlightCode } from './highlight.ts';
import type { RenderSpent } from './render-budget.ts';
import { markdown } from './md.ts';
import { findHeading, headingId, sectionRange, uniqueId } from './obsidian/headings.ts';
import { openerOf } from './obsidian/block-ids.ts';
import { wholeWrappers } from './obsidian/html-block-ids.ts';
import { inlineText } from './plain-text.ts';
import { renderBlocks, sanitizeIslands } from './raw-islands.ts';
import { fillEmbedded, fillPrepared, flat, islandMarked, type PreparedHtml, type Slot } from './slots.ts';

export type { EmbedFrame, EmbedRef, NoteLink, RenderLinks } from './env.ts';
export { MAX_EMBEDS_PER_PAGE, MAX_EMBED_HTML, MAX_EMBED_TEXT } from './embed-budget.ts';
export { fillPrepared, type PreparedHtml } from './slots.ts';
export { escapeHtml, headingId };

/** Embeds nest at most this deep (Obsidian stops too); a cycle stops at once (showsItsWay). */
export const MAX_EMBED_DEPTH = 4;

let renderOptions: MarkdownOptions | null = null;

/**
 * The parse's options, and Prism's colours for fenced code: set on rendering only, so what
 * parses notes in the admin's browser bundle (word counts) never loads a highlighter.
 */
function articleOptions(md: MarkdownIt): MarkdownOptions {
  // Made again when the vault's line breaks change (line-breaks.ts).
  if (renderOptions === null || renderOptions.breaks !== md.options.breaks) renderOptions = { ...md.options, highlight: highlightCode };
  return renderOptions;
}

/**
 * A leading `# heading` repeating the title (as shown: `# [[A|B]]` shows `B`): the article
 * page shows the title already, and the title takes the heading's id. The heading's id, or null.
 */
export function titleHeadingId(tokens: Token[], title: string): string | null {
  const open = tokens[0];
  if (open?.type !== 'heading_open' || open.tag !== 'h1' || open.markup !== '#') return null;
  const shown = inlineText(tokens[1]!.children).replace(/\s+/g, ' ').trim();
  return shown.toLowerCase() === title.trim().toLowerCase() ? (open.attrGet('id') ?? '') : null;
}

/**
 * A parsed note rendered once, with holes where the vault decides (slots.ts). `env` is
 * the parse's env; `title` leaves out a leading `# heading` that repeats it.
 */
export function prepareTokens(tokens: Token[], env: NoteEnv, title: string): PreparedHtml {
  const md = markdown();
  const titleId = titleHeadingId(tokens, title);
  const list = titleId !== null ? tokens.slice(3) : tokens;
  const holes: Slot[] = [];
  const renderEnv: NoteEnv = { ...env, holes };
  // An embed of the whole note shows the title heading too: rendered apart, its holes among the note's.
  const lead = titleId !== null ? renderBlocks(md, tokens.slice(0, 3), articleOptions(md), renderEnv) : null;
  const { html, islands } = renderBlocks(md, list, articleOptions(md), renderEnv);
  const idList = idsIn(tokens);
  const ids = new Set(idList);
  // An embed renames or drops what repeats and numbers footnotes per page: such a note is embedded from its text.
  const embedLead = idList.length !== ids.size || tokens.some(numbered) || (lead?.islands.length ?? 0) > 0 ? null : (lead?.html ?? '');
  return { html: flat(islandMarked(html, islands)), slots: holes, rawHtml: islands.length > 0, ids: [...ids], headings: env.headings ?? [], embedLead };
}

/** A note body (frontmatter split off) prepared for its pages. */
export function prepareNoteHtml(body: string, title: string, isTex = false, spent: RenderSpent | null = null): PreparedHtml {
  if (isTex) return { html: `<pre class="s-tex">${escapeHtml(publicTex(body))}</pre>`, slots: [], rawHtml: false, ids: [], headings: [], embedLead: null };
  const env: NoteEnv = spent ? { spent } : {};
  const tokens = markdown().parse(publicMarkdown(body), env);
  return prepareTokens(tokens, env, title);
}

/**
 * The article body's HTML. A leading `# heading` that repeats the title is left
 * out: the article page shows the title already. `key` (its vault path) names the note
 * for the embed stack, so a note embedding itself whole stops at once.
 */
export function renderNoteHtml(body: string, title: string, links: RenderLinks, isTex = false, key?: string): string {
  return fillPrepared(prepareNoteHtml(body, title, isTex), links, key);
}

/** Every id the tokens give an element (headings, block ids), in order, repeats kept. */
function idsIn(tokens: Token[]): string[] {
  const ids: string[] = [];
  for (const t of tokens) {
    const id = t.attrGet('id');
    if (id) ids.push(id);
  }
  return ids;
}

/** A token to change for one page, leaving the parse it came from as it was. */
function withAttrs(t: Token, attrs: [string, string][]): Token {
  return Object.assign(Object.create(Object.getPrototypeOf(t) as object) as Token, t, { attrs });
}

/**
 * Embedded elements keep ids the page has not used: a heading takes a free one, a block id
 * already there is dropped. The tokens changed are copies (the parse serves other pages).
 */
function freeIds(slice: Token[], taken: Set<string>): Token[] {
  return slice.map((t) => {
    const id = t.attrGet('id');
    if (!id) return t;
    if (t.type === 'heading_open') {
      const free = uniqueId(id, taken);
      return free === id ? t : withAttrs(t, t.attrs!.map(([k, v]) => [k, k === 'id' ? free : v]));
    }
    if (taken.has(id)) return withAttrs(t, t.attrs!.filter(([k]) => k !== 'id'));
    taken.add(id);
    return t;
  });
}

interface EmbedParse {
  tokens: Token[];
  /** What parsing left on the env (headings, footnotes), for rendering. */
  env: NoteEnv;
  /** Its embeds rendered so far that read nothing of their page, by renderEmbedHtml's `memo`, target and subpath, with the ids each took. */
  renders: Map<string, { html: string; ids: string[] }>;
}

/** Parses of embedded notes' text, most recently used last: a note embedded on many pages is parsed once. */
const embedParses = new Map<string, EmbedParse>();
const EMBED_PARSES_MAX = 256;
/** Characters of text whose parses are kept (a parse holds about twenty times its text). */
const EMBED_PARSES_TEXT_MAX = 1_000_000;
let embedParsesText = 0;

/** Whether a note's parse at reading is kept for the pass's embeds (keepReadParses). */
let keepingReads = false;

/** Lets go of the kept parses (a pass is over: the memory is the next pass's), and keeps no more reads. */
export function forgetEmbedParses(): void {
  embedParses.clear();
  preparedRenders.clear();
  embedParsesText = 0;
  keepingReads = false;
}

/**
 * Until forgetEmbedParses, a note's parse made as it is read (analyze.ts) is kept for the
 * pages that embed it: an edit's pass reads the edited note and renders the notes embedding
 * it, which parsed its text again: a large index note embedded in a few notes was parsed twice a save.
 */
export function keepReadParses(): void {
  keepingReads = true;
}

/** A parse of a note's public text made as it was read, for the pass's embeds when they are kept. */
export function offerReadParse(body: string, tokens: Token[], env: NoteEnv): void {
  // The embed parses publicMarkdown(body): the read's parse serves when that is the text it parsed.
  if (!keepingReads || body.length > EMBED_PARSES_TEXT_MAX / 4 || embedParses.has(body) || publicMarkdown(body) !== body) return;
  keepParse(body, { tokens, env: { ...env }, renders: new Map() });
}

function keepParse(body: string, parse: EmbedParse): void {
  if (body.length > EMBED_PARSES_TEXT_MAX / 4) return;
  embedParses.set(body, parse);
  embedParsesText += body.length;
  while (embedParses.size > EMBED_PARSES_MAX || embedParsesText > EMBED_PARSES_TEXT_MAX) {
    const oldest = embedParses.keys().next().value!;
    embedParses.delete(oldest);
    embedParsesText -= oldest.length;
  }
}

/** How many parses are kept now (a builder between passes keeps none). */
export const embedParsesKept = (): number => embedParses.size;

/** The parse of an embedded note's public text (a pure function of the text, so the text is the key). */
function embedParse(md: MarkdownIt, body: string): EmbedParse {
  const known = embedParses.get(body);
  if (known) {
    embedParses.delete(body);
    embedParses.set(body, known);
    return known;
  }
  const env: NoteEnv = {};
  const parse = { tokens: md.parse(publicMarkdown(body), env), env, renders: new Map() };
  keepParse(body, parse);
  return parse;
}

/**
 * Where the block `^id` names lies in `tokens` ([start, end)), or null: a list item, quote or
 * callout with what it holds, a code or math block alone, the block an anchor stands before
 * (raw HTML: obsidian/html-block-ids.ts; a heading: obsidian/block-ids.ts) with it.
 */
function blockRange(tokens: Token[], id: string): [number, number] | null {
  const wanted = `^${id}`;
  const at = tokens.findIndex((t) => t.nesting !== -1 && t.block && t.attrGet('id') === wanted);
  if (at < 0) return null;
  // An anchor names the block after it (raw HTML, a heading): the two go together.
  const anchor = tokens[at]!.type === 'obsidian_block_anchor';
  const first = anchor ? at + 1 : at;
  if (!tokens[first] || tokens[first]!.nesting === 0) return [at, first + 1];
  let end = first + 1;
  for (let depth = 1; end < tokens.length && depth > 0; end++) depth += tokens[end]!.nesting;
  return [at, end];
}

/** The tokens of the block at `range`, a list item wrapped in its list. */
function blockTokens(tokens: Token[], [at, end]: [number, number]): Token[] {
  const slice = tokens.slice(at, end);
  if (tokens[at]!.type !== 'list_item_open') return slice;
  // A list item alone is wrapped in its own list (ordered lists keep their number).
  let listOpen = at - 1;
  while (listOpen >= 0 && !(tokens[listOpen]!.nesting === 1 && tokens[listOpen]!.level === tokens[at]!.level - 1)) listOpen--;
  const list = tokens[listOpen];
  if (!list) return slice;
  const closeAt = tokens.findIndex((t, i) => i > at && t.nesting === -1 && t.level === list.level && openerOf(tokens, i) === listOpen);
  return [list, ...slice, tokens[closeAt] ?? list];
}

/** The lines of the note `tokens[start, end)` were parsed from, [first, past the last). */
function linesOf(tokens: Token[], [start, end]: [number, number]): [number, number] {
  let first = Infinity;
  let past = -Infinity;
  for (let i = start; i < end; i++) {
    const map = tokens[i]!.map;
    if (!map) continue;
    first = Math.min(first, map[0]);
    past = Math.max(past, map[1]);
  }
  return [first, past];
}

/**
 * Whether showing `note` (`lines` of it; null: the whole note) on this page would show an embed
 * on the way to it again, the one being rendered (at `line` of the innermost note) included:
 * Obsidian's cycle. A note may show its own other sections and blocks, and a note embedding it.
 */
function showsItsWay(frame: EmbedFrame, note: string, line: number | undefined, lines: [number, number] | null): boolean {
  const { stack } = frame;
  for (let j = 0; j < stack.length; j++) {
    if (stack[j]!.note !== note) continue;
    if (lines === null) return true;
    const at = j + 1 < stack.length ? stack[j + 1]!.line : (line ?? -1);
    // Where the embed stands is not known: as if shown again.
    if (at < 0 || (at >= lines[0] && at < lines[1])) return true;
  }
  return false;
}

const numbered = (t: Token): boolean => t.type.startsWith('footnote') || (t.children?.some((c) => c.type === 'footnote_ref') ?? false);

/** The note an embed shows: its address and title, and its body as rendered when it was read, while the pass holds it. */
export interface EmbedSource {
  /** Its vault path, what the page's embed stack names it by (its target as written when absent). */
  path?: string;
  href: string;
  title: string;
  prepared?: PreparedHtml | null;
}

/** Whole-note embeds made from a note's rendering at reading that read nothing of their page, by that rendering and memo key: as `EmbedParse.renders`, for the pass. */
const preparedRenders = new Map<PreparedHtml, Map<string, string>>();

/**
 * An embedded note (`subpath` empty), section (`A`, `A#B`) or block (`^id`) as HTML
 * inside `frame`, the page it is embedded in; null when the section or block does not
 * exist or the embed would nest too deep. `memo`: what besides the text its HTML reads (the
 * embedded note, how its links render), for a render its other pages can take in this pass.
 */
export function renderEmbedHtml(body: string, ref: EmbedRef, links: RenderLinks, frame: EmbedFrame, source: EmbedSource, memo?: string): string | null {
  // The stack with this embed on it, the page's own note first, is at most MAX_EMBED_DEPTH - 1 deep.
  if (frame.stack.length + 1 >= MAX_EMBED_DEPTH) return cutEmbed(frame);
  const note = source.path ?? ref.target;
  const level: EmbedLevel = { note, line: ref.line ?? -1 };
  // A 3,000-link index note embedded in four notes rendered its links four times a save.
  const renderKey = memo === undefined ? null : `${memo}\u0000${ref.target}\u0000${ref.subpath.join('#')}`;
  if (ref.subpath.length === 0) {
    if (showsItsWay(frame, note, ref.line, null)) return cutEmbed(frame);
    spendEmbed(frame, body);
    // The whole note, as its own page renders it: parsed once, when it was read.
    if (source.prepared) {
      const box = nested(frame, level, () => embedFromReading(source.prepared!, ref, links, frame, source, renderKey));
      if (box !== null) return box;
    }
  }
  const md = markdown();
  const parsed = embedParse(md, body);
  const tokens = parsed.tokens;
  let range: [number, number] | null = [0, tokens.length];
  const block = blockRef(ref.subpath);
  if (block !== null) range = blockRange(tokens, block);
  else if (ref.subpath.length) range = sectionRange(tokens, findHeading(parsed.env.headings ?? [], ref.subpath));
  if (ref.subpath.length > 0) {
    if (range && showsItsWay(frame, note, ref.line, linesOf(tokens, range))) return cutEmbed(frame);
    spendEmbed(frame, body);
  }
  if (!range) return null;
  const known = renderKey === null ? undefined : parsed.renders.get(renderKey);
  if (known && !known.ids.some((id) => frame.ids.has(id))) {
    for (const id of known.ids) frame.ids.add(id);
    return known.html;
  }
  const unread = readsOfPage(frame);
  // Footnote ids of an embedded note are its own (fn-e1-1…), never the page's.
  const env: NoteEnv = { ...parsed.env, links, frame, docId: `e${frame.count}` };
  // A section whole: an element of raw HTML it opens is closed in it (obsidian/html-block-ids.ts).
  let slice = block !== null ? blockTokens(tokens, range) : ref.subpath.length > 0 ? wholeWrappers(tokens.slice(range[0], range[1])) : tokens.slice(range[0], range[1]);
  // The whole note: its footnotes come along at the end.
  if (ref.subpath.length > 0 && slice.some((t) => t.children?.some((c) => c.type === 'footnote_ref'))) {
    const notes = tokens.findIndex((t) => t.type === 'footnote_block_open');
    if (notes >= 0) slice = [...slice, ...tokens.slice(notes)];
  }
  const asWritten = slice;
  slice = freeIds(slice, frame.ids);
  // CONTRACT §7: the author's raw HTML is passed through the sanitiser, so an embed runs nothing.
  const rendered = nested(frame, level, () => renderBlocks(md, slice, articleOptions(md), env));
  const out = embedBox(ref, source, sanitizeIslands(rendered.html, rendered.islands));
  // Kept when nothing in it read the page: no id renamed or dropped (freeIds copies only those tokens), nothing nested (embeds, pictures), nothing numbered per page (footnotes).
  const pure = slice.every((t, i) => t === asWritten[i]) && readsOfPage(frame) === unread && !slice.some(numbered);
  if (renderKey !== null && pure) parsed.renders.set(renderKey, { html: out, ids: [...new Set(idsIn(slice))] });
  return out;
}

/** `render` with `level` on the page's embed stack: the embeds inside it see it on their way. */
function nested<T>(frame: EmbedFrame, level: EmbedLevel, render: () => T): T {
  frame.stack.push(level);
  try {
    return render();
  } finally {
    frame.stack.pop();
  }
}

/** The whole note from its rendering at reading (slots.ts fillEmbedded), or null when that cannot serve this page. */
function embedFromReading(prepared: PreparedHtml, ref: EmbedRef, links: RenderLinks, frame: EmbedFrame, source: EmbedSource, renderKey: string | null): string | null {
  const known = renderKey === null ? undefined : preparedRenders.get(prepared)?.get(renderKey);
  if (known !== undefined && prepared.embedLead !== null && !prepared.ids.some((id) => frame.ids.has(id))) {
    for (const id of prepared.ids) frame.ids.add(id);
    return known;
  }
  const unread = readsOfPage(frame);
  const html = fillEmbedded(prepared, links, frame);
  if (html === null) return null;
  const out = embedBox(ref, source, html);
  // Kept as a parse's render is: when nothing nested in it counted on the page.
  if (renderKey !== null && readsOfPage(frame) === unread) {
    let renders = preparedRenders.get(prepared);
    if (!renders) preparedRenders.set(prepared, (renders = new Map()));
    renders.set(renderKey, out);
  }
  return out;
}

/** What an embed's rendering read of its page so far (nested embeds, pictures, embeds left out): unchanged, the rendering serves other pages. */
const readsOfPage = (frame: EmbedFrame): string => `${frame.count}/${frame.images ?? 0}/${frame.cut ?? 0}`;

/** An embed left out for where it sits (too deep, or in a cycle): nothing shows, and what holds it is the page's own. */
function cutEmbed(frame: EmbedFrame): null {
  frame.cut = (frame.cut ?? 0) + 1;
  return null;
}

/** A link into the note it is written in (`[[#Part]]`, `[[#^id]]`), as the note's renderer writes one. */
const SAME_NOTE_LINK = '<a class="s-wikilink internal-link" href="#';

/**
 * An embed's box: where it comes from, then its HTML. Its links into their own note lead to
 * that note's page, as in Obsidian, not to a part of the page showing it (nested embeds' were
 * made so in their own boxes).
 */
function embedBox(ref: WikiRef, source: EmbedSource, html: string): string {
  // The note's page: a section's or block's embed names its part after `#`.
  if (html.includes(SAME_NOTE_LINK)) html = html.replaceAll(SAME_NOTE_LINK, `<a class="s-wikilink internal-link" href="${escapeHtml(source.href.replace(/#[^]*$/, ''))}#`);
  const label = ref.subpath.length ? `${source.title} › ${ref.subpath.join(' › ').replace(/^\^/, '')}` : source.title;
  return (
    `<div class="s-embed markdown-embed" data-embed="${escapeHtml(ref.target + (ref.subpath.length ? '#' + ref.subpath.join('#') : ''))}">\n` +
    `<p class="s-embed-source"><a class="s-wikilink internal-link" href="${escapeHtml(source.href)}">${escapeHtml(label)}</a></p>\n` +
    html +
    '</div>\n'
  );
}
