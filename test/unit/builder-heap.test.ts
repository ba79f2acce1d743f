// The build process's heap cap grows with the vault: a 30,000-note vault
// built under a 10,000-note cap ran out, and its first build was thrown away and redone;
// a cap far over what the build holds let V8 commit 100-150 MB it never needed.
import { execFileSync } from 'node:child_process';
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_DIR } from '../../shared/project-dir.ts';
import { BUILD_V8_FLAGS, GrowthCollector, GROWTH_SHARE, SNAPSHOT_V8_FLAGS, estimateTextBytes, heapForLive, heapForVault, semiSpaceForNotes, SERVER_BUILD_THREAD_MIN_NOTES, TEXT_SAMPLE } from '../../site/build/build-heap.ts';

describe('the build process heap cap', () => {
  // The generated benchmark vaults: 1,280 bytes of text per note.
  const bench = (notes: number) => ({ notes, textBytes: notes * 1_283 });

  it('is 320 MB up to about 10,000 notes of a usual size, and grows with the vault beyond', () => {
    expect(heapForVault({ notes: 0, textBytes: 0 })).toBe(320);
    expect(heapForVault(bench(10_000))).toBe(320);
    // Where the build kept 274 MB alive at its peak: headroom, not the 629 MB of a cap by notes alone.
    expect(heapForVault(bench(30_000))).toBeGreaterThan(274 * 1.3);
    expect(heapForVault(bench(30_000))).toBeLessThan(420);
    expect(heapForVault(bench(100_000))).toBeGreaterThan(heapForVault(bench(30_000)));
    expect(heapForVault(bench(10_000_000))).toBe(8192);
  });

  it('grows with the notes\' text, not only their number: long notes get the room they take', () => {
    const short = heapForVault({ notes: 5_000, textBytes: 5_000 * 1_000 });
    const long = heapForVault({ notes: 5_000, textBytes: 5_000 * 40_000 });
    expect(short).toBe(320);
    // 200 MB of text: held about three times over at the build's peak.
    expect(long).toBeGreaterThan(3 * 200 * 1.3);
  });
});

describe('the estimate of a vault\'s text', () => {
  it('adds every size when the vault has fewer notes than the sample', async () => {
    const sizes = new Map([['a.md', 100], ['b.md', 250], ['c.md', 50]]);
    expect(await estimateTextBytes([...sizes.keys()], async (n) => sizes.get(n)!)).toBe(400);
    expect(await estimateTextBytes([], async () => 1)).toBe(0);
  });

  it('reads at most TEXT_SAMPLE sizes, spread over the whole list, and scales their mean', async () => {
    // Sizes that change along the list (a folder of long notes at the end): a sample of the front alone would miss it.
    const notes = Array.from({ length: 30_000 }, (_, i) => `n${i}.md`);
    const sizeOf = (n: string) => (Number(n.slice(1, -3)) < 20_000 ? 1_000 : 10_000);
    const asked: string[] = [];
    const estimate = await estimateTextBytes(notes, async (n) => {
      asked.push(n);
      return sizeOf(n);
    });
    expect(asked.length).toBeLessThanOrEqual(TEXT_SAMPLE);
    expect(new Set(asked).size).toBe(asked.length);
    const exact = 20_000 * 1_000 + 10_000 * 10_000;
    expect(Math.abs(estimate - exact) / exact).toBeLessThan(0.05);
  });

  it('leaves out notes gone since the walk, and answers 0 when none is left', async () => {
    expect(await estimateTextBytes(['a.md', 'b.md'], async (n) => (n === 'a.md' ? 300 : null))).toBe(600);
    expect(await estimateTextBytes(['a.md'], async () => null)).toBe(0);
  });
});

describe('the young generation of the server\'s builder', () => {
  it('keeps a small young generation while the builder works alone, and V8\'s own once it takes a build thread', () => {
    expect(semiSpaceForNotes(10_000)).toBe(8);
    expect(semiSpaceForNotes(SERVER_BUILD_THREAD_MIN_NOTES - 1)).toBe(8);
    expect(semiSpaceForNotes(SERVER_BUILD_THREAD_MIN_NOTES)).toBeNull();
  });
});

describe('the V8 flags of a build', () => {
  it('are those `npm run build` starts Node with: the build\'s (the server\'s builder takes them too) and the snapshot\'s young generation, each given once', () => {
    const scripts = (JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    const node = scripts.build!.split(' scripts/run-compiled.cjs')[0]!.split(' ');
    expect(BUILD_V8_FLAGS.length).toBeGreaterThan(0);
    expect(SNAPSHOT_V8_FLAGS).toEqual(expect.arrayContaining([...BUILD_V8_FLAGS]));
    expect(node.slice(2)).toEqual([...SNAPSHOT_V8_FLAGS]);
    const names = SNAPSHOT_V8_FLAGS.map((flag) => flag.split('=')[0]);
    expect(new Set(names).size).toBe(names.length);
  });

  it('leave the server\'s builder to size its own young generation (it passes --max-semi-space-size itself)', () => {
    expect(BUILD_V8_FLAGS.some((flag) => flag.startsWith('--max-semi-space-size'))).toBe(false);
  });

  it('are flags this Node knows (an unknown one would stop `node` before it starts)', () => {
    const out = execFileSync(process.execPath, [...SNAPSHOT_V8_FLAGS, '-e', 'process.stdout.write("ran")'], { encoding: 'utf8' });
    expect(out).toBe('ran');
  });
});

describe('the cap measured after a whole-site pass', () => {
  it('keeps a cap with its headroom over the live heap, and gives one back with a margin when it lost it', () => {
    expect(heapForLive(320, 150)).toBeNull();
    const next = heapForLive(320, 300)!;
    expect(next).toBeGreaterThan(300 * 1.45);
    // Once given, the same live heap asks for nothing more: no restart after restart.
    expect(heapForLive(next, 300)).toBeNull();
    expect(heapForLive(4096, 8000)).toBe(8192);
  });
});

describe('the collection between edits', () => {
  const MB = 1024 * 1024;

  it('comes after an edit\'s answer once the heap has grown its share of the way to the limit, never before', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    gc();
    const base = getHeapStatistics().used_heap_size;
    // A limit 100 MB over what is live: the builder collects after 30 MB of growth.
    const heap = () => ({ used_heap_size: getHeapStatistics().used_heap_size, heap_size_limit: base + 100 * MB });
    const collector = new GrowthCollector(gc, heap);
    collector.collected();
    collector.afterEdit();
    await new Promise(setImmediate);
    expect(collector.collections).toBe(0);

    // What an edit's pass leaves behind: about 48 MB no one holds once it has answered.
    let left: number[][] | null = Array.from({ length: 60 }, () => new Array(100_000).fill(1.5));
    const grown = heap().used_heap_size;
    expect(grown - base).toBeGreaterThan(GROWTH_SHARE * 100 * MB);
    expect(left.length).toBe(60);
    left = null;
    collector.afterEdit();
    // Not inside the answer: at the next turn of the loop.
    expect(collector.collections).toBe(0);
    await new Promise(setImmediate);
    expect(collector.collections).toBe(1);
    expect(heap().used_heap_size).toBeLessThan(grown - 40 * MB);

    // Collected, the heap is back where it started: the next edit collects nothing.
    collector.afterEdit();
    await new Promise(setImmediate);
    expect(collector.collections).toBe(1);
  });
});
