// Receiving W3C Webmentions (CONTRACT §8). POST /webmention checks what it can at once
// (two http(s) URLs, different, the target a published article here, the source not on a
// private network) and answers 202; the source is fetched after the answer, a few checks at
// a time, each sender in turn: it must link to the target, and its h-entry says who wrote what. The same pair sent
// again updates the mention; a source that answers 410 or no longer links removes it.
import type { Config } from '../../shared/config.ts';
import { refuse } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';
import { decodeRequestPath } from '../../shared/model/addresses.ts';
import type { CommentsService } from './service.ts';
import { linksTo, parseMention } from './mention-parse.ts';
import { checkedAddress, fetchSource, isBadPort, SourceRefused } from './source-fetch.ts';

const MAX_URL = 2_048;
/** Checks waiting at most: a flood is refused (429), not queued without end. */
export const MAX_QUEUE = 200;
/** One sender's share of the queue: a single client cannot keep every other site waiting. */
export const MAX_QUEUED_PER_CLIENT = 10;
/**
 * Checks running at once. One at a time, 20 senders' sources that never answer held the
 * queue for some 17 minutes (5 s each), every other sender refused meanwhile (a reviewer's find).
 */
export const CHECKS_AT_ONCE = 4;

interface Job {
  source: string;
  target: string;
  note: string;
  /** Who sent it (the connection's address). */
  client: string;
}

function httpUrl(value: unknown, field: string): URL {
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_URL) throw refuse('bad_url', `${field} must be an http(s) URL.`, { field });
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw refuse('bad_url', `${field} must be an http(s) URL.`, { field });
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) throw refuse('bad_url', `${field} must be an http(s) URL.`, { field });
  return url;
}

const withoutHash = (u: URL) => {
  const c = new URL(u.href);
  c.hash = '';
  return c.href;
};

export class Webmentions {
  private queue: Job[] = [];
  /** Checks running, and how many of them each sender has. */
  private running = 0;
  private runningBy = new Map<string, number>();
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly config: Config,
    private readonly comments: CommentsService,
  ) {}

  /** The address a target names on this site, or null when it is not here (CONTRACT §8). */
  private addressHere(target: URL, requestHosts: string[]): string | null {
    let path = target.pathname;
    if (this.config.siteUrl) {
      const site = new URL(this.config.siteUrl);
      if (target.host.toLowerCase() !== site.host.toLowerCase()) return null;
      const prefix = site.pathname.replace(/\/+$/, '');
      if (prefix) {
        if (!(path === prefix || path.startsWith(prefix + '/'))) return null;
        path = path.slice(prefix.length) || '/';
      }
    } else if (!requestHosts.some((h) => h.toLowerCase() === target.host.toLowerCase())) return null;
    return decodeRequestPath(path);
  }

  /** POST /webmention: a bad request is refused with 400 (nothing queued); else queued for checking. */
  async receive(fields: Record<string, unknown>, requestHosts: string[], client = 'unknown'): Promise<void> {
    if (!(await this.comments.settings()).enabled) throw refuse('not_found', 'Mentions are off.');
    const source = httpUrl(fields.source, 'source');
    if (isBadPort(source)) throw refuse('bad_url', `source must not name port ${source.port}, which no browser fetches.`, { field: 'source' });
    const target = httpUrl(fields.target, 'target');
    if (withoutHash(source) === withoutHash(target)) throw refuse('same_url', 'source and target must differ.', { field: 'source' });
    const address = this.addressHere(target, requestHosts);
    const post = address ? await this.comments.postAt(address) : null;
    if (!post) throw refuse('bad_target', 'target is not a published article here.', { field: 'target' });
    try {
      await checkedAddress(source.hostname, this.config.webmentionAllowPrivate);
    } catch (err) {
      if (err instanceof SourceRefused) throw refuse('private_source', 'source must be on the public internet.', { field: 'source' });
      throw refuse('bad_url', 'source cannot be resolved.', { field: 'source' });
    }
    // One mention per page and post: a fragment or a query names neither another page nor another post.
    source.hash = '';
    target.hash = '';
    target.search = '';
    const job = { source: source.href, target: target.href, note: post.path, client };
    if (this.queue.some((j) => j.source === job.source && j.target === job.target)) return;
    const tooMany = this.queue.filter((j) => j.client === client).length >= MAX_QUEUED_PER_CLIENT || (this.queue.length >= MAX_QUEUE && !this.makeRoomFor(client));
    if (tooMany) throw refuse('too_many_attempts', 'Too many mentions are waiting to be checked; try again later.');
    this.queue.push(job);
    this.pump();
  }

  /**
   * A full queue takes a sender with fewer mentions waiting than the one with the most: that
   * one's newest waiting mention is dropped (a 202 promises a check, as far as room allows).
   */
  private makeRoomFor(client: string): boolean {
    const waiting = new Map<string, number>();
    for (const j of this.queue) waiting.set(j.client, (waiting.get(j.client) ?? 0) + 1);
    let most: string | null = null;
    for (const [c, n] of waiting) if (most === null || n > waiting.get(most)!) most = c;
    if (most === null || waiting.get(most)! <= (waiting.get(client) ?? 0) + 1) return false;
    this.queue.splice(this.queue.findLastIndex((j) => j.client === most), 1);
    return true;
  }

  /** Starts checks while there is room: first a sender with none running, else the oldest waiting. */
  private pump(): void {
    while (this.running < CHECKS_AT_ONCE && this.queue.length > 0) {
      const free = this.queue.findIndex((j) => !this.runningBy.has(j.client));
      const [job] = this.queue.splice(Math.max(free, 0), 1) as [Job];
      this.running++;
      this.runningBy.set(job.client, (this.runningBy.get(job.client) ?? 0) + 1);
      void this.check(job)
        .catch((err) => log.warn(`webmention from ${job.source} could not be checked: ${(err as Error).message}`))
        .finally(() => {
          this.running--;
          const left = this.runningBy.get(job.client)! - 1;
          if (left > 0) this.runningBy.set(job.client, left);
          else this.runningBy.delete(job.client);
          this.pump();
          if (this.running === 0 && this.queue.length === 0) for (const w of this.idleWaiters.splice(0)) w();
        });
    }
  }

  /** Fetches the source and stores, updates or removes the mention. */
  private async check(job: Job): Promise<void> {
    const answer = await fetchSource(job.source, this.config.webmentionAllowPrivate);
    const store = this.comments.store;
    const existing = store.mentionOf(job.source, job.target);
    const remove = (why: string) => {
      if (!existing) return;
      store.deleteMention(existing.id);
      log.info(`webmention from ${job.source} removed: ${why}`);
      if (existing.status === 'approved') void this.comments.changed(existing.note);
    };
    if (answer.kind === 'gone') return remove('the source is gone (410)');
    if (answer.kind === 'refused') return log.warn(`webmention from ${job.source} refused: ${answer.reason}`);
    // CONTRACT §8: only a 410, or a page that no longer links, deletes a mention. Anyone can
    // have a source checked again, and many sites answer a checker 403: that keeps it as it is.
    if (answer.kind === 'failed') return log.warn(`webmention from ${job.source} not checked: ${answer.reason}`);
    if (!linksTo(answer.body, answer.contentType, answer.url, job.target)) return remove('the source no longer links to the target');
    const parsed = /html|xml/i.test(answer.contentType) ? await parseMention(answer.body, answer.url, job.target) : null;
    const { moderation } = await this.comments.settings();
    const { row, created } = store.upsertMention(
      {
        note: job.note,
        source: job.source,
        target: job.target,
        kind: parsed?.kind ?? 'mention',
        authorName: parsed?.author.name ?? null,
        authorUrl: parsed?.author.url ?? null,
        authorPhoto: parsed?.author.photo ?? null,
        content: parsed?.content ?? null,
        // A date from the future is taken as now.
        publishedAt: parsed?.publishedAt != null ? Math.min(parsed.publishedAt, Date.now()) : null,
      },
      moderation === 'none' ? 'approved' : 'pending',
    );
    if (row.status === 'approved') void this.comments.changed(row.note);
    if (!created && existing && existing.note !== row.note && existing.status === 'approved') void this.comments.changed(existing.note);
  }

  /** Resolves once every queued check has run. */
  idle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }
}
