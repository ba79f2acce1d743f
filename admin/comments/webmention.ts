// Receiving W3C Webmentions (CONTRACT §8, §15). POST /webmention checks what it can without
// waiting on anyone (two http(s) URLs, different, the target a published article here, a
// source named by address not on a private network) and answers 202 at once; the source's
// name is looked up and the source fetched after the answer, a few checks at a time, each
// sender network in turn and holding a few places at most: it must link to the target, and
// its h-entry says who wrote what. The same pair sent again updates the mention; a source
// that answers 410 or no longer links removes it.
import type { Config } from '../../shared/config.ts';
import { refuse } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';
import { decodeRequestPath } from '../../shared/model/addresses.ts';
import type { CommentsService } from './service.ts';
import { linksTo, parseMention } from './mention-parse.ts';
import { networkKey } from '../auth/rate-limit.ts';
import { checkedAddress, dnsResolver, fetchSource, isBadPort, literalAddress, type Resolve } from './source-fetch.ts';

const MAX_URL = 2_048;
/** Checks waiting at most: a flood is refused (429), not queued without end. */
export const MAX_QUEUE = 200;
/** One sender network's places in the queue: a single sender cannot keep every other site waiting. */
export const MAX_QUEUED_PER_NETWORK = 5;
/**
 * Checks running at once, and of one sender network: slow sources (5 s each) and slow names
 * (LOOKUP_TIMEOUT_MS) of one sender hold two at most, so another sender's check starts at once.
 */
export const CHECKS_AT_ONCE = 8;
export const CHECKS_PER_NETWORK = 2;
/** Mentions waiting for moderation at most: past it a new one is dropped (logged), as comments are refused. */
export const MAX_PENDING_MENTIONS = 1_000;

interface Job {
  source: string;
  target: string;
  note: string;
  /** Who sent it: the connection's network (networkKey). */
  network: string;
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
  private readonly resolve: Resolve;

  constructor(
    private readonly config: Config,
    private readonly comments: CommentsService,
  ) {
    this.resolve = dnsResolver(config.webmentionDns);
  }

  /** The address a target names on this site, or null when it is not here (CONTRACT §8). */
  private addressHere(target: URL, requestHosts: string[]): string | null {
    let path = target.pathname;
    if (this.config.siteUrl) {
      const site = new URL(this.config.siteUrl);
      if (target.host.toLowerCase() !== site.host.toLowerCase()) return null;
      const prefix = site.pathname.replace(/(?<!\/)\/+$/, '');
      if (prefix) {
        if (!(path === prefix || path.startsWith(prefix + '/'))) return null;
        path = path.slice(prefix.length) || '/';
      }
    } else if (!requestHosts.some((h) => h.toLowerCase() === target.host.toLowerCase())) return null;
    return decodeRequestPath(path);
  }

  /** POST /webmention: a bad request is refused with 400 (nothing queued); else queued for checking. */
  async receive(fields: Record<string, unknown>, requestHosts: string[], client = 'unknown'): Promise<void> {
    if (!(await this.comments.settings()).enabled) throw refuse('not_found', 'Mentions are off.', { reason: 'mentions_off' });
    const source = httpUrl(fields.source, 'source');
    if (isBadPort(source)) throw refuse('bad_url', `source must not name port ${source.port}, which no browser fetches.`, { field: 'source', reason: 'port', port: source.port });
    const target = httpUrl(fields.target, 'target');
    if (withoutHash(source) === withoutHash(target)) throw refuse('same_url', 'source and target must differ.', { field: 'source' });
    const address = this.addressHere(target, requestHosts);
    const post = address ? await this.comments.postAt(address) : null;
    if (!post) throw refuse('bad_target', 'target is not a published article here.', { field: 'target' });
    // Only what needs no lookup is refused here: a name is resolved after the answer, with its own time-out.
    if (literalAddress(source.hostname) || /^localhost\.?$|\.localhost\.?$/i.test(source.hostname)) {
      try {
        await checkedAddress(source.hostname, this.config.webmentionAllowPrivate, this.resolve);
      } catch {
        throw refuse('private_source', 'source must be on the public internet.', { field: 'source' });
      }
    }
    // One mention per page and post: a fragment or a query names neither another page nor another post.
    source.hash = '';
    target.hash = '';
    target.search = '';
    const network = networkKey(client);
    const job = { source: source.href, target: target.href, note: post.path, network };
    if (this.queue.some((j) => j.source === job.source && j.target === job.target)) return;
    const tooMany = this.queue.filter((j) => j.network === network).length >= MAX_QUEUED_PER_NETWORK || (this.queue.length >= MAX_QUEUE && !this.makeRoomFor(network));
    if (tooMany) throw refuse('too_many_attempts', 'Too many mentions are waiting to be checked; try again later.', { reason: 'mentions' });
    this.queue.push(job);
    this.pump();
  }

  /**
   * A full queue takes a sender with fewer mentions waiting than the one with the most: that
   * one's newest waiting mention is dropped (a 202 promises a check, as far as room allows).
   */
  private makeRoomFor(network: string): boolean {
    const waiting = new Map<string, number>();
    for (const j of this.queue) waiting.set(j.network, (waiting.get(j.network) ?? 0) + 1);
    let most: string | null = null;
    for (const [c, n] of waiting) if (most === null || n > waiting.get(most)!) most = c;
    if (most === null || waiting.get(most)! <= (waiting.get(network) ?? 0) + 1) return false;
    this.queue.splice(this.queue.findLastIndex((j) => j.network === most), 1);
    return true;
  }

  /** The next job to start: the oldest of a network with nothing running, else of one under its share; -1 for none. */
  private nextJob(): number {
    const idle = this.queue.findIndex((j) => !this.runningBy.has(j.network));
    return idle >= 0 ? idle : this.queue.findIndex((j) => (this.runningBy.get(j.network) ?? 0) < CHECKS_PER_NETWORK);
  }

  /** Starts checks while there is room. */
  private pump(): void {
    while (this.running < CHECKS_AT_ONCE) {
      const at = this.nextJob();
      if (at < 0) break;
      const [job] = this.queue.splice(at, 1) as [Job];
      this.running++;
      this.runningBy.set(job.network, (this.runningBy.get(job.network) ?? 0) + 1);
      void this.check(job)
        .catch((err) => log.warn(`webmention from ${job.source} could not be checked: ${(err as Error).message}`))
        .finally(() => {
          this.running--;
          const left = this.runningBy.get(job.network)! - 1;
          if (left > 0) this.runningBy.set(job.network, left);
          else this.runningBy.delete(job.network);
          this.pump();
          if (this.running === 0 && this.queue.length === 0) for (const w of this.idleWaiters.splice(0)) w();
        });
    }
  }

  /** Fetches the source and stores, updates or removes the mention. */
  private async check(job: Job): Promise<void> {
    const answer = await fetchSource(job.source, this.config.webmentionAllowPrivate, this.resolve);
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
    if (!existing && moderation !== 'none' && store.pendingMentions() >= MAX_PENDING_MENTIONS) {
      return log.warn(`webmention from ${job.source} dropped: ${MAX_PENDING_MENTIONS} mentions already wait for moderation`);
    }
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
