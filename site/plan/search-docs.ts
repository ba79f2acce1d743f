// What of a note the visitor search reads (CONTRACT §9): published notes only (the
// model's visible ones: no drafts, no templates), nothing hidden (a hidden collection's
// or category's page note), and of each its public text only (`%%` comments never:
// publicText, the one way to it) with its title, headings and tags.
import { authorMs } from '../../shared/note/dates.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { visibleBeforeModel, type ModelSettings } from '../../shared/model/site-model.ts';
import { publicText } from '../../shared/note/public-text.ts';
import type { MetaRow, SearchDoc } from '../../shared/search/index-format.ts';
import type { PageContext } from './page-context.ts';

/** The notes a visitor can find, in path order (the model's `all` is: the base's ids follow it). */
export function searchableNotes(ctx: PageContext): NoteRecord[] {
  const { model } = ctx;
  return model.all.filter((note) => !note.hidden && model.isVisible(note));
}

/**
 * The same notes known before the site is planned, from the records and the settings the
 * model will be derived from (a full build indexes them while it plans: search-job.ts).
 */
export function searchableBeforePlan(records: Iterable<NoteRecord>, settings: Pick<ModelSettings, 'templatesFolder'>): NoteRecord[] {
  const { all, visiblePaths } = visibleBeforeModel(records, settings);
  return all.filter((note) => !note.hidden && visiblePaths.has(note.path));
}

/** The search documents of records standing in for pages that are not notes (search-documents.ts: bases, canvases). */
export const standInDocs = new WeakMap<NoteRecord, SearchDoc>();

/**
 * The note as the index reads it. Its text comes from the parse that read the note (taken,
 * so the record keeps none), else from the parser again.
 */
export function searchDocOf(note: NoteRecord): SearchDoc {
  const standIn = standInDocs.get(note);
  if (standIn) return standIn;
  const made = note.searchText;
  note.searchText = null;
  return {
    title: note.title,
    headings: note.headings.map((h) => h.text).join('\n'),
    tags: note.tags.join(' '),
    // A .tex note's body is its text as it is; a Markdown note's is read by the parser.
    text: made ?? (/\.tex$/i.test(note.path) ? note.body : publicText(note.body)),
  };
}

/** The characters of text a document holds (what a delta or a build thread's search job is bounded by). */
export function docChars(doc: SearchDoc): number {
  return doc.title.length + doc.headings.length + doc.tags.length + doc.text.length;
}

/** What a result shows of a note: its address, title and date as the site writes them (none where its page shows none). */
export function metaRowOf(ctx: PageContext, note: NoteRecord): MetaRow {
  return [ctx.url(ctx.addressOf(note)), note.title, ctx.showsDate(note) ? ctx.fmt.date(authorMs(note.date)) : '', new Date(note.date.ms).toISOString(), note.lang];
}
