// The vault's Bases (`.base`) and canvases (`.canvas`): files that are pages. One is
// published when a published note links to or embeds it (as an attachment is: a vault
// file visitors reach only through a published note); it is then a page at its path's
// address without the extension (CONTRACT §12), and an embed renders it in place. What a
// base shows depends on every published note, a canvas on the notes its file nodes name:
// those are the readings the plan's dependency index records.
import { linkPlaces } from '../../shared/note/link-places.ts';
import { blockTokens } from '../../shared/note/md.ts';
import { fenceLanguage } from '../../shared/note/obsidian/base-blocks.ts';
import { pathAddress, type Address } from '../../shared/model/addresses.ts';
import { MAX_BASE_BYTES } from '../../shared/bases/base-file.ts';
import { MAX_CANVAS_BYTES, readCanvas } from '../../shared/canvas/canvas-file.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { escapeHtml } from '../../shared/note/escape.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { baseHtml, baseIgnoresHost, type BaseHost, type ShownViews } from './base-view.ts';
import { canvasHtml, canvasNotes } from './canvas-view.ts';
import { siteLanguageAttrs } from './frame.ts';
import type { PageContext } from './page-context.ts';
import { digest } from './sig-digests.ts';

export const isDocumentPath = (p: string): boolean => /\.(base|canvas)$/i.test(p);
const isBasePath = (p: string) => /\.base$/i.test(p);

/** `Notes/Reading.base` → `/Notes/Reading` (spaces as a note's address writes them). */
export function documentAddress(p: string): Address {
  return pathAddress(p.replace(/\.(base|canvas)$/i, ''));
}

/** A document's title: its file name without the extension. */
export function documentTitle(p: string): string {
  return p.slice(p.lastIndexOf('/') + 1).replace(/\.(base|canvas)$/i, '');
}

/**
 * The document as links written in it resolve (from its folder, as a note's would):
 * only its path, name and folder are read by the resolvers.
 */
export function standIn(p: string): NoteRecord {
  const slash = p.lastIndexOf('/');
  return { path: p as VaultPath, name: documentTitle(p), folder: slash < 0 ? '' : p.slice(0, slash), aliases: [] } as unknown as NoteRecord;
}

export const hostOf = (note: NoteRecord): BaseHost => ({ path: note.path, folder: note.folder, properties: note.data });

/** Whether a document shows differently in each note embedding it: a base naming `this` (a canvas never does). */
export function documentReadsHost(ctx: PageContext, p: string): boolean {
  if (!isBasePath(p)) return false;
  const text = ctx.attachments.text(p, MAX_BASE_BYTES);
  return text !== null && !baseIgnoresHost(text);
}

/** A document's HTML (the page's body, or an embed's): `host` is what `this` names in a base (the embedding note, or the file). */
export function documentHtml(ctx: PageContext, p: string, host: BaseHost | null, shown: ShownViews = 'all'): string {
  const { strings } = ctx.frame;
  const max = isBasePath(p) ? MAX_BASE_BYTES : MAX_CANVAS_BYTES;
  const text = ctx.attachments.text(p, max);
  if (isBasePath(p)) {
    if (text === null) return `<div class="s-base s-base-unsupported" role="note"><p${siteLanguageAttrs(ctx.frame)}>${escapeHtml(strings.baseUnreadable('the file is too large or cannot be read'))}</p></div>\n`;
    const file = standIn(p);
    return baseHtml(ctx, text, host ?? { path: p, folder: file.folder, properties: {} }, shown);
  }
  const read = text === null ? { ok: false as const, problem: 'the file is too large or cannot be read' } : readCanvas(text);
  if (!read.ok) return `<div class="s-canvas s-canvas-unsupported" role="note"><p${siteLanguageAttrs(ctx.frame)}>${escapeHtml(strings.canvasUnreadable(read.problem))}</p></div>\n`;
  return canvasHtml(ctx, read.canvas, standIn(p));
}

/** The published notes a document's rendering reads: every one for a base, the named ones for a canvas. */
export function documentReads(ctx: PageContext, p: string): readonly NoteRecord[] {
  if (isBasePath(p)) return ctx.model.visible;
  const text = ctx.attachments.text(p, MAX_CANVAS_BYTES);
  const read = text === null ? null : readCanvas(text);
  return read?.ok ? canvasNotes(ctx, read.canvas, standIn(p)) : [];
}

/** The documents a note embeds (`![[x.base]]`, `![[x.canvas]]`; a link is no embed), as vault paths. */
export function embeddedDocuments(ctx: PageContext, note: NoteRecord): string[] {
  const out: string[] = [];
  // The record keeps linked and embedded files together: the text says which are embeds.
  if (!note.embeds.some((target) => isDocumentPath(target.replace(/[#?][^]*$/, '')))) return out;
  // Where the page reads links: `![[x.base]]` in code is text.
  for (const link of linkPlaces(note.body, false)) {
    if (link.kind !== 'wiki' || !link.bang || !isDocumentPath(link.target.trim())) continue;
    const p = ctx.attachments.resolve(link.target.trim(), note);
    if (p && isDocumentPath(p) && !out.includes(p)) out.push(p);
  }
  return out;
}

// A fence whose info may name a base: the parser decides what is one (in a quote, a list
// item, a callout; `Base`; an unclosed fence runs to the end), as the page renders it.
// (From a run's first mark only: read from each mark of a long run, a line of backticks took seconds.)
const MAY_HOLD_BASE = /(?:(?<!`)`{3,}|(?<!~)~{3,})[ \t]*base\b/i;

/** The contents of a note's ```base blocks: the parser's fences whose language is `base`, as base-blocks.ts renders them. */
function baseFences(body: string): string[] {
  return blockTokens(body).filter((t) => t.type === 'fence' && fenceLanguage(t.info) === 'base').map((t) => t.content);
}

/** Each record's ```base blocks, found once (every plan asks of every note). */
const blocksOf = new WeakMap<NoteRecord, string[]>();
const NONE: string[] = [];

/** The ```base blocks of a note, as written (what its page renders in place). */
export function baseBlocks(note: NoteRecord): string[] {
  let blocks = blocksOf.get(note);
  if (!blocks) {
    blocks = MAY_HOLD_BASE.test(note.body) ? baseFences(note.body) : NONE;
    blocksOf.set(note, blocks);
  }
  return blocks;
}

/** What a note's bases and embedded documents show (their HTML's digests), its embedded notes' included: part of its page's signature. */
export function noteDocumentsSig(ctx: PageContext, note: NoteRecord): string {
  let sig = '';
  for (const host of [note, ...ctx.bodies.embedded(note)]) {
    for (const source of baseBlocks(host)) sig += digest(ctx.bodies.baseBlockHtml(host, source)) + ',';
    for (const p of embeddedDocuments(ctx, host)) sig += digest(ctx.bodies.embeddedDocumentHtml(host, p)) + ',';
  }
  return sig;
}

/** The notes a note's bases and embedded documents read (every published note, for a base): part of its page's readings. */
export function noteDocumentReads(ctx: PageContext, note: NoteRecord): readonly NoteRecord[] {
  const out: NoteRecord[] = [];
  for (const host of [note, ...ctx.bodies.embedded(note)]) {
    if (baseBlocks(host).length) return ctx.model.visible;
    for (const p of embeddedDocuments(ctx, host)) {
      const reads = documentReads(ctx, p);
      if (reads === ctx.model.visible) return reads;
      out.push(...reads);
    }
  }
  return out;
}
