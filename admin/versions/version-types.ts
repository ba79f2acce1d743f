// What the version store (version-store.ts) keeps and how it is bounded: the entries of a
// note's index.json, the limits of spec 8, what a save asks it to keep, and spans of time
// (a path's history can hold several notes' in turn).
// Exactly the spec's three (CONTRACT §4): what a kept text was is told by these words alone.
export type VersionReason = 'Earlier save' | 'Before a restore' | 'Before a link rewrite';
export const VERSION_REASONS: VersionReason[] = ['Earlier save', 'Before a restore', 'Before a link rewrite'];

export interface VersionEntry {
  /** Epoch milliseconds as digits; strictly increasing per note. */
  at: string;
  replacedAt: string;
  savedAt: string;
  size: number;
  reason: VersionReason;
}

/** What this server last wrote to a note: its bytes' sha1 and the file's mtime after. */
export interface OwnWrite {
  sha1: string;
  mtimeMs: number;
}

export interface VersionIndex {
  path: string;
  /** Oldest first on disk; the API answers newest first. */
  versions: VersionEntry[];
  lastWrite?: OwnWrite;
}

export interface VersionLimits {
  mergeWindowMs: number;
  maxPerNote: number;
  maxNoteBytes: number;
  maxStoreBytes: number;
}

export const DEFAULT_LIMITS: VersionLimits = {
  mergeWindowMs: 5 * 60 * 1000,
  maxPerNote: 40,
  maxNoteBytes: 2 * 1024 * 1024,
  maxStoreBytes: 500 * 1024 * 1024,
};

export interface KeepRequest {
  /** The bytes being replaced, exactly as they were on disk. */
  data: Uint8Array;
  /** When the text being replaced was last saved (the file's mtime). */
  savedAtMs: number;
  reason: VersionReason;
  /**
   * The writer chose to write over a text it was never shown (Keep my version): kept even
   * inside the merge window, like text that reached the disk any other way.
   */
  overwrite?: boolean;
  /** Kept whatever its size (a restore's replaced text: the write is refused unless it is). */
  anySize?: boolean;
}

export type KeepOutcome = 'kept' | 'merged' | 'too-large' | 'empty';
