// The build's heap is capped so V8 collects instead of growing: V8 sizes its heap by what
// it has seen die, and left alone it commits well over what the build keeps. The cap
// follows what a build of the vault holds at its peak, the notes and their
// text; a builder that runs out anyway gets a doubled cap on its next start.
import { getHeapStatistics } from 'node:v8';

export const START_HEAP_MB = 320;
export const MAX_HEAP_MB = 8192;

/** What a build holds at its peak besides the notes (the templates, the code). */
const LIVE_BASE_MB = 40;
/** Per note: its record, its pages in the plan, the model's maps. */
const LIVE_PER_NOTE_KB = 4.2;
/** Per byte of note text: the text, its rendered body and its search text, held until the pages take them. */
const LIVE_PER_TEXT_BYTE = 3;
/** Headroom over that peak (docs/dev/performance.md: how the cap was measured). */
const HEADROOM = 1.45;

export interface VaultSize {
  notes: number;
  /** Bytes of note text (an estimate from a sample will do: see estimateTextBytes). */
  textBytes: number;
}

/** The heap cap for a vault: its build's peak with headroom, never under START_HEAP_MB. */
export function heapForVault(size: VaultSize): number {
  const liveMB = LIVE_BASE_MB + (size.notes * LIVE_PER_NOTE_KB) / 1024 + (size.textBytes * LIVE_PER_TEXT_BYTE) / (1024 * 1024);
  return Math.min(MAX_HEAP_MB, Math.max(START_HEAP_MB, Math.ceil(liveMB * HEADROOM)));
}

/**
 * The cap for a builder whose live heap, measured after a whole-site pass, is `liveMB`: null
 * while the cap keeps its headroom over it, else one that gives it back (with a margin, so a
 * vault that grows a little does not ask again). A vault heavy in links, URLs and words holds
 * far more per byte of text than the estimate assumes (a realistic 10,000-note vault about 300
 * MB live for 25 MB of text), and a builder at its cap spends each edit in full collections.
 */
export function heapForLive(currentMB: number, liveMB: number): number | null {
  if (liveMB * HEADROOM <= currentMB) return null;
  return Math.min(MAX_HEAP_MB, Math.ceil(liveMB * HEADROOM * 1.25));
}

/** How many notes' sizes the estimate reads: a few milliseconds at any vault size. */
export const TEXT_SAMPLE = 256;

/**
 * The vault's note text in bytes, from the sizes of TEXT_SAMPLE notes spread evenly over
 * the list (all of them when fewer): a stat of every note took half a second at 30,000,
 * before the builder could start. A few giant notes the sample misses are what the
 * out-of-memory restart is for.
 */
export async function estimateTextBytes(notes: readonly string[], sizeOf: (note: string) => Promise<number | null>): Promise<number> {
  if (notes.length === 0) return 0;
  const step = Math.max(1, notes.length / TEXT_SAMPLE);
  const picked: string[] = [];
  for (let i = 0; i < notes.length && picked.length < TEXT_SAMPLE; i += step) picked.push(notes[Math.floor(i)]!);
  const sizes = (await Promise.all(picked.map(sizeOf))).filter((n): n is number => n !== null);
  if (sizes.length === 0) return 0;
  return Math.round((sizes.reduce((a, b) => a + b, 0) / sizes.length) * notes.length);
}

/**
 * The server's builder keeps a small young generation below SERVER_BUILD_THREAD_MIN_NOTES: it stays
 * committed while the builder waits for edits, and it made the server's peak smaller for a
 * first build as fast (docs/dev/performance.md).
 */
export const BUILDER_SEMI_SPACE_MB = 8;

export function semiSpaceForNotes(notes: number): number | null {
  return notes < SERVER_BUILD_THREAD_MIN_NOTES ? BUILDER_SEMI_SPACE_MB : null;
}

/**
 * The server's builder takes a build thread only from this many notes: below it, beside the
 * server's own start on the same cores, a build thread built no faster and held about 90 MB more.
 */
export const SERVER_BUILD_THREAD_MIN_NOTES = 20_000;

/**
 * From this many searchable notes, the server's first build goes live without the search
 * index's base, made at the first quiet moment after (site/plan/search-index.ts): made in the
 * pass, beside every note's record and page in the builder's capped heap, it was the largest
 * part of a realistic first start's wait (docs/dev/performance.md).
 */
export const SEARCH_BASE_LATER_MIN_NOTES = 2_000;

/**
 * V8 flags of every process that builds the site, the server's builder and the static snapshot
 * alike (package.json's `build` names them; `vault-service build` started without them starts
 * itself again with them on Node 20: scripts/cli/relaunch.ts). A build runs a great many
 * functions a few thousand times each, once, on two busy cores, so baseline code at first
 * compile (`--always-sparkplug`) and optimizing later (`--interrupt-budget` four times V8's
 * default) pay. Each flag's figures: docs/decisions/v8-flags.md.
 */
export const BUILD_V8_FLAGS: readonly string[] = ['--always-sparkplug', '--interrupt-budget=270336'];

/**
 * The static snapshot's flags (`npm run build`, `vault-service build`): the build's, and a
 * young generation twice V8's default. Both threads make each note's tokens and each page's
 * views faster than the default lets them die, and scavenges spent their time copying them
 * (figures: docs/decisions/v8-flags.md). The server's builder sizes its own (semiSpaceForNotes).
 */
export const SNAPSHOT_V8_FLAGS: readonly string[] = [...BUILD_V8_FLAGS, '--max-semi-space-size=32'];

/**
 * Of the way from what the last collection left to the heap's limit, how far an edit's passes
 * grow the heap before the builder collects after answering one. Each pass leaves what it made
 * in the old generation, and V8's own collection near the cap fell inside whichever pass came
 * then, doubling that save's wait (docs/dev/performance.md).
 */
export const GROWTH_SHARE = 0.3;

/** Collects the builder's heap between edits, while the server serves the pass, once it has grown (GROWTH_SHARE). */
export class GrowthCollector {
  /** Heap in use after the last collection (the least seen since, when V8 collected in between). */
  private live: number | null = null;
  /** How many collections it made (for the tests). */
  collections = 0;

  constructor(
    private readonly collect: () => void,
    private readonly heap: () => { used_heap_size: number; heap_size_limit: number } = getHeapStatistics,
  ) {}

  /** An edit's pass has been answered: collects at the next turn of the loop when the heap has grown past its share. */
  afterEdit(): void {
    const { used_heap_size: used, heap_size_limit: limit } = this.heap();
    if (this.live === null || used < this.live) this.live = used;
    if (used < this.live + (limit - this.live) * GROWTH_SHARE) return;
    setImmediate(() => {
      this.collect();
      this.collections++;
      this.collected();
    });
  }

  /** A collection was made (here, or after a whole-site pass): what it left is the new start. */
  collected(): void {
    this.live = this.heap().used_heap_size;
  }
}
