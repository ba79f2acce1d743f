// What both sides read of comments.db: the approved comments and mentions of a note, as
// a visitor may see them (never an email), and the rows' shapes. The build process puts
// them into the article; the admin answers GET /api/comments and /api/mentions with them.
import type { CommentsDb } from './db.ts';

export type ItemStatus = 'pending' | 'approved' | 'rejected' | 'spam';
export const ITEM_STATUSES: readonly ItemStatus[] = ['pending', 'approved', 'rejected', 'spam'];
export type MentionKind = 'reply' | 'like' | 'repost' | 'mention';

export interface CommentRow {
  id: string;
  note: string;
  parent: string | null;
  name: string;
  email: string | null;
  website: string | null;
  body: string;
  author: number;
  status: ItemStatus;
  created_at: number;
  updated_at: number;
}

export interface MentionRow {
  id: string;
  note: string;
  source: string;
  target: string;
  kind: MentionKind;
  author_name: string | null;
  author_url: string | null;
  author_photo: string | null;
  content: string | null;
  published_at: number | null;
  status: ItemStatus;
  created_at: number;
  updated_at: number;
}

/** A comment as a visitor may see it: no email, ever. */
export interface PublicComment {
  id: string;
  parent: string | null;
  name: string;
  website: string | null;
  body: string;
  /** Written by the site's author (an admin's reply). */
  author: boolean;
  date: number;
}

export interface PublicMention {
  id: string;
  kind: MentionKind;
  source: string;
  author: { name: string | null; url: string | null; photo: string | null };
  content: string | null;
  date: number;
}

/** The approved comments and mentions of one note, oldest first. */
export interface NoteDiscussion {
  comments: PublicComment[];
  mentions: PublicMention[];
}

export function publicComment(row: CommentRow): PublicComment {
  return { id: row.id, parent: row.parent, name: row.name, website: row.website, body: row.body, author: row.author === 1, date: row.created_at };
}

export function publicMention(row: MentionRow): PublicMention {
  return {
    id: row.id,
    kind: row.kind,
    source: row.source,
    author: { name: row.author_name, url: row.author_url, photo: row.author_photo },
    content: row.content,
    date: row.published_at ?? row.created_at,
  };
}

const APPROVED_COMMENTS = "SELECT * FROM comments WHERE status = 'approved'";
const APPROVED_MENTIONS = "SELECT * FROM mentions WHERE status = 'approved'";
// Oldest first: a page reads top to bottom, the newest thread last (CONTRACT §8).
const ORDER = ' ORDER BY created_at, rowid';
const MENTION_ORDER = ' ORDER BY COALESCE(published_at, created_at), rowid';

function group(comments: CommentRow[], mentions: MentionRow[]): Map<string, NoteDiscussion> {
  const out = new Map<string, NoteDiscussion>();
  const of = (note: string) => {
    let d = out.get(note);
    if (!d) out.set(note, (d = { comments: [], mentions: [] }));
    return d;
  };
  for (const row of comments) of(row.note).comments.push(publicComment(row));
  for (const row of mentions) of(row.note).mentions.push(publicMention(row));
  return out;
}

/** Every note's approved discussion (notes without one are absent). */
export function allApprovedDiscussions(db: CommentsDb): Map<string, NoteDiscussion> {
  return group(db.prepare(APPROVED_COMMENTS + ORDER).all() as CommentRow[], db.prepare(APPROVED_MENTIONS + MENTION_ORDER).all() as MentionRow[]);
}

/** The approved discussion of the given notes (a note without one maps to empty lists). */
export function approvedDiscussions(db: CommentsDb, notes: string[]): Map<string, NoteDiscussion> {
  const comments = db.prepare(APPROVED_COMMENTS + ' AND note = ?' + ORDER);
  const mentions = db.prepare(APPROVED_MENTIONS + ' AND note = ?' + MENTION_ORDER);
  const out = new Map<string, NoteDiscussion>();
  for (const note of notes) {
    out.set(note, {
      comments: (comments.all(note) as CommentRow[]).map(publicComment),
      mentions: (mentions.all(note) as MentionRow[]).map(publicMention),
    });
  }
  return out;
}
