// The server's one collection after its start-up work (shared/heap-settle.ts):
// it returns, and it gives back what the work left committed (the young generation
// grown to its largest), which a plain gc() does not.
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { settleHeap } from '../../shared/heap-settle.ts';

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
