// The approved comments and mentions the build renders into articles (CONTRACT §8), read
// from comments.db (read-only: the admin process writes it) and kept in memory per note.
// A full build reads them all; a moderation change re-reads only the notes it names, so
// only their pages (and the lists whose counts changed) are rendered again.
import { createHash } from 'node:crypto';
import { openCommentsReader, type CommentsDb } from '../../shared/comments/db.ts';
import { allApprovedDiscussions, approvedDiscussions, type NoteDiscussion } from '../../shared/comments/read.ts';
import { log } from '../../shared/log.ts';

/** A note's approved discussion with what the plan compares: its signature and comment count. */
export interface PlannedDiscussion extends NoteDiscussion {
  /** Changes whenever anything shown of the discussion changes. */
  sig: string;
  /** Approved comments, the author's replies included (spec 2.5 `commentCount`). */
  count: number;
}

/** Every note with an approved comment or mention, by vault path: plain data (it crosses to the build thread). */
export type DiscussionMap = Map<string, PlannedDiscussion>;

export function plannedDiscussion(d: NoteDiscussion): PlannedDiscussion {
  const sig = createHash('sha1').update(JSON.stringify(d)).digest('base64url');
  return { ...d, sig, count: d.comments.length };
}

export class DiscussionIndex {
  private db: CommentsDb | null = null;
  private map: DiscussionMap | null = null;

  constructor(private readonly dataDir: string) {}

  private reader(): CommentsDb | null {
    // The database appears with the first comment: until then, look again each time.
    this.db ??= openCommentsReader(this.dataDir);
    return this.db;
  }

  /** Everything approved, read once (again after `forget`); empty while comments are off. */
  current(enabled: boolean): DiscussionMap | null {
    if (!enabled) {
      this.map = null;
      return null;
    }
    if (!this.map) {
      const map: DiscussionMap = new Map();
      const db = this.reader();
      if (db) for (const [note, d] of this.read(() => allApprovedDiscussions(db))) map.set(note, plannedDiscussion(d));
      this.map = map;
    }
    return this.map;
  }

  /** The discussions of `notes` changed (a moderation, a new mention): read just those again. */
  refresh(notes: string[]): void {
    if (!this.map || notes.length === 0) return;
    const db = this.reader();
    if (!db) return;
    for (const [note, d] of this.read(() => approvedDiscussions(db, notes))) {
      if (d.comments.length === 0 && d.mentions.length === 0) this.map.delete(note);
      else this.map.set(note, plannedDiscussion(d));
    }
  }

  private read(query: () => Map<string, NoteDiscussion>): Map<string, NoteDiscussion> {
    try {
      return query();
    } catch (err) {
      // A damaged database costs the pages their comments, never the build.
      log.warn(`comments could not be read from comments.db: ${(err as Error).message}`);
      return new Map();
    }
  }

  close(): void {
    this.db?.close();
    this.db = null;
  }
}
