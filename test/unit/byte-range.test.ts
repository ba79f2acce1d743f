// RFC 9110 §14.1 and §13.1.5 as site/serve/byte-range.ts reads them: the answer to a
// Range header for a file of a given size, and whether an If-Range lets it apply.
import { describe, expect, it } from 'vitest';
import { byteRange, ifRangeHolds } from '../../site/serve/byte-range.ts';

const range = (start: number, end: number) => ({ kind: 'range', start, end });
const WHOLE = { kind: 'whole' };
const UNSATISFIABLE = { kind: 'unsatisfiable' };

describe('byteRange', () => {
  it.each([
    ['bytes=0-3', 9, range(0, 3)],
    ['bytes=0-0', 9, range(0, 0)],
    ['bytes=3-', 9, range(3, 8)],
    ['bytes=-3', 9, range(6, 8)],
    ['bytes=-9', 9, range(0, 8)],
    ['bytes=-10', 9, range(0, 8)],
    ['bytes=0-99999999999999999999', 9, range(0, 8)],
    ['bytes=8-8', 9, range(8, 8)],
    ['Bytes=1-2', 9, range(1, 2)],
    ['bytes=1-2, ,', 9, range(1, 2)],
    ['bytes=9-', 9, UNSATISFIABLE],
    ['bytes=99999999999999999999-', 9, UNSATISFIABLE],
    ['bytes=-0', 9, UNSATISFIABLE],
    ['bytes=0-', 0, UNSATISFIABLE],
    ['bytes=-5', 0, WHOLE],
    ['bytes=5-1', 9, WHOLE],
    ['bytes=abc', 9, WHOLE],
    ['bytes=', 9, WHOLE],
    ['bytes=-', 9, WHOLE],
    ['bytes=1-2-3', 9, WHOLE],
    ['bytes=-1-2', 9, WHOLE],
    ['bytes=1.0-2', 9, WHOLE],
    ['bytes=1e2-', 9, WHOLE],
    ['items=0-1', 9, WHOLE],
    ['bytes 0-1', 9, WHOLE],
    ['bytes=0-0,2-3', 9, WHOLE],
    ['bytes=0-1,5-', 9, WHOLE],
    ['', 9, WHOLE],
  ])('%j of %i bytes', (header, size, answer) => {
    expect(byteRange(header, size)).toEqual(answer);
  });
});

describe('ifRangeHolds', () => {
  const lastModified = 'Sat, 10 Jan 2026 09:15:00 GMT';
  it.each([
    [undefined, true],
    [lastModified, true],
    [` ${lastModified} `, true],
    ['Sat, 10 Jan 2026 09:15:01 GMT', false],
    ['W/"9-1768036500000"', false],
    ['"9-1768036500000"', false],
    ['nonsense', false],
  ])('%j → %s', (ifRange, holds) => {
    expect(ifRangeHolds(ifRange, lastModified)).toBe(holds);
  });
});
