// The server's one collection after its start-up work (shared/heap-settle.ts):
// it returns, and it gives back what the work left committed (the young generation
// grown to its largest), which a plain gc() does not.
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { SETTLE_GROWTH_BYTES, SettleAfterBuilds, settleHeap } from '../../shared/heap-settle.ts';

const space = (name: string) => v8.getHeapSpaceStatistics().find((s) => s.space_name === name)!.space_size;

describe('settleHeap', () => {
  it('returns (a disconnect inside the collection\'s reply once hung the server at start) and shrinks the young generation', async () => {
    // Work that keeps much of what it makes for a while: the young generation grows to hold it.
    let kept: number[][] = [];
    for (let round = 0; round < 40; round++) {
      for (let i = 0; i < 20_000; i++) kept.push([i, round, i * round]);
      if (kept.length > 200_000) kept = [];
    }
    kept = [];
    const before = space('new_space');
    await settleHeap();
    await settleHeap();
    expect(space('new_space')).toBeLessThan(before);
  });
});

describe('settleHeap after a whole-site pass', () => {
  it('moves what lives on half-empty pages together and gives the pages back (the builder\'s old generation)', async () => {
    const old = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')!;
    // A pass's shape: much made and kept a while (old enough to leave the young generation), a quarter of it kept for good.
    const kept: object[] = [];
    let dropped: object[] = [];
    for (let i = 0; i < 1_500_000; i++) (i % 4 === 0 ? kept : dropped).push({ i, text: 'note ' + i });
    await settleHeap();
    dropped = [];
    await settleHeap();
    const { space_size: size, space_used_size: used } = old();
    expect(kept.length + dropped.length).toBe(375_000);
    // Spread over the pages the whole list filled, the quarter kept would hold about four times its size.
    expect(size).toBeLessThan(used * 1.5 + 16 * 1024 * 1024);
  });
});

describe('the collection after edits\' builds', () => {
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const footprint = () => process.memoryUsage().heapTotal + process.memoryUsage().external;

  it('comes a pause after a build once the heap and buffers grew, gives them back, and not after builds that grew little', async () => {
    await settleHeap();
    const settler = new SettleAfterBuilds(50);
    // A build that grew nothing: no collection.
    settler.built();
    await pause(120);
    expect(settler.settles).toBe(0);

    // What the pages a build changed leave once read and compressed again. Held through the
    // pause, so the settler, not a collection V8 made on its own meanwhile, is what is measured.
    let pages: Buffer[] | null = Array.from({ length: 60 }, () => Buffer.alloc(1024 * 1024, 1));
    const grown = footprint();
    settler.built();
    settler.built();
    // Not at the result: a pause after the last one.
    expect(settler.settles).toBe(0);
    await pause(40);
    expect(settler.settles).toBe(0);
    for (let i = 0; i < 50 && settler.settles === 0; i++) await pause(20);
    expect(settler.settles).toBe(1);
    expect(pages.length).toBe(60);
    // The collection it makes gives back buffers no one holds.
    pages = null;
    await settleHeap();
    expect(footprint()).toBeLessThan(grown - SETTLE_GROWTH_BYTES);
    settler.close();
  });

  it("comes after a whole-site build's pages are prepared whatever V8's figures show: much of what warming drops is malloc's", async () => {
    await settleHeap();
    const settler = new SettleAfterBuilds(50);
    settler.built();
    await pause(120);
    expect(settler.settles).toBe(0);
    settler.built(true);
    // An edit's result in the pause does not cancel the whole build's collection.
    settler.built();
    for (let i = 0; i < 50 && settler.settles === 0; i++) await pause(20);
    expect(settler.settles).toBe(1);
    settler.built();
    await pause(120);
    expect(settler.settles).toBe(1);
    settler.close();
  });
});
