// The build process's heap cap grows with the vault (issue 12): a 30,000-note vault
// built under a 10,000-note cap ran out, and its first build was thrown away and redone.
import { describe, expect, it } from 'vitest';
import { heapForNotes, semiSpaceForNotes, SERVER_PARTNER_MIN_NOTES } from '../../site/build/build-heap.ts';

describe('the build process heap cap', () => {
  it('is 320 MB up to about 10,000 notes, and grows with the vault beyond', () => {
    expect(heapForNotes(0)).toBe(320);
    expect(heapForNotes(10_000)).toBe(320);
    expect(heapForNotes(30_000)).toBeGreaterThanOrEqual(620);
    expect(heapForNotes(100_000)).toBeGreaterThan(heapForNotes(30_000));
    expect(heapForNotes(10_000_000)).toBe(8192);
  });

  it('keeps a small young generation while the builder works alone, and V8\'s own once it takes a partner', () => {
    expect(semiSpaceForNotes(10_000)).toBe(8);
    expect(semiSpaceForNotes(SERVER_PARTNER_MIN_NOTES - 1)).toBe(8);
    expect(semiSpaceForNotes(SERVER_PARTNER_MIN_NOTES)).toBeNull();
  });
});
