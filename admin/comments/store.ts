// The admin's reads and writes of comments.db (CONTRACT §8): one statement per question,
// each write one transaction. The build process reads the same file (shared/comments/).
import { randomBytes } from 'node:crypto';
import type { CommentsDb } from '../../shared/comments/db.ts';
import type { CommentRow, ItemStatus, MentionKind, MentionRow } from '../../shared/comments/read.ts';

/** Ids are random: a visitor learns nothing from them (not how many comments wait). */
export const newId = () => randomBytes(9).toString('base64url');

/** A comment as it is stored (the row's own fields; `author`: the site's author wrote it). */
export type NewComment = Pick<CommentRow, 'note' | 'parent' | 'name' | 'email' | 'website' | 'body' | 'status'> & { author: boolean };

/** The lists the Comments view pages through: what waits, and what readers see. */
export type ListedStatus = 'pending' | 'approved';

/** Where an item of the moderation queue stands in its order (the queue's cursor). */
export interface QueueKey {
  at: number;
  kind: 0 | 1;
  rowid: number;
}

export type QueueRow = { kind: 0; key: QueueKey; row: CommentRow } | { kind: 1; key: QueueKey; row: MentionRow };

export interface MentionFields {
  note: string;
  source: string;
  target: string;
  kind: MentionKind;
  authorName: string | null;
  authorUrl: string | null;
  authorPhoto: string | null;
  content: string | null;
  publishedAt: number | null;
}

export class CommentStore {
  constructor(private readonly db: CommentsDb) {}

  comment(id: string): CommentRow | null {
    return (this.db.prepare('SELECT * FROM comments WHERE id = ?').get(id) as CommentRow | undefined) ?? null;
  }

  mention(id: string): MentionRow | null {
    return (this.db.prepare('SELECT * FROM mentions WHERE id = ?').get(id) as MentionRow | undefined) ?? null;
  }

  mentionOf(source: string, target: string): MentionRow | null {
    return (this.db.prepare('SELECT * FROM mentions WHERE source = ? AND target = ?').get(source, target) as MentionRow | undefined) ?? null;
  }

  addComment(c: NewComment, now = Date.now()): CommentRow {
    const row: CommentRow = { id: newId(), ...c, author: c.author ? 1 : 0, created_at: now, updated_at: now };
    this.db
      .prepare(
        `INSERT INTO comments (id, note, parent, name, email, website, body, author, status, created_at, updated_at)
         VALUES (@id, @note, @parent, @name, @email, @website, @body, @author, @status, @created_at, @updated_at)`,
      )
      .run(row);
    return row;
  }

  /** CONTRACT §8 `known`: this name and email already have an approved comment. */
  isKnown(name: string, email: string): boolean {
    return !!this.db.prepare("SELECT 1 FROM comments WHERE status = 'approved' AND author = 0 AND name = ? AND lower(email) = lower(?) LIMIT 1").get(name, email);
  }

  commentsOf(note: string, approvedOnly: boolean): CommentRow[] {
    const where = approvedOnly ? " AND status = 'approved'" : '';
    return this.db.prepare(`SELECT * FROM comments WHERE note = ?${where} ORDER BY created_at, rowid`).all(note) as CommentRow[];
  }

  mentionsOf(note: string, approvedOnly: boolean): MentionRow[] {
    const where = approvedOnly ? " AND status = 'approved'" : '';
    return this.db.prepare(`SELECT * FROM mentions WHERE note = ?${where} ORDER BY COALESCE(published_at, created_at), rowid`).all(note) as MentionRow[];
  }

  /** How many comments wait for moderation. */
  pendingComments(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM comments WHERE status = 'pending'").get() as { n: number }).n;
  }

  /** How many mentions wait for moderation. */
  pendingMentions(): number {
    return (this.db.prepare("SELECT COUNT(*) AS n FROM mentions WHERE status = 'pending'").get() as { n: number }).n;
  }

  /** How many comments and mentions wait (of one note, when named); `status` another list's count. */
  pendingCount(note: string | null, status: ListedStatus = 'pending'): number {
    const where = note === null ? '' : ' AND note = ?';
    const args = note === null ? [status] : [status, note];
    const count = (table: string) => (this.db.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE status = ?${where}`).get(...args) as { n: number }).n;
    return count('comments') + count('mentions');
  }

  /**
   * One page of the pending comments and mentions (of one note, when named), newest first:
   * ordered by (created_at, kind, rowid) descending, kind 0 a comment and 1 a mention, and
   * starting below `after` (that order's key of the last item of the page before).
   */
  pendingPage(note: string | null, after: QueueKey | null, limit: number, status: ListedStatus = 'pending'): { items: QueueRow[]; next: QueueKey | null } {
    const branch = (table: 'comments' | 'mentions', kind: 0 | 1) => {
      const where: string[] = ['status = ?'];
      const args: (string | number)[] = [status];
      if (note !== null) {
        where.push('note = ?');
        args.push(note);
      }
      if (after) {
        // (created_at, kind, rowid) < after, with this branch's kind fixed.
        if (kind < after.kind) where.push('created_at <= ?');
        else if (kind > after.kind) where.push('created_at < ?');
        else where.push('(created_at < ? OR (created_at = ? AND rowid < ?))');
        args.push(after.at);
        if (kind === after.kind) args.push(after.at, after.rowid);
      }
      const sql = `SELECT *, rowid AS _rowid FROM ${table} WHERE ${where.join(' AND ')} ORDER BY created_at DESC, rowid DESC LIMIT ?`;
      return (this.db.prepare(sql).all(...args, limit + 1) as (Record<string, unknown> & { _rowid: number; created_at: number })[]).map((r) => {
        const { _rowid, ...row } = r;
        return { kind, key: { at: r.created_at, kind, rowid: _rowid }, row } as unknown as QueueRow;
      });
    };
    const merged = [...branch('comments', 0), ...branch('mentions', 1)].sort((a, b) => b.key.at - a.key.at || b.key.kind - a.key.kind || b.key.rowid - a.key.rowid);
    const items = merged.slice(0, limit);
    return { items, next: merged.length > limit ? items[items.length - 1]!.key : null };
  }

  setCommentStatus(id: string, status: ItemStatus, now = Date.now()): void {
    this.db.prepare('UPDATE comments SET status = ?, updated_at = ? WHERE id = ?').run(status, now, id);
  }

  setMentionStatus(id: string, status: ItemStatus, now = Date.now()): void {
    this.db.prepare('UPDATE mentions SET status = ?, updated_at = ? WHERE id = ?').run(status, now, id);
  }

  /** Deletes a comment and the replies under it. */
  deleteComment(id: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM comments WHERE parent = ?').run(id);
      this.db.prepare('DELETE FROM comments WHERE id = ?').run(id);
    })();
  }

  deleteMention(id: string): void {
    this.db.prepare('DELETE FROM mentions WHERE id = ?').run(id);
  }

  /** A new mention, or the same source and target updated (its status kept: an approved one stays approved). */
  upsertMention(m: MentionFields, statusIfNew: ItemStatus, now = Date.now()): { row: MentionRow; created: boolean } {
    const existing = this.mentionOf(m.source, m.target);
    const row: MentionRow = {
      id: existing?.id ?? newId(),
      note: m.note,
      source: m.source,
      target: m.target,
      kind: m.kind,
      author_name: m.authorName,
      author_url: m.authorUrl,
      author_photo: m.authorPhoto,
      content: m.content,
      published_at: m.publishedAt,
      status: existing?.status ?? statusIfNew,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    };
    this.db
      .prepare(
        `INSERT INTO mentions (id, note, source, target, kind, author_name, author_url, author_photo, content, published_at, status, created_at, updated_at)
         VALUES (@id, @note, @source, @target, @kind, @author_name, @author_url, @author_photo, @content, @published_at, @status, @created_at, @updated_at)
         ON CONFLICT (source, target) DO UPDATE SET note = excluded.note, kind = excluded.kind, author_name = excluded.author_name,
           author_url = excluded.author_url, author_photo = excluded.author_photo, content = excluded.content,
           published_at = excluded.published_at, updated_at = excluded.updated_at`,
      )
      .run(row);
    return { row, created: !existing };
  }

  /** Comment counts per note: approved ones, or every one (the admin's view). */
  counts(approvedOnly: boolean): Map<string, number> {
    const where = approvedOnly ? " WHERE status = 'approved'" : '';
    const rows = this.db.prepare(`SELECT note, COUNT(*) AS n FROM comments${where} GROUP BY note`).all() as { note: string; n: number }[];
    return new Map(rows.map((r) => [r.note, r.n]));
  }

  /** A note (or a folder's notes) moved: their comments and mentions follow. Answers the notes moved. */
  moveNotes(rename: (note: string) => string | null): [string, string][] {
    const notes = this.db.prepare('SELECT note FROM comments UNION SELECT note FROM mentions').all() as { note: string }[];
    const moves: [string, string][] = [];
    for (const { note } of notes) {
      const to = rename(note);
      if (to !== null && to !== note) moves.push([note, to]);
    }
    if (moves.length === 0) return moves;
    this.db.transaction(() => {
      for (const [from, to] of moves) {
        this.db.prepare('UPDATE comments SET note = ? WHERE note = ?').run(to, from);
        this.db.prepare('UPDATE mentions SET note = ? WHERE note = ?').run(to, from);
      }
    })();
    return moves;
  }

  /** GET /api/comments/export: every row of both tables, emails included (admin only). */
  everything(): { comments: CommentRow[]; mentions: MentionRow[] } {
    return {
      comments: this.db.prepare('SELECT * FROM comments ORDER BY created_at, rowid').all() as CommentRow[],
      mentions: this.db.prepare('SELECT * FROM mentions ORDER BY created_at, rowid').all() as MentionRow[],
    };
  }

  close(): void {
    this.db.close();
  }
}
