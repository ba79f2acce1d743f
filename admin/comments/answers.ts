// The JSON shapes of CONTRACT §8's answers. A visitor's never carry an email (nor the
// Markdown source); the admin's carry everything, the note's path included.
import { commentHtml, plainTextHtml } from '../../shared/comments/markdown.ts';
import { publicMention, type CommentRow, type ItemStatus, type MentionKind, type MentionRow } from '../../shared/comments/read.ts';

export interface CommentAnswer {
  id: string;
  parent: string | null;
  name: string;
  website: string | null;
  html: string;
  date: string;
  status: ItemStatus;
  author: boolean;
  // Admin only:
  note?: string;
  email?: string | null;
  body?: string;
}

export interface MentionAnswer {
  id: string;
  kind: MentionKind;
  source: string;
  author: { name: string | null; url: string | null; photo: string | null };
  html: string;
  date: string;
  status: ItemStatus;
  note?: string;
  target?: string;
  /** The text as received (admin only). */
  content?: string | null;
}

/** What the admin reads (its fields all there): the admin app's types are these. */
export type AdminCommentAnswer = Required<CommentAnswer>;
export type AdminMentionAnswer = Required<MentionAnswer>;

export function commentAnswer(row: CommentRow, admin: boolean): CommentAnswer {
  const out: CommentAnswer = {
    id: row.id,
    parent: row.parent,
    name: row.name,
    website: row.website,
    html: commentHtml(row.body),
    date: new Date(row.created_at).toISOString(),
    status: row.status,
    author: row.author === 1,
  };
  if (admin) Object.assign(out, { note: row.note, email: row.email, body: row.body });
  return out;
}

export function mentionAnswer(row: MentionRow, admin: boolean): MentionAnswer {
  const m = publicMention(row);
  const out: MentionAnswer = { id: m.id, kind: m.kind, source: m.source, author: m.author, html: plainTextHtml(m.content), date: new Date(m.date).toISOString(), status: row.status };
  if (admin) Object.assign(out, { note: row.note, target: row.target, content: row.content });
  return out;
}
