// RFC 9110 §12.5.3 as site/serve/encoding.ts reads Accept-Encoding: a coding named
// has its own weight whatever `*` says, `*` weighs only the codings not named, q=0
// refuses, and identity is acceptable unless refused by name or by `*;q=0`.
import { describe, expect, it } from 'vitest';
import { acceptWeight, pickEncoding } from '../../site/serve/encoding.ts';

describe('acceptWeight', () => {
  it.each([
    // header, coding, weight
    ['br', 'br', 1],
    ['gzip, br', 'br', 1],
    ['gzip', 'br', 0],
    ['BR;Q=0.5', 'br', 0.5],
    ['br ; q=0.25', 'br', 0.25],
    ['br;q=0', 'br', 0],
    ['br;q=0.000', 'br', 0],
    ['*', 'br', 1],
    ['*;q=0.5', 'gzip', 0.5],
    ['*, br;q=0', 'br', 0],
    ['br;q=0, *', 'br', 0],
    ['*, br;q=0', 'gzip', 1],
    ['*;q=0, gzip', 'gzip', 1],
    ['*;q=0, gzip', 'br', 0],
    ['x-gzip', 'gzip', 1],
    ['br;q=2', 'br', 0],
    ['br;q=abc, *;q=0.3', 'br', 0.3],
    ['br;level=5', 'br', 1],
    ['', 'br', 0],
    // identity: acceptable unless refused
    ['gzip', 'identity', 1],
    ['', 'identity', 1],
    ['identity;q=0', 'identity', 0],
    ['*;q=0', 'identity', 0],
    ['*;q=0, identity', 'identity', 1],
    ['identity;q=0.5, *;q=0', 'identity', 0.5],
    ['*;q=0.2', 'identity', 0.2],
  ])('%j weighs %s at %d', (header, coding, weight) => {
    expect(acceptWeight(header, coding)).toBe(weight);
  });
});

describe('pickEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*, br;q=0', 'gzip'],
    ['br;q=0, *', 'gzip'],
    ['*;q=0, gzip', 'gzip'],
    ['*;q=0', 'identity'],
    ['*', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['br;q=0, gzip;q=0', 'identity'],
  ])('%j → %s', (header, encoding) => {
    expect(pickEncoding(header)).toBe(encoding);
  });
});
