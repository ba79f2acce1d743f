// Rendering a note is done once per change of its text; what depends on the rest of the
// vault (where a link points, whether a note may be shown, a tag's topic page, an
// embedded note) is left as a numbered hole and filled per page. So a page built again
// because a linked note moved costs a few string joins, not another parse. The holes'
// HTML comes from the same functions whether filled at once (the admin's revision view,
// an embed) or later (the article): one renderer either way.
import { safeDecode } from '../link-address.ts';
import { isAttachmentTarget, mayNameFile } from '../wikilinks.ts';
import { sanitizeIslands } from './raw-islands.ts';
import { escapeHtml } from './escape.ts';
import { imageTagHtml } from './picture.ts';
import type { EmbedFrame, NoteEnv, RenderLinks } from './env.ts';
import { headingAnchor, type HeadingInfo } from './obsidian/headings.ts';
import { tagHtml } from './obsidian/tags.ts';
import { UNRESOLVED_OPEN, wikiHtml, type WikiMeta } from './obsidian/wikilinks.ts';

export type Slot =
  | { kind: 'wiki'; meta: WikiMeta }
  | { kind: 'tag'; tag: string }
  /** An image whose source is a vault path (a published attachment, or nothing). */
  | { kind: 'image'; src: string; alt: string; title: string | null; width: string | null; height: string | null }
  /** The opening tag of a Markdown link to a vault path (a note's address or a file). */
  | { kind: 'link'; href: string; attrs: [string, string][] }
  /** Its closing tag: `</a>`, or `</span>` when the path names nothing a visitor may see. */
  | { kind: 'link_close'; href: string }
  /** A ```base block: its views are worked out over the published notes per page. */
  | { kind: 'base'; source: string }
  /** A mermaid diagram's nodes Obsidian links (diagram-links.ts): their addresses as an attribute of its block. */
  | { kind: 'diagram'; nodes: [id: string, text: string][] };

/** A note rendered with holes where the rest of the vault decides. */
export interface PreparedHtml {
  /** HTML with `\u0000<n>\u0000` where slot n goes (markdown-it turns a NUL in a note into U+FFFD). */
  html: string;
  slots: Slot[];
  /** The author wrote raw HTML: `html` marks its islands, which the filled page passes through the sanitiser (raw-islands.ts). */
  rawHtml: boolean;
  /** Ids the note's own elements take: an embed's headings avoid them. */
  ids: string[];
  headings: HeadingInfo[];
  /**
   * What an embed of the whole note shows before `html`: the leading `# heading` the article
   * leaves out for repeating its title ('' when there is none), or null when an embed cannot
   * be made from this rendering (its ids repeat, it holds footnotes, or raw HTML in that heading).
   */
  embedLead: string | null;
}

const HOLE = '\u0000';
// Where an island of raw HTML starts and ends, in the holes' own marks.
const ISLAND_START = '<';
const ISLAND_END = '>';

/** `html` with the start and end of each island marked (`islands`: offsets into it). */
export function islandMarked(html: string, islands: ReadonlyArray<readonly [number, number]>): string {
  if (islands.length === 0) return html;
  let out = '';
  let at = 0;
  for (const [start, end] of islands) {
    out += `${html.slice(at, start)}${HOLE}${ISLAND_START}${HOLE}${html.slice(start, end)}${HOLE}${ISLAND_END}${HOLE}`;
    at = end;
  }
  return out + html.slice(at);
}

/**
 * A string built by `+=` is kept by V8 as a tree of its pieces, several times its size;
 * reading a character from its middle flattens it in place. For what stays in memory.
 */
export function flat(s: string): string {
  s.charCodeAt(s.length >> 1);
  return s;
}

/** In a renderer rule: a hole while preparing, the HTML itself otherwise. */
export function slotOrHtml(env: NoteEnv, slot: Slot): string {
  if (env.holes) {
    env.holes.push(slot);
    return `${HOLE}${env.holes.length - 1}${HOLE}`;
  }
  return slotHtml(slot, env);
}


function imageHtml(slot: Extract<Slot, { kind: 'image' }>, env: NoteEnv): string {
  const target = safeDecode(slot.src.replace(/[#?][^]*$/, ''));
  const links = env.links;
  const view = links?.image ? links.image(target) : ((src) => (src ? { src } : null))(links?.attachment(target) ?? null);
  if (!view) return '';
  return imageTagHtml(view, slot, env.frame);
}

/** Where a Markdown link to a vault path leads: a visible note's address (its anchor too), a published file, or nowhere (null). */
function linkTarget(written: string, links: RenderLinks | undefined): { href: string; note: boolean } | null {
  const hashAt = written.indexOf('#');
  const pathPart = safeDecode(hashAt >= 0 ? written.slice(0, hashAt) : written);
  const hash = hashAt >= 0 ? safeDecode(written.slice(hashAt + 1)) : '';
  // The one rule for a link's target (shared/wikilinks.ts): a note first, unless an attachment's format names a file.
  if (!isAttachmentTarget(pathPart)) {
    const note = links?.note(pathPart) ?? null;
    if (note) return { href: note.href + (hash.startsWith('^') ? `#^${encodeURIComponent(hash.slice(1))}` : hash ? headingAnchor(note.headings ?? [], hash.split('#')) : ''), note: true };
    if (!mayNameFile(pathPart)) return null;
  }
  const file = links?.attachment(pathPart) ?? null;
  // A file's fragment is the browser's to read, as written: `paper.pdf#page=7` opens the viewer at that page.
  return file === null ? null : { href: hash ? `${file}#${encodeURI(hash)}` : file, note: false };
}

/** ` data-links="{id: address}"` for the nodes whose text names a note a visitor may see, or nothing. */
function diagramLinksAttr(nodes: [string, string][], links: RenderLinks | undefined): string {
  const found: Record<string, string> = {};
  let any = false;
  for (const [id, text] of nodes) {
    const note = links?.note(text) ?? null;
    if (note) {
      found[id] = note.href;
      any = true;
    }
  }
  return any ? ` data-links="${escapeHtml(JSON.stringify(found))}"` : '';
}

/** A link to a missing or unpublished note (or file) reads as an unresolved wikilink: its text, no address, nothing telling the two apart. */
function linkHtml(slot: Extract<Slot, { kind: 'link' }>, links: RenderLinks | undefined): string {
  const target = linkTarget(slot.href, links);
  if (target === null) return UNRESOLVED_OPEN;
  const cls = target.note ? 'internal-link' : null;
  const attrs = slot.attrs.map(([k, v]) => (k === 'class' && cls ? ` class="${escapeHtml(`${v} ${cls}`)}"` : ` ${k}="${escapeHtml(v)}"`)).join('');
  const own = cls && !slot.attrs.some(([k]) => k === 'class') ? ` class="${cls}"` : '';
  return `<a href="${escapeHtml(target.href)}"${attrs}${own}>`;
}

/** The HTML of one slot for a page (`env.links` answers for the vault). */
export function slotHtml(slot: Slot, env: NoteEnv): string {
  switch (slot.kind) {
    case 'wiki':
      return wikiHtml(slot.meta, env);
    case 'tag':
      return tagHtml(slot.tag, env);
    case 'image':
      return imageHtml(slot, env);
    case 'link':
      return linkHtml(slot, env.links);
    case 'link_close':
      return linkTarget(slot.href, env.links) === null ? '</span>' : '</a>';
    case 'base':
      return env.links?.base?.(slot.source) ?? `<pre><code class="language-base">${escapeHtml(slot.source)}</code></pre>\n`;
    case 'diagram':
      return diagramLinksAttr(slot.nodes, env.links);
  }
}

/**
 * The prepared note filled in for one page. `key` (its vault path) names the note on the
 * embed stack, so a note embedding itself whole stops at once.
 */
export function fillPrepared(prepared: PreparedHtml, links: RenderLinks, key?: string): string {
  const env: NoteEnv = { links, headings: prepared.headings, frame: { ids: new Set(prepared.ids), stack: key ? [{ note: key, line: -1 }] : [], count: 0 } };
  return fillHoles(prepared.html, prepared, env, true);
}

/**
 * The whole note as an embed inside another page's `frame`, from its rendering at reading:
 * what a fresh render of its text gives (markdown.ts renderEmbedHtml) when none of its ids is
 * taken on the page. Null when one is, or when the rendering cannot serve (`embedLead`).
 */
export function fillEmbedded(prepared: PreparedHtml, links: RenderLinks, frame: EmbedFrame): string | null {
  if (prepared.embedLead === null || prepared.ids.some((id) => frame.ids.has(id))) return null;
  for (const id of prepared.ids) frame.ids.add(id);
  // The page's frame as it is: its embeds nest and count, and its pictures number on from the page's.
  const env: NoteEnv = { links, headings: prepared.headings, frame };
  return fillHoles(prepared.embedLead + prepared.html, prepared, env, false);
}

/**
 * An embed (a note, a picture, a base or canvas file) or a base block: HTML of our own, made
 * safe where it was made (an embedded note's raw HTML through the sanitiser on its own), whole
 * and closed.
 */
const isOwnBlock = (slot: Slot) => slot.kind === 'base' || (slot.kind === 'wiki' && slot.meta.embed);

/** `html`'s holes filled from `prepared`'s slots; `track`: each slot learns where in the body it sits (picture.ts). */
function fillHoles(html: string, prepared: PreparedHtml, env: NoteEnv, track: boolean): string {
  if (!prepared.slots.length && !prepared.rawHtml) return html;
  const parts = html.split(HOLE);
  const islands: Array<[number, number]> = [];
  // Own blocks inside an island go in after the sanitiser, which would take what a canvas
  // draws with (its arrows, colours); `shift` keeps each slot's place as the page will have it.
  const later: string[] = [];
  let shift = 0;
  let out = '';
  let start = -1;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (i % 2 === 0) out += part;
    else if (part === ISLAND_START) start = out.length;
    else if (part === ISLAND_END) {
      islands.push([start, out.length]);
      start = -1;
    } else {
      if (track) env.frame!.at = out.length + shift;
      const slot = prepared.slots[Number(part)]!;
      const made = slotHtml(slot, env);
      if (start < 0 || !isOwnBlock(slot)) out += made;
      else {
        const mark = `${HOLE}${later.push(made) - 1}${HOLE}`;
        shift += made.length - mark.length;
        out += mark;
      }
    }
  }
  // CONTRACT §7: the author's raw HTML is passed through the sanitiser, so a published note runs nothing.
  const safe = sanitizeIslands(out, islands);
  return later.length ? putInText(safe, later) : safe;
}

/**
 * `html` (the sanitiser's output) with each `\0n\0` mark replaced by `blocks[n]` where it stands
 * in text. The author cannot write a NUL (markdown-it makes it U+FFFD), but their HTML can
 * leave a mark inside a tag (`<div title="` before the embed): the block is left out there,
 * never written into an attribute. The sanitiser escapes `<` and `>` in text and in values.
 */
function putInText(html: string, blocks: readonly string[]): string {
  let inTag = false;
  let at = 0;
  return html.replace(/\u0000(\d+)\u0000/g, (_mark, n: string, index: number) => {
    for (; at < index; at++) {
      const c = html.charCodeAt(at);
      if (c === 60 /* < */) inTag = true;
      else if (c === 62 /* > */) inTag = false;
    }
    return inTag ? '' : (blocks[Number(n)] ?? '');
  });
}
