// shared/note/fields.ts mayHoldMoreTagsThan: the build's too-many-tags warning asks it first
// and makes a note's tags only when it says they may be too many. It must never say no
// where tagsOf would find more than the bound.
import { describe, expect, it } from 'vitest';
import { mayHoldMoreTagsThan, tagsOf } from '../../shared/note/fields.ts';

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const PIECES = ['a', 'b', 'tag', '#x', ',', ', ', ' ', '  ', '[', ']', '{{t}}', '"q"', 'A', '\t', 'ب', '1'];

function value(next: () => number, depth = 0): unknown {
  const kind = Math.floor(next() * 7);
  const text = () => Array.from({ length: Math.floor(next() * 12) }, () => PIECES[Math.floor(next() * PIECES.length)]).join('');
  if (kind === 0) return text();
  if (kind === 1) return Math.floor(next() * 100);
  if (kind === 2) return next() < 0.5;
  if (kind === 3) return null;
  if (depth > 1) return text();
  return Array.from({ length: Math.floor(next() * 10) }, () => value(next, depth + 1));
}

describe('mayHoldMoreTagsThan', () => {
  it('never answers no where tagsOf makes more than the bound (20,000 generated values, bounds 1 to 6)', () => {
    const next = random(12345);
    let yes = 0;
    for (let i = 0; i < 20_000; i++) {
      const max = 1 + Math.floor(next() * 6);
      const data = next() < 0.5 ? { tags: value(next) } : { tag: value(next) };
      const may = mayHoldMoreTagsThan(data, max);
      if (may) yes++;
      else expect(tagsOf(data).length, JSON.stringify(data)).toBeLessThanOrEqual(max);
    }
    // It answers yes to some, and not to all.
    expect(yes).toBeGreaterThan(1000);
    expect(yes).toBeLessThan(19_000);
  });

  it('answers yes where there are more, written either way', () => {
    const many = Array.from({ length: 101 }, (_, i) => `t${i}`);
    for (const data of [{ tags: many }, { tags: many.join(' ') }, { tags: many.join(',') }, { tag: [many.join(', ')] }, { tags: [[...many]] }]) {
      expect(tagsOf(data).length).toBe(101);
      expect(mayHoldMoreTagsThan(data, 100)).toBe(true);
    }
  });

  it('answers no for the usual few tags', () => {
    expect(mayHoldMoreTagsThan({ tags: ['topic1', 'area2'] }, 100)).toBe(false);
    expect(mayHoldMoreTagsThan({ tags: 'one two three' }, 100)).toBe(false);
    expect(mayHoldMoreTagsThan({}, 100)).toBe(false);
  });
});
