// What the planner keeps from one plan to the next, owned by the site builder (one per
// builder, handed to each plan's PageContext; never module state): signatures made once and
// kept while what they read holds, and the texts worked out per address.
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { SigCache } from './sig-cache.ts';

/** Full-content feed items' HTML kept at most (the newest posts are what feeds show). */
export const FEED_BODIES_MAX = 1000;
/** Stable objects kept per address at most, before they start again. */
const KEYS_MAX = 100_000;

export class PlanMemory {
  /** Encoded addresses (they never change). */
  readonly encoded = new Map<string, string>();
  /** Card signatures, by note. */
  readonly cardSigs = new SigCache<NoteRecord>();
  /** Article signatures, by note. */
  readonly articleSigs = new SigCache<NoteRecord>();
  /** Full-content feed items' HTML by note path, while the note and what it resolves to hold (bounded). */
  readonly feedBodies = new Map<string, { note: NoteRecord; sig: string; html: string }>();
  /** List pages' and feeds' signatures, keyed by a stable object per address. */
  readonly listSigs = new SigCache<object>();
  readonly feedSigs = new SigCache<object>();
  private readonly keys = new Map<string, object>();

  /** The stable object standing for `address` in a signature cache. */
  keyOf(address: string): object {
    let key = this.keys.get(address);
    if (!key) {
      if (this.keys.size > KEYS_MAX) this.keys.clear();
      this.keys.set(address, (key = {}));
    }
    return key;
  }
}
