// The published bases and canvases as the visitor search finds them (CONTRACT §9, §12):
// each stands in the index as a record of its own, by its path, whose document is what the
// page says of itself. A canvas: its text nodes (their public text), group and edge labels,
// and the titles of the published notes its file nodes show (a note visitors cannot see
// gives nothing). A base: its name and its views' names; its rows are notes the index
// holds already, so their titles would only make the base a second hit for each.
// A document's record is the same object while what it indexes is the same, so the
// index sees no change (its hash is the document's text).
import { createHash } from 'node:crypto';
import { MAX_BASE_BYTES, readBase } from '../../shared/bases/base-file.ts';
import { MAX_CANVAS_BYTES, readCanvas } from '../../shared/canvas/canvas-file.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { publicText } from '../../shared/note/public-text.ts';
import type { SearchDoc } from '../../shared/search/index-format.ts';
import { standInDocs } from './search-docs.ts';
import { documentAddress, documentTitle, standIn } from './documents.ts';
import type { PageContext } from './page-context.ts';
import { publishedDocuments } from './plan-documents.ts';

function searchDocOfDocument(ctx: PageContext, p: string): SearchDoc {
  const title = documentTitle(p);
  if (/\.base$/i.test(p)) {
    const text = ctx.attachments.text(p, MAX_BASE_BYTES);
    const read = text === null ? null : readBase(text);
    // A view the base leaves unnamed is called `View 2`: no words of the base's own.
    const names = read?.ok ? read.spec.views.map((v) => v.name).filter((name, i) => name !== `View ${i + 1}`) : [];
    return { title, headings: '', tags: '', text: names.join('\n') };
  }
  const text = ctx.attachments.text(p, MAX_CANVAS_BYTES);
  const read = text === null ? null : readCanvas(text);
  if (!read?.ok) return { title, headings: '', tags: '', text: '' };
  const parts: string[] = [];
  const from = standIn(p);
  for (const node of read.canvas.nodes) {
    if (node.type === 'text') parts.push(publicText(node.text));
    else if (node.type === 'group' && node.label) parts.push(node.label);
    else if (node.type === 'file') {
      const note = ctx.model.resolver.resolve(node.file, from);
      if (note && ctx.model.isVisible(note)) parts.push(note.title);
    }
  }
  for (const edge of read.canvas.edges) if (edge.label) parts.push(edge.label);
  return { title, headings: '', tags: '', text: parts.join('\n') };
}

/** The published documents' records, each the same object while its document holds (one per search index: search-index.ts). */
export class DocumentRecords {
  /** The last record made for each document still published. */
  private records = new Map<string, NoteRecord>();

  /** The published documents' records, in path order; a document no longer published is forgotten. */
  searchable(ctx: PageContext): NoteRecord[] {
    const paths = publishedDocuments(ctx);
    const out = paths.map((p) => this.recordOf(ctx, p));
    if (this.records.size > out.length) {
      const kept = new Set(paths);
      for (const p of this.records.keys()) if (!kept.has(p)) this.records.delete(p);
    }
    return out;
  }

  /** How many documents it remembers (for the tests). */
  get size(): number {
    return this.records.size;
  }

  private recordOf(ctx: PageContext, p: string): NoteRecord {
    const doc = searchDocOfDocument(ctx, p);
    const address = documentAddress(p);
    const lang = ctx.frame.lang;
    const hash = createHash('sha1').update(JSON.stringify([address, lang, doc])).digest('base64url');
    const known = this.records.get(p);
    if (known && known.hash === hash) return known;
    // Only what the index reads of a record (search-index.ts, search-docs.ts): a page, without a date.
    const record = { path: p, address, hash, title: doc.title, date: { ms: 0 }, page: true, hidden: false, lang, tags: [], headings: [], searchText: null } as unknown as NoteRecord;
    standInDocs.set(record, doc);
    this.records.set(p, record);
    return record;
  }
}
