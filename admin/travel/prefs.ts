// Device preferences (spec 8, Appendix C): a map of keys, each stamped with the time
// of its last change. Two copies merge key by key, the newest change winning; a
// cleared key keeps a stamped tombstone, so the clear travels like a value. Sizes are
// bounded and malformed entries are dropped on the way in.

export interface PrefEntry {
  /** Epoch milliseconds of the change. */
  at: number;
  value?: unknown;
  cleared?: true;
}

export interface PrefsDoc {
  version: 1;
  keys: Record<string, PrefEntry>;
}

export const PREF_LIMITS = {
  keyLength: 128,
  /** Bytes of a value's JSON text. */
  valueBytes: 4096,
  /** Entries kept, tombstones included. */
  keyCount: 1000,
};

export function emptyPrefs(): PrefsDoc {
  return { version: 1, keys: {} };
}

/** Null when the key is acceptable, else why not. */
export function checkPrefKey(key: string): string | null {
  if (key.length === 0 || key.length > PREF_LIMITS.keyLength) return `a key is 1 to ${PREF_LIMITS.keyLength} characters`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'a key may not contain control characters';
  // Every plain object already has these names (`constructor`, `toString`, `__proto__`…): a key may not shadow one.
  if (key in Object.prototype || key === 'prototype') return 'that key name is reserved';
  return null;
}

/** Null when the value is acceptable (any JSON up to the size cap), else why not. */
export function checkPrefValue(value: unknown): string | null {
  if (value === undefined) return 'a value is required (null clears the key)';
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    return 'the value is not plain JSON';
  }
  if (json === undefined) return 'the value is not plain JSON';
  if (Buffer.byteLength(json) > PREF_LIMITS.valueBytes) return `a value is at most ${PREF_LIMITS.valueBytes} bytes of JSON`;
  return null;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function validStamp(at: unknown): at is number {
  return typeof at === 'number' && Number.isFinite(at) && at > 0 && at < 8.64e15;
}

/** Keeps the well-formed entries of an untrusted document; counts the rest. */
export function sanitizePrefs(raw: unknown): { doc: PrefsDoc; dropped: number } {
  const doc = emptyPrefs();
  let dropped = 0;
  const keys = isObject(raw) && isObject(raw.keys) ? raw.keys : {};
  for (const [key, entry] of Object.entries(keys)) {
    if (checkPrefKey(key) !== null || !isObject(entry) || !validStamp(entry.at)) {
      dropped++;
      continue;
    }
    if (entry.cleared === true) doc.keys[key] = { at: entry.at, cleared: true };
    else if ('value' in entry && entry.value !== null && checkPrefValue(entry.value) === null) {
      doc.keys[key] = { at: entry.at, value: entry.value };
    } else dropped++;
  }
  const bounded = boundPrefs(doc);
  dropped += Object.keys(doc.keys).length - Object.keys(bounded.keys).length;
  return { doc: bounded, dropped };
}

/** The winner of two entries for one key: newest stamp; on a tie a clear, then the larger JSON. */
function newer(a: PrefEntry, b: PrefEntry): PrefEntry {
  if (a.at !== b.at) return a.at > b.at ? a : b;
  if (a.cleared || b.cleared) return a.cleared ? a : b;
  return JSON.stringify(a.value) >= JSON.stringify(b.value) ? a : b;
}

/** Commutative, per-key newest-wins merge. */
export function mergePrefs(a: PrefsDoc, b: PrefsDoc): PrefsDoc {
  const keys: Record<string, PrefEntry> = { ...a.keys };
  for (const [key, entry] of Object.entries(b.keys)) {
    const mine = keys[key];
    keys[key] = mine ? newer(mine, entry) : entry;
  }
  return boundPrefs({ version: 1, keys });
}

/** Over the key cap, the oldest tombstones go first, then the oldest values. */
export function boundPrefs(doc: PrefsDoc): PrefsDoc {
  const entries = Object.entries(doc.keys);
  if (entries.length <= PREF_LIMITS.keyCount) return doc;
  entries.sort(([ka, a], [kb, b]) => {
    const rank = (e: PrefEntry) => (e.cleared ? 0 : 1);
    return rank(a) - rank(b) || a.at - b.at || (ka < kb ? -1 : 1);
  });
  return { version: 1, keys: Object.fromEntries(entries.slice(entries.length - PREF_LIMITS.keyCount)) };
}

/**
 * Applies a PUT: a value sets the key, null clears it. The stamp is this clock's now,
 * but always past the key's current stamp, so a local change is never outvoted by
 * an entry stamped by a machine whose clock runs ahead.
 */
export function applyPrefChanges(doc: PrefsDoc, changes: Record<string, unknown>, now: number): PrefsDoc {
  const keys = { ...doc.keys };
  for (const [key, value] of Object.entries(changes)) {
    const at = Math.max(now, (keys[key]?.at ?? 0) + 1);
    keys[key] = value === null ? { at, cleared: true } : { at, value };
  }
  return boundPrefs({ version: 1, keys });
}

/** The live map the app reads: cleared keys left out. */
export function liveKeys(doc: PrefsDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(doc.keys).sort()) {
    const entry = doc.keys[key]!;
    if (!entry.cleared) out[key] = entry.value;
  }
  return out;
}

/** Stable bytes: keys sorted, so two equal documents serialise identically. */
export function serializePrefs(doc: PrefsDoc): string {
  const keys: Record<string, PrefEntry> = {};
  for (const key of Object.keys(doc.keys).sort()) keys[key] = doc.keys[key]!;
  return JSON.stringify({ version: 1, keys }, null, 1) + '\n';
}

/** Does `holder` already carry every entry of `doc` (same or newer)? */
export function prefsCover(holder: PrefsDoc, doc: PrefsDoc): boolean {
  return Object.entries(doc.keys).every(([key, entry]) => {
    const h = holder.keys[key];
    return h !== undefined && newer(h, entry) === h;
  });
}
