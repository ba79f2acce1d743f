// Items of GET /api/posts (spec 2.5, CONTRACT §5): the note's own address, title,
// date, excerpt and tags; `commentCount` is added by the admin from comments.db.
import { encodeAddress } from './addresses.ts';
import type { NoteRecord } from './note-record.ts';

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
