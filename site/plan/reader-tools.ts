// The reader's tools on an article, in both layouts (CONTRACT §12): the table of contents
// and the backlinks; each is made from the note and what the model indexed once per derivation, never
// by reading the rest of the vault per page.
import { linkSentences, linkSnippets } from '../../shared/model/backlinks.ts';
import { byTitle } from '../../shared/model/links.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { headingsKey } from './note-bodies.ts';
import type { PageContext } from './page-context.ts';

export interface TocEntry {
  id: string;
  text: string;
  /** 1 for the shallowest heading listed, deeper ones indented under it. */
  depth: number;
}

/** A note's table of contents: its headings but the one its title came from, when three or more remain. */
export function tocOf(note: NoteRecord): TocEntry[] | null {
  const headings = note.headings.filter((h) => h.id !== note.titleId);
  if (headings.length < 3) return null;
  const top = Math.min(...headings.map((h) => h.level));
  return headings.map((h) => ({ id: h.id, text: h.text, depth: h.level - top + 1 }));
}

/** One note linking here, with the sentence around its link as HTML ('' past BACKLINK_SENTENCES). */
export interface BacklinkView {
  title: string;
  url: string;
  snippetHtml: string;
}

/** The first this many backlinks (by title) carry their sentence; the rest are listed by title alone. */
export const BACKLINK_SENTENCES = 100;

/**
 * "Linked from": every published note linking to `note` (the model's index, CONTRACT §12), the
 * first BACKLINK_SENTENCES with the sentence around their link: a note linked from thousands
 * lists them all, without a page of thousands of sentences.
 */
export function backlinksOf(ctx: PageContext, note: NoteRecord): BacklinkView[] {
  const { resolver } = ctx.model;
  return (ctx.model.backlinks.get(note.path) ?? []).map((from, i) => ({
    ...ctx.link(from),
    snippetHtml: i < BACKLINK_SENTENCES ? (linkSnippets(from, resolver.generation, (target) => resolver.resolve(target, from)?.path ?? null).get(note.path) ?? '') : '',
  }));
}

/**
 * "Linked from" for a base or canvas: the notes linking to or embedding it (`linkers`), the
 * first BACKLINK_SENTENCES with the sentence around their first link to it, as a note's.
 */
export function documentBacklinksOf(ctx: PageContext, linkers: NoteRecord[], p: string): BacklinkView[] {
  return linkers.map((from, i) => {
    // Only the first link to this document is cut out of the note.
    let found = false;
    const link = i < BACKLINK_SENTENCES ? linkSentences(from, (target) => !found && (found = ctx.attachments.resolve(target, from) === p))[0] : undefined;
    return { ...ctx.link(from), snippetHtml: link?.html ?? '' };
  });
}

/** A page's needs with KaTeX's stylesheet added when a backlink's sentence holds math. */
export function withSnippetMath(needs: { math: boolean; mermaid: boolean }, backlinks: BacklinkView[]): { math: boolean; mermaid: boolean } {
  return needs.math || !backlinks.some((b) => b.snippetHtml.includes('class="katex')) ? needs : { ...needs, math: true };
}

/** What a page's backlinks show: an edit re-renders exactly the pages whose list or sentences changed. */
export function backlinksSig(ctx: PageContext, note: NoteRecord): string {
  let sig = '';
  for (const b of backlinksOf(ctx, note)) sig += `${b.url}\u0001${b.title}\u0001${b.snippetHtml}\u0002`;
  return sig;
}

/**
 * Related (spec D.1: the notes linking here or linked from here) as the garden shows it,
 * beside the backlinks: the related notes "Linked from" does not list already, by title
 * (notes, not posts: no date orders them).
 */
export function relatedBesideBacklinks(ctx: PageContext, note: NoteRecord): NoteRecord[] {
  const linking = new Set(ctx.model.backlinks.get(note.path) ?? []);
  return (ctx.model.related.get(note.path) ?? []).filter((r) => !linking.has(r)).sort(byTitle);
}

/** What a page about `note` shows of `other`, linked from or to it: the anchors of its headings, and the sentence around its link to `note`. */
export function linkedFace(ctx: PageContext, other: NoteRecord, note: NoteRecord): string {
  const { resolver } = ctx.model;
  const snippet = linkSnippets(other, resolver.generation, (target) => resolver.resolve(target, other)?.path ?? null).get(note.path) ?? '';
  return `${headingsKey(other)}\u0001${snippet}`;
}
