// Comments (CONTRACT §8): a visitor's post checked and stored (or dropped, silently), the
// owner's moderation and replies, and every change of what visitors see handed to the
// public site as a change of that one note (its article re-renders through the build).
// Built once in admin/context.ts; the database opens with the first question asked.
import { existsSync } from 'node:fs';
import { commentsDbFile, openCommentsDb } from '../../shared/comments/db.ts';
import type { ItemStatus } from '../../shared/comments/read.ts';
import type { Config } from '../../shared/config.ts';
import { notFound, refuse, type DomainError } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';
import { encodeAddress } from '../../shared/model/addresses.ts';
import type { PostItem, PostQuery, PostRef } from '../../shared/model/posts.ts';
import { siteSettingsOf, type Settings } from '../../shared/settings.ts';
import { createRateLimiter } from '../auth/rate-limit.ts';
import { commentAnswer, mentionAnswer, type CommentAnswer, type MentionAnswer } from './answers.ts';
import { commentPath, isSilentlyDropped, parseComment, replyBody, spamSignals } from './rules.ts';
import { SentPages } from './sent-pages.ts';
import { CommentStore, newId, type ListedStatus, type QueueKey } from './store.ts';

/** What comments need of the public site (the composer hands it over: the site owns the model). */
export interface SiteLink {
  /** The published post at a vault path or address, or null (a draft and a missing note alike). */
  post(query: PostQuery): Promise<PostRef | null>;
  /** A note's approved comments or mentions changed; resolves once its pages are live. */
  discussionChanged(notePath: string): Promise<void>;
  /** The page answering a comment form posted without a script and refused (null: no site to make it). */
  commentFailurePage(failure: { message: string; article: string | null; fields: Record<string, unknown> }): Promise<string | null>;
}

export interface CommentsServiceDeps {
  config: Config;
  readSettings: () => Promise<Settings>;
  site: () => SiteLink;
}

export type ModerationAction = 'approve' | 'reject' | 'spam' | 'delete';
const ACTION_STATUS: Record<Exclude<ModerationAction, 'delete'>, ItemStatus> = { approve: 'approved', reject: 'rejected', spam: 'spam' };

export interface PostMeta {
  /** A form post: answered 303, and judged by the honeypot and the 2 s rule (a JSON post is not). */
  form: boolean;
  client: string;
}

export interface PostOutcome {
  id: string;
  status: 'pending' | 'approved';
  /** The article's address (the form's 303 goes back there). */
  address: string;
}

/** Items of the moderation queue a page holds. */
export const QUEUE_PAGE = 50;
/**
 * Comments waiting for moderation at most: past it a visitor's comment is refused (429), so
 * a flood from many networks cannot fill the disk and bury the queue (10,000 once took 52 MB).
 */
export const MAX_PENDING_COMMENTS = 1_000;

/** A queue cursor (`next` of a page) back to its key; a malformed one is a 400. */
function queueKeyOf(after: string): QueueKey {
  const m = /^(\d{1,16})\.([01])\.(\d{1,16})$/.exec(after);
  if (!m) throw refuse('bad_cursor', 'after must be the next of a page of the queue.', { field: 'after' });
  return { at: Number(m[1]), kind: Number(m[2]) as 0 | 1, rowid: Number(m[3]) };
}

export type QueueItem = (CommentAnswer & { type: 'comment' }) | (MentionAnswer & { type: 'mention' });

export class CommentsService {
  private opened: CommentStore | null = null;
  /** CONTRACT §8, §15: 3 posts a minute per client network. */
  private readonly limiter = createRateLimiter(3, 60_000);
  readonly sentPages = new SentPages();

  constructor(private readonly deps: CommentsServiceDeps) {}

  get store(): CommentStore {
    this.opened ??= new CommentStore(openCommentsDb(this.deps.config.dataDir));
    return this.opened;
  }

  /** On when COMMENTS=on or the setting says so, and how comments are moderated. */
  async settings(): Promise<{ enabled: boolean; moderation: 'all' | 'known' | 'none' }> {
    return siteSettingsOf(await this.deps.readSettings(), this.deps.config).comments;
  }

  /**
   * A visitor's question about a note: comments must be on and the note a published post
   * (else 404, as a missing one). Asked before any field is judged, so that a bad field
   * tells nothing while comments are off or of a post that is not there.
   */
  private async visitorPost(path: unknown): Promise<PostRef> {
    if (!(await this.settings()).enabled) throw notFound('Comments are off.', 'comments_off');
    const post = await this.deps.site().post({ path: commentPath(path) });
    if (!post) throw notFound('No published post at that path.', 'post');
    return post;
  }

  /** The published post at a public address (a mention's target), or null. */
  postAt(address: string): Promise<PostRef | null> {
    return this.deps.site().post({ address });
  }

  /** A note's visible comments changed: its article (and lists) re-render. */
  changed(note: string): Promise<void> {
    return this.deps.site().discussionChanged(note);
  }

  /**
   * What a visitor whose form post (without a script) was refused sees: why, and the form
   * again with what they wrote. Null when there is no site to make it (the JSON answer stands).
   */
  async failurePage(err: DomainError, fields: Record<string, unknown>): Promise<string | null> {
    const post = await this.deps.site().post({ path: typeof fields.path === 'string' ? fields.path : '' }).catch(() => null);
    const article = post ? (this.deps.config.siteUrl ?? '') + encodeAddress(post.address) : null;
    return this.deps.site().commentFailurePage({ message: err.message, article, fields });
  }

  /** POST /api/comments. */
  async post(body: Record<string, unknown>, meta: PostMeta): Promise<PostOutcome> {
    const post = await this.visitorPost(body.path);
    const input = parseComment(body);
    const { moderation } = await this.settings();
    let parent: string | null = null;
    if (input.parent) {
      const p = this.store.comment(input.parent);
      if (!p || p.note !== post.path || p.status !== 'approved') throw refuse('bad_parent', 'parent must be an approved comment of this post.', { field: 'parent' });
      // Replies nest one level: an answer to a reply joins its thread.
      parent = p.parent ?? p.id;
    }
    if (!this.limiter.attempt(meta.client)) throw refuse('too_many_attempts', 'At most 3 comments a minute; try again in a moment.', { reason: 'comments' });
    if (isSilentlyDropped(spamSignals(body), meta.form, this.sentPages.sentAt(meta.client, post.address))) {
      // Taken and dropped: the sender cannot tell it from a comment awaiting moderation.
      return { id: newId(), status: 'pending', address: post.address };
    }
    const known = moderation === 'known' && input.email !== null && this.store.isKnown(input.name, input.email);
    const status = moderation === 'none' || known ? 'approved' : 'pending';
    if (status === 'pending' && this.store.pendingComments() >= MAX_PENDING_COMMENTS) {
      throw refuse('queue_full', 'Too many comments are waiting for moderation right now; please try again later.');
    }
    const row = this.store.addComment({ note: post.path, parent, name: input.name, email: input.email, website: input.website, body: input.body, author: false, status });
    if (status === 'approved') await this.changed(post.path);
    return { id: row.id, status, address: post.address };
  }

  /** The note a GET asks about: any for the admin; for a visitor, the visitorPost rule first. */
  private async readable(path: string | null, admin: boolean): Promise<string> {
    if (!admin) await this.visitorPost(path);
    return commentPath(path);
  }

  /** GET /api/comments: approved ones for a visitor (of a published post only); all for the admin. */
  async list(path: string | null, admin: boolean): Promise<{ comments: CommentAnswer[] }> {
    const note = await this.readable(path, admin);
    return { comments: this.store.commentsOf(note, !admin).map((r) => commentAnswer(r, admin)) };
  }

  /** GET /api/mentions: the same rule. */
  async mentions(path: string | null, admin: boolean): Promise<{ mentions: MentionAnswer[] }> {
    const note = await this.readable(path, admin);
    return { mentions: this.store.mentionsOf(note, !admin).map((r) => mentionAnswer(r, admin)) };
  }

  /**
   * GET /api/comments/queue (CONTRACT §15): pending comments and mentions, newest first (of
   * one note, when named), QUEUE_PAGE at a time; `next` is the `after` of the page after.
   */
  queue(note: string | null, after: string | null, status: ListedStatus = 'pending'): { items: QueueItem[]; next: string | null; total: number } {
    const page = this.store.pendingPage(note, after === null ? null : queueKeyOf(after), QUEUE_PAGE, status);
    const items: QueueItem[] = page.items.map((i) => (i.kind === 0 ? { type: 'comment' as const, ...commentAnswer(i.row, true) } : { type: 'mention' as const, ...mentionAnswer(i.row, true) }));
    return { items, next: page.next && `${page.next.at}.${page.next.kind}.${page.next.rowid}`, total: this.store.pendingCount(note, status) };
  }

  /** POST /api/comments/moderate. */
  async moderate(id: string, action: ModerationAction): Promise<{ id: string; status: ItemStatus | 'deleted' }> {
    const comment = this.store.comment(id);
    const mention = comment ? null : this.store.mention(id);
    if (!comment && !mention) throw notFound('No comment or mention with that id.', 'comment_or_mention');
    const note = (comment ?? mention)!.note;
    const was = (comment ?? mention)!.status;
    let status: ItemStatus | 'deleted';
    if (action === 'delete') {
      if (comment) this.store.deleteComment(id);
      else this.store.deleteMention(id);
      status = 'deleted';
    } else {
      status = ACTION_STATUS[action];
      if (comment) this.store.setCommentStatus(id, status);
      else this.store.setMentionStatus(id, status);
    }
    // Only what visitors see re-renders the article (a pending comment rejected changes nothing there).
    if (was === 'approved' || status === 'approved') void this.changed(note);
    return { id, status };
  }

  /** POST /api/comments/reply: the site's author answers, approved at once (the comment answered is approved too). */
  async reply(id: string, body: unknown): Promise<{ id: string; status: 'approved' }> {
    const to = this.store.comment(id);
    if (!to) throw notFound('No comment with that id.', 'comment');
    const text = replyBody(body);
    if (to.status !== 'approved') this.store.setCommentStatus(to.id, 'approved');
    const site = siteSettingsOf(await this.deps.readSettings(), this.deps.config);
    const row = this.store.addComment({ note: to.note, parent: to.parent ?? to.id, name: site.siteName, email: null, website: null, body: text, author: true, status: 'approved' });
    void this.changed(to.note);
    return { id: row.id, status: 'approved' };
  }

  /** spec 2.5 `commentCount`: approved comments for a visitor, every comment for the admin; absent while comments are off. */
  async withCounts(posts: PostItem[], admin: boolean): Promise<PostItem[]> {
    if (!(await this.settings()).enabled) return posts;
    const counts = this.store.counts(!admin);
    return posts.map((p) => ({ ...p, commentCount: counts.get(p.path) ?? 0 }));
  }

  /** GET /api/comments/export: the whole database, as JSON. */
  export(): Record<string, unknown> {
    return { exportedAt: new Date().toISOString(), ...this.store.everything() };
  }

  /** A note or folder was renamed, trashed, restored or erased through the app: its comments and mentions follow it. */
  moved(from: string, to: string): void {
    if (!this.opened && !existsSync(commentsDbFile(this.deps.config.dataDir))) return;
    try {
      const moves = this.store.moveNotes((note) => (note === from ? to : note.startsWith(from + '/') ? to + note.slice(from.length) : null));
      // Both ends re-render: a new note may already stand at the old path (a trashed note's).
      for (const [was, now] of moves) {
        void this.changed(was);
        void this.changed(now);
      }
    } catch (err) {
      // The rename is done; its comments stay under the old path (still in the export).
      log.warn(`comments of ${from} could not follow it to ${to}: ${(err as Error).message}`);
    }
  }

  close(): void {
    this.opened?.close();
    this.opened = null;
  }
}
