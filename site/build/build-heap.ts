// The build's heap is capped so V8 collects instead of growing: V8 sizes its heap by what
// it has seen die, and left alone it commits well over what the build keeps. The cap
// follows what a build of the vault holds at its peak (issue 12), the notes and their
// text; a builder that runs out anyway gets a doubled cap on its next start.
export const START_HEAP_MB = 320;
export const MAX_HEAP_MB = 8192;

/** What a build holds at its peak besides the notes (the templates, the code). */
const LIVE_BASE_MB = 40;
/** Per note: its record, its pages in the plan, the model's maps. */
const LIVE_PER_NOTE_KB = 4.2;
/** Per byte of note text: the text, its rendered body and its search text, held until the pages take them. */
const LIVE_PER_TEXT_BYTE = 3;
/**
 * Headroom over that peak. Measured at 30,000 generated notes (38.5 MB of text), the
 * server's first build and 25 edits: the builder peaked at 569-587 MB under a 394 MB cap
 * against 617-712 MB under the notes-only cap before (629 MB), and the server with it at
 * 711-741 MB against 761-854 MB, in as long (10.8-14.2 s against 10.8-13.6 s; runs vary
 * that much). The peak a build kept alive was 274 MB there, 112 MB at 10,000 notes.
 */
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
 * Below SERVER_PARTNER_MIN_NOTES the server's builder keeps a young generation of 8 MB
 * semi-spaces (V8's default is 16): it stays committed while the builder waits for edits,
 * and at 10,000 notes the server and its builder peaked at 378-379 MB through start and
 * edits with it against 399-408 MB without, the first full build within noise (5.06-5.56 s
 * against 5.00-6.98 s). From there, with a partner thread, it saved nothing (30,000 notes:
 * 770-788 MB against 778-805 MB) and cost time (first build 14.2-15.2 s against 12.6-13.7 s,
 * edit-to-live median 90-95 ms against 77-97 ms): V8's default. The snapshot build
 * (`npm run build`) goes the other way, for speed: 32 MB.
 */
export const BUILDER_SEMI_SPACE_MB = 8;

export function semiSpaceForNotes(notes: number): number | null {
  return notes < SERVER_PARTNER_MIN_NOTES ? BUILDER_SEMI_SPACE_MB : null;
}

/**
 * The server's own builder takes a partner only from this many notes. Its first build runs
 * beside the server's start (the watcher's scan of every file, the admin's services) on
 * the same cores, and a partner holds about 90 MB at the build's peak: at 10,000 notes it
 * measured no faster (median 5.6 s with one, 6.1 s without, in five runs each; runs vary
 * ±20%) for 509-523 MB against 418-433 MB; at 30,000 it builds in 12.9 s against 14.7-16.3 s.
 */
export const SERVER_PARTNER_MIN_NOTES = 20_000;

/**
 * V8 flags of every process that builds the site (the server's builder, and a static
 * snapshot's: SNAPSHOT_V8_FLAGS).
 * A build runs a great many functions a few thousand times each (markdown-it's rules, the
 * templates, our model), once, on two busy cores:
 * - `--always-sparkplug` compiles each function to baseline machine code when it is first
 *   compiled, instead of interpreting it until it is hot;
 * - `--interrupt-budget` four times V8's default (67584) sends a function to the optimizing
 *   compiler after four times the work: fewer optimizations (and deoptimizations) whose
 *   compile time a short run never earns back, on threads that compete with the build's own.
 *
 * Measured alternating, `npm run build` (CPU in brackets):
 * - 10,000 notes: 4.44-4.52 s (7.9-8.1 s) with neither, 4.02-4.12 s (7.2-7.4 s) with the
 *   first, 3.70-3.81 s (6.4-6.7 s) with both; eight times the budget did no better, a
 *   quarter of it worse (4.69 s), no optimizing compiler at all much worse (5.26 s);
 * - 1,000 notes: 1.03 s (1.42 s) with the first, 0.96 s (1.10 s) with both;
 * - 30,000 notes: 8.90 s with the first, 9.08 s with both (within noise: a long run
 *   earns its optimizations back).
 *
 * The server's builder: first build at 10,000 notes 4.3-5.2 s against 4.8-5.5 s with the
 * first flag, edits as fast (median 54-68 ms against 57-83 ms), 5-10 MB more code in memory;
 * the second changed neither within noise.
 */
export const BUILD_V8_FLAGS: readonly string[] = ['--always-sparkplug', '--interrupt-budget=270336'];

/**
 * How a static snapshot's process runs (`npm run build` names these in package.json, and
 * `vault-service build` started without them starts itself again with them:
 * scripts/cli/relaunch.ts): the build's flags, and 8 MB semi-spaces (V8's default is 16).
 * On a machine where a page's first touch is dear (12-16 µs in a paravirtualised guest), a
 * young generation that grows to 32 MB costs a 1,000-note build more in page faults (25,000
 * against 21,000) than its fewer collections save: alternating, eight rounds each, 1.22 s
 * against 1.28 s (CPU 1.40 against 1.47 s, peak 116 against 131 MB). At 10,000 notes the two
 * are even (medians of eight: 5.33 against 5.29 s; peak 355 against 392 MB). Earlier stops
 * had chosen 32 MB at 10,000 notes (5.00 s against 5.38 s), before the partner and the
 * bundle; a partner given a 32 MB young generation of its own did no better.
 *
 * And the collector on the thread that allocates (`--single-threaded-gc`): a snapshot's two
 * threads keep both cores busy, so V8's helper threads for collecting only take turns with
 * them (and with the optimizing compiler's jobs). Rounds alternating, each pair run back to
 * back, the median of the per-round ratios: 10,000 notes 0.92, 0.95, 1.01 and 0.94 of the
 * time in four sets of ten to twelve rounds (CPU 9.20 against 9.63 s in one); 1,000 notes
 * 0.97 and 0.99. An earlier stop had measured it even, by medians of unpaired runs that
 * varied ±15% on this machine.
 *
 * And the young generation at its 8 MB from the start (`--min-semi-space-size`), instead of
 * growing there from 1 MB through a build's first few hundred collections. Alternating,
 * both code caches kept: 1,000 notes 0.683 s against 0.720 s (eleven rounds) and 0.731 s
 * against 0.751 s (fifteen); 10,000 notes 3.61 s against 3.68 s (eight).
 *
 * And an old generation first collected at 128 MB (`--initial-old-space-size`; 256 since, below), not grown
 * there through full collections: at 10,000 notes the partner thread (heap under 60 MB) made
 * five, each after many small incremental-marking steps, the build two; now none and one.
 * Alternating: 10,000 notes 3.31 s against 3.45 s (twelve rounds) and 3.51 against 3.64
 * (eight); 1,000 notes 0.662 s against 0.679 s (eleven). The build's peak RSS at 10,000
 * notes goes from 297 to 355 MB: garbage waits longer for its first full collection.
 *
 * Two of these were changed later, measured with each flag set given to `node` directly and
 * the command line kept from starting itself again (relaunch.ts starts a second process when
 * a flag of this list is missing: comparisons that changed one timed two starts). Alternating,
 * nine rounds each at 10,000 notes, fifteen at 1,000, five at 30,000:
 * - the old generation first collected at 256 MB: 10,000 notes 2.61 s against 2.74 s (CPU 5.00
 *   against 5.16 s); 1,000 notes even; 30,000 notes 6.54 s against 6.69 s. 512 MB did no better.
 * - an interrupt budget sixteen times V8's default for a snapshot (the second
 *   `--interrupt-budget` below: the last given wins; the server's builder keeps four times):
 *   10,000 notes 2.55 s against 2.67 s (CPU 4.85 against 5.13 s), 1,000 notes even, 30,000
 *   notes 6.92 s against 6.77 s (a long run earns more of its optimizations back; Hugo takes
 *   about 10 s there). Thirty-two times was no better at 10,000 notes, twice V8's default
 *   (135168) much worse at 1,000 (0.61 against 0.54 s).
 */
export const SNAPSHOT_V8_FLAGS: readonly string[] = [
  '--max-semi-space-size=8',
  '--min-semi-space-size=8',
  '--initial-old-space-size=256',
  ...BUILD_V8_FLAGS,
  '--single-threaded-gc',
  '--interrupt-budget=1081344',
];
