// Where prepared pages come from: the cache, else the built file (read once,
// filled for a base URL, compressed, stored). After each build it drops what the
// build changed and prepares the changed and most visited pages again in the
// background, so a visitor's request finds its bytes ready.
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import type { ServedEntry } from '../plan/plan-types.ts';
import type { BuildResult } from '../build/site-builder.ts';
import { PageCache } from './page-cache.ts';
import { pageHeaders, type HeaderRules } from './page-headers.ts';
import { prepare, prepareNow, type PrepareInput, type Prepared } from './prepared.ts';
import type { SiteIndex } from './site-index.ts';
import { materializeBytes } from './substitute.ts';

export const NOT_FOUND_KEY = '/404';

/**
 * Without SITE_URL, how many base URLs (the names a site is reached by, from Host or
 * X-Forwarded-Host) get pages kept of their own: a few (localhost, a LAN address, a domain).
 * Any other name gets its pages made for it at each request, uncompressed and not kept: a
 * page is never sent with another name's base URL (forged names once took every place and
 * every visitor got their links), and a client sending a new Host with every request grows
 * nothing (it once grew the server to 2.6 GB with compressions in flight).
 */
export const MAX_BASES = 4;
/** A base unused for this long gives its place up. */
const BASE_IDLE_MS = 10 * 60_000;

/** Lists first (the home page, topics), then feeds, then everything else. */
function warmRank(address: string): number {
  if (address === '/') return 0;
  if (/^\/(topic|folder|page)\//.test(address)) return 1;
  if (address.endsWith('.xml') || address.includes('.xml?')) return 2;
  return 3;
}

export class PageSource {
  private inflight = new Map<string, Promise<Prepared | null>>();
  private queue: string[] = [];
  /** The warming under way (it takes what is queued meanwhile too), or null. */
  private warming: Promise<void> | null = null;
  private base: string | null;
  /** Bases whose pages are kept (MAX_BASES), and when each was last asked for. */
  private readonly bases = new Map<string, number>();
  /** What every page's style marker becomes: the link to the designer's custom.css, or nothing. */
  private style = '';

  constructor(
    private readonly index: SiteIndex,
    private readonly cache: PageCache,
    private readonly rules: HeaderRules & { siteUrl: string | null },
  ) {
    this.base = rules.siteUrl;
  }

  /** A page for a visitor who is waiting: from the cache, else prepared now, on this thread. */
  now(base: string, key: string, entry: ServedEntry): Prepared | null {
    const ck = PageCache.key(base, key);
    const hit = this.cache.get(ck);
    if (hit) {
      this.admitted(base);
      return hit;
    }
    const kept = this.admitted(base);
    if (kept && base !== this.base) this.sawBase(base);
    const dir = this.index.dir;
    if (!dir) return null;
    const stamp = this.cache.stamp(key);
    let raw: Buffer;
    try {
      raw = readFileSync(path.join(dir, entry.file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    if (!kept) return prepareNow({ ...this.input(raw, base, key, entry), compress: false });
    const prepared = prepareNow(this.input(raw, base, key, entry));
    // Held as it is, a big page is compressed off this thread for the next visitor; one too
    // big to hold at all is prepared again (uncompressed) for each, never compressed.
    if (this.cache.set(ck, stamp, prepared) && prepared.deferred) void this.warmOne(base, key, entry).catch(() => null);
    return prepared;
  }

  /** The same off this thread, for warming (nobody is waiting). */
  private warmOne(base: string, key: string, entry: ServedEntry): Promise<unknown> {
    const ck = PageCache.key(base, key);
    if (this.cache.ready(ck) || this.inflight.has(ck)) return Promise.resolve();
    const pending = this.load(ck, base, key, entry).finally(() => this.inflight.delete(ck));
    this.inflight.set(ck, pending);
    return pending;
  }

  private async load(ck: string, base: string, key: string, entry: ServedEntry): Promise<Prepared | null> {
    const dir = this.index.dir;
    if (!dir) return null;
    const stamp = this.cache.stamp(key);
    let raw: Buffer;
    try {
      raw = await fs.readFile(path.join(dir, entry.file));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
    const prepared = await prepare(this.input(raw, base, key, entry));
    this.cache.set(ck, stamp, prepared);
    return prepared;
  }

  /** What a built page becomes: filled for `base` (the topic row too). */
  private input(raw: Buffer, base: string, key: string, entry: ServedEntry): PrepareInput {
    const { body, edits, notice } = materializeBytes(raw, base, this.index.nav, this.style);
    return {
      status: key === NOT_FOUND_KEY ? 404 : 200,
      body,
      edits,
      notice,
      headers: pageHeaders(entry.type, entry.file, this.rules),
      compress: true,
    };
  }

  /** Whether pages for `base` are kept: SITE_URL's always; else one of the few in use (MAX_BASES). */
  private admitted(base: string): boolean {
    if (this.rules.siteUrl !== null) return true;
    const now = Date.now();
    if (this.bases.has(base)) {
      this.bases.set(base, now);
      return true;
    }
    for (const [other, seen] of this.bases) if (now - seen > BASE_IDLE_MS) this.bases.delete(other);
    if (this.bases.size >= MAX_BASES) return false;
    this.bases.set(base, now);
    return true;
  }

  /** A new custom.css: every page is prepared again with its link (no build: the pages' files hold a marker). */
  restyle(style: string): void {
    if (style === this.style) return;
    this.style = style;
    void this.prepareAll();
  }

  /** Without SITE_URL the base comes from requests: the latest one seen is warmed. */
  private sawBase(base: string): void {
    const first = this.base === null;
    this.base = base;
    if (first) void this.warm([...this.index.addresses()], false);
  }

  /**
   * A finished build: forget what it changed, then prepare it again. Answers once it is
   * prepared: true when that was every page (a full build, or a new topic row in each).
   */
  async applied(result: BuildResult): Promise<boolean> {
    if (result.full || result.nav !== null) {
      await this.prepareAll();
      return true;
    }
    const changed = [...result.upserts.map(([a]) => a), ...result.removals];
    this.cache.invalidate(changed);
    this.cache.invalidate([NOT_FOUND_KEY]);
    await this.warm(
      result.upserts.map(([a]) => a),
      false,
    );
    return false;
  }

  /** Forgets every prepared page and prepares them all again, in place of what was queued. */
  private prepareAll(): Promise<void> {
    this.cache.clear();
    this.cache.invalidate([NOT_FOUND_KEY]);
    return this.warm([...this.index.addresses()], true);
  }

  private warm(addresses: string[], replace: boolean): Promise<void> {
    // Files are sirv's (site-files.ts): only pages are prepared.
    const ranked = addresses
      .filter((a) => this.index.get(a)?.type !== 'file')
      .sort((a, b) => warmRank(a) - warmRank(b));
    this.queue = replace ? ranked : [...ranked, ...this.queue];
    if (!this.queue.includes(NOT_FOUND_KEY)) this.queue.unshift(NOT_FOUND_KEY);
    this.warming ??= this.drain();
    return this.warming;
  }

  /** One page at a time, so warming never crowds out visitors; stops at the budget. */
  private async drain(): Promise<void> {
    // From the next microtask: `warming` holds this run before the loop can end and clear it.
    await null;
    try {
      for (;;) {
        const base = this.base;
        const key = this.queue.shift();
        if (key === undefined || base === null) break;
        const entry = this.index.get(key);
        if (!entry) continue;
        if (!this.cache.fits(32 * 1024)) {
          this.queue = [];
          break;
        }
        await this.warmOne(base, key, entry).catch(() => null);
      }
    } finally {
      // In the run's last step, not a microtask after it: pages queued from then on start a new run.
      this.warming = null;
    }
  }
}
