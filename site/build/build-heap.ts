// The build's heap is capped so V8 collects instead of growing: a 10,000-note vault
// builds in about 300 MB this way (uncapped it peaks near 500 MB for the same work).
// The cap grows with the vault (a 30,000-note vault would run out of 320 MB and build
// twice); a builder that runs out anyway gets a doubled cap on its next start.
export const START_HEAP_MB = 320;
const HEAP_BASE_MB = 160;
const HEAP_PER_NOTE_KB = 16;
export const MAX_HEAP_MB = 8192;

/** The heap cap for a vault of `notes` notes. */
export function heapForNotes(notes: number): number {
  return Math.min(MAX_HEAP_MB, Math.max(START_HEAP_MB, Math.ceil(HEAP_BASE_MB + (notes * HEAP_PER_NOTE_KB) / 1024)));
}
