// Signatures reused from one plan to the next. A note whose record, neighbours and
// surroundings are the very same objects as last time has the same signature: the
// string is not built again. Everything a page is rendered from must be in `deps`.
// What is kept is the signature's digest: the strings run to kilobytes a page (links'
// addresses and headings) and would be most of what a builder holds between edits.
import { digest } from './sig-digests.ts';

export class SigCache<K extends object> {
  private entries = new WeakMap<K, { deps: unknown[]; sig: string }>();

  get(key: K, deps: unknown[], make: () => string): string {
    const known = this.entries.get(key);
    if (known && known.deps.length === deps.length && known.deps.every((d, i) => d === deps[i])) return known.sig;
    const sig = digest(make());
    this.entries.set(key, { deps, sig });
    return sig;
  }
}
