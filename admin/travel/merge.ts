// Three-way merge of a mirrored JSON file that both this device and the vault changed
// since they last agreed (spec 8): two servers saving different settings a moment apart
// must both keep both. Objects merge key by key against the copy both last agreed on; a
// key only one side changed takes that side's value (a key it removed stays removed). A
// key both changed to different values, or a list or value both changed, is a conflict:
// the side named `newer` wins it, so every server that merges the same copies agrees.
import { isDeepStrictEqual } from 'node:util';

export interface Merged {
  value: unknown;
  /** Dotted paths of the keys both sides changed differently (`''` for the whole file). */
  conflicts: string[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `undefined` stands for an absent key. */
export function mergeJson(base: unknown, local: unknown, vault: unknown, newer: 'local' | 'vault'): Merged {
  const conflicts: string[] = [];
  const merge = (b: unknown, l: unknown, v: unknown, at: string): unknown => {
    if (isDeepStrictEqual(l, v)) return l;
    if (isDeepStrictEqual(l, b)) return v;
    if (isDeepStrictEqual(v, b)) return l;
    if (isPlainObject(l) && isPlainObject(v)) {
      const from = isPlainObject(b) ? b : {};
      const out: Record<string, unknown> = {};
      for (const key of new Set([...Object.keys(l), ...Object.keys(v)])) {
        const value = merge(from[key], l[key], v[key], at ? `${at}.${key}` : key);
        // Defined, not assigned: a `__proto__` key from a vault copy stays a plain key.
        if (value !== undefined) Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    conflicts.push(at);
    return newer === 'local' ? l : v;
  };
  return { value: merge(base, local, vault, ''), conflicts };
}
