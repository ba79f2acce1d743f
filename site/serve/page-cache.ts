// The bounded in-memory cache of prepared pages, keyed by base URL and address
// (the built files on disk are the backing store). Pages not used since the last
// sweep go first (second chance: a hit only sets a flag, so reading costs one lookup). A build invalidates what it changed; a page prepared from a build that
// has since been replaced is never stored (its stamp no longer matches).
import type { Prepared } from './prepared.ts';

interface Entry {
  address: string;
  prepared: Prepared;
  used: boolean;
}

export type Stamp = { epoch: number; address: string; n: number };

export class PageCache {
  private entries = new Map<string, Entry>();
  private bytes = 0;
  private epoch = 0;
  /** Per address: how many times it was invalidated in this epoch. */
  private stamps = new Map<string, number>();

  constructor(private readonly budget: number) {}

  static key(base: string, address: string): string {
    return base + '\u0000' + address;
  }

  get size(): { pages: number; bytes: number } {
    return { pages: this.entries.size, bytes: this.bytes };
  }

  get(key: string): Prepared | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.prepared;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  /** Held and final: not a page sent as it is until its compressed copies are made. */
  ready(key: string): boolean {
    return this.entries.get(key)?.prepared.deferred === false;
  }

  /** Taken before preparing a page; `set` refuses it if the page changed meanwhile. */
  stamp(address: string): Stamp {
    return { epoch: this.epoch, address, n: this.stamps.get(address) ?? 0 };
  }

  /** Whether there is room for `size` more bytes without evicting. */
  fits(size: number): boolean {
    return this.bytes + size <= this.budget;
  }

  set(key: string, stamp: Stamp, prepared: Prepared): boolean {
    if (stamp.epoch !== this.epoch || (this.stamps.get(stamp.address) ?? 0) !== stamp.n) return false;
    // A share of the budget: one page never flushes the rest (a page sent as it is, up to a few MB, fits).
    if (prepared.size > this.budget / 4) return false;
    this.drop(key);
    while (this.bytes + prepared.size > this.budget && this.entries.size) this.evictOne();
    this.entries.set(key, { address: stamp.address, prepared, used: false });
    this.bytes += prepared.size;
    prepared.onHeld = (bytes) => this.grew(key, prepared, bytes);
    return true;
  }

  /** A held page made its plain bytes (prepared.ts): counted, and room made for them. */
  private grew(key: string, prepared: Prepared, bytes: number): void {
    if (this.entries.get(key)?.prepared !== prepared) return;
    this.bytes += bytes;
    while (this.bytes > this.budget && this.entries.size) this.evictOne();
  }

  /** The oldest entry not used since it was last passed over; used ones go to the back once. */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (entry.used) {
        entry.used = false;
        this.entries.set(key, entry);
        continue;
      }
      this.bytes -= entry.prepared.size;
      return;
    }
  }

  private drop(key: string): void {
    const old = this.entries.get(key);
    if (!old) return;
    this.entries.delete(key);
    this.bytes -= old.prepared.size;
  }

  /** Forgets these addresses (for every base). */
  invalidate(addresses: Iterable<string>): void {
    const gone = new Set(addresses);
    if (gone.size === 0) return;
    for (const a of gone) this.stamps.set(a, (this.stamps.get(a) ?? 0) + 1);
    for (const [key, entry] of this.entries) if (gone.has(entry.address)) this.drop(key);
  }

  /** Forgets everything (a full build, a new topic row). */
  clear(): void {
    this.entries.clear();
    this.stamps.clear();
    this.bytes = 0;
    this.epoch++;
  }
}
