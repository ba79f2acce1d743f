// The addresses the live site holds, kept in step with each finished build. Only
// an address in the index is ever served, so a file left behind on disk can
// never leak a page that is no longer published.
import { collectionSlug } from '../../shared/note/fields.ts';
import type { BuildResult } from '../build/site-builder.ts';
import type { ServedEntry } from '../plan/plan-types.ts';

/**
 * A lenient form of an address: case, spaces, trailing slashes and Unicode
 * normalisation (a macOS file name is NFD, a typed address NFC) do not count.
 */
export function looseKey(address: string): string {
  let a = address.normalize('NFC').trim().replace(/(?<!\/)\/+$/, '') || '/';
  const folder = /^\/folder\/(.+)$/i.exec(a);
  if (folder) return '/folder/' + collectionSlug(folder[1]!);
  a = a.replace(/\s+/g, '-');
  return a.toLowerCase();
}

/** `/A/B/B`: a page named as its folder, as a folder note `A/B/B.md` is addressed. */
function isNamedFolderNote(address: string): boolean {
  const last = address.lastIndexOf('/');
  const above = address.lastIndexOf('/', last - 1);
  return above >= 0 && last - above > 1 && looseKey(address.slice(last)) === looseKey(address.slice(above, last));
}

export class SiteIndex {
  private entries = new Map<string, ServedEntry>();
  private loose: Map<string, string> | null = null;
  /** Old addresses answering 301 (CONTRACT §7: permalinks, moved notes), from the builder. */
  private moved = new Map<string, string>();
  dir: string | null = null;
  nav = '';
  /** Bumped on every build: part of each served page's ETag. */
  version = 0;

  get ready(): boolean {
    return this.dir !== null;
  }

  get(address: string): ServedEntry | undefined {
    return this.entries.get(address);
  }

  addresses(): IterableIterator<string> {
    return this.entries.keys();
  }

  /** Where an old address now lives, if it moved. */
  redirect(address: string): string | undefined {
    return this.moved.get(address) ?? this.moved.get(address.normalize('NFC')) ?? this.moved.get(address.normalize('NFD'));
  }

  /**
   * The canonical address a lenient spelling stands for, if exactly one: a page's, else an
   * old address's new one (`/home` for the home note's `/Home`), else a folder note's for its
   * folder (`/Garden/` for `/Garden/index`, as a static host serves `Garden/index.html`, and
   * for `/Garden/Garden`). A folder without a folder note is a page of its own (`/Garden`).
   */
  canonical(address: string): string | null {
    // A trailing slash on a page's own spelling: that page, even when another differs from it only in case.
    const trimmed = address.replace(/(?<!\/)\/+$/, '');
    if (trimmed !== address && trimmed !== '') {
      for (const form of [trimmed, trimmed.normalize('NFC'), trimmed.normalize('NFD')]) if (this.entries.has(form)) return form;
    }
    if (!this.loose) {
      const pages = new Map<string, string>();
      const besides = new Map<string, string>();
      const addressOnce = (into: Map<string, string>, clash: Set<string>, key: string, a: string) => {
        if (into.has(key) && into.get(key) !== a) clash.add(key);
        else into.set(key, a);
      };
      const pageClash = new Set<string>();
      const besideClash = new Set<string>();
      for (const a of this.entries.keys()) {
        if (a.includes('?')) continue;
        addressOnce(pages, pageClash, looseKey(a), a);
        if (a.endsWith('/index')) addressOnce(besides, besideClash, looseKey(a.slice(0, -'/index'.length)), a);
        // `Garden/Garden.md`, the other folder note (site/plan/explorer.ts isFolderNote): its folder's address too.
        else if (isNamedFolderNote(a)) addressOnce(besides, besideClash, looseKey(a.slice(0, a.lastIndexOf('/'))), a);
      }
      for (const [from, to] of this.moved) addressOnce(besides, besideClash, looseKey(from), to);
      for (const k of pageClash) pages.delete(k);
      for (const k of besideClash) besides.delete(k);
      for (const [k, a] of besides) if (!pages.has(k) && !pageClash.has(k)) pages.set(k, a);
      this.loose = pages;
    }
    return this.loose.get(looseKey(address)) ?? null;
  }

  /** Synchronous on purpose: builds are applied in the order they finished, whole. */
  apply(result: BuildResult): void {
    if (result.full) {
      this.entries = new Map(result.entries ?? []);
    } else {
      for (const address of result.removals) this.entries.delete(address);
      for (const [address, entry] of result.upserts) this.entries.set(address, entry);
    }
    if (result.nav !== null) this.nav = result.nav;
    if (result.redirects) this.moved = new Map(result.redirects);
    this.dir = result.dir;
    this.loose = null;
    this.version++;
  }
}
