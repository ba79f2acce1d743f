// Items of GET /api/posts (spec 2.5, CONTRACT §5): the note's own address, title,
// date, excerpt and tags; `commentCount` is added by the admin from comments.db.
import { encodeAddress, type Address } from './addresses.ts';
import { composed } from '../vault-names.ts';
import type { NoteRecord } from './note-record.ts';
import type { SiteModel } from './site-model.ts';

export interface PostItem {
  url: string;
  path: string;
  title: string;
  /** ISO 8601 date-time of the post date (spec D.2 order). */
  date: string;
  excerpt: string;
  tags: string[];
  commentCount?: number;
}

/** A published post, as comments and mentions name it (CONTRACT §8): its vault path and address. */
export interface PostRef {
  path: string;
  address: string;
  title: string;
}

/** Which post a comment or mention is for: by vault path (a comment) or by address (a mention's target). */
export type PostQuery = { path: string } | { address: string };

export function postItem(note: NoteRecord): PostItem {
  return {
    url: encodeAddress(note.address),
    path: note.path,
    title: note.title,
    date: new Date(note.date.ms).toISOString(),
    excerpt: note.excerpt,
    tags: note.tags,
  };
}

/**
 * The published post `query` names in `model`, or null. Posts alone have neighbours: a
 * draft, a static page and a missing note answer alike.
 */
export function postNamed(model: Pick<SiteModel, 'byAddress' | 'neighbours'>, records: ReadonlyMap<string, NoteRecord>, query: PostQuery): PostRef | null {
  const note = 'path' in query ? records.get(query.path) : model.byAddress.get(composed(query.address) as Address);
  if (!note || !model.neighbours.has(note.path) || model.byAddress.get(note.address) !== note) return null;
  return { path: note.path, address: note.address, title: note.title };
}
