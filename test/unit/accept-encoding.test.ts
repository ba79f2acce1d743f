// RFC 9110 §12.5.3 as site/serve/encoding.ts reads Accept-Encoding: a coding named
// has its own weight whatever `*` says, `*` weighs only the codings not named, q=0
// refuses, and identity is acceptable unless refused by name or by `*;q=0`.
import { describe, expect, it } from 'vitest';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { acceptWeight, compressBoth, compressBothNow, pickEncoding } from '../../site/serve/encoding.ts';

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

/** The window a brotli stream declares (RFC 7932 §9.1: its first bits). */
function brotliWindowBits(stream: Buffer): number {
  const bit = (i: number) => (stream[i >> 3]! >> (i & 7)) & 1;
  if (bit(0) === 0) return 16;
  const n = bit(1) | (bit(2) << 1) | (bit(3) << 2);
  if (n !== 0) return 17 + n;
  const m = bit(4) | (bit(5) << 1) | (bit(6) << 2);
  return m === 0 ? 17 : 8 + m;
}

describe('compressed pages', () => {
  it('brotli takes a window the page fits in, not its default 4 MB, and the page reads back whole', async () => {
    const page = Buffer.from('<p>' + 'a note, its links and its words. '.repeat(300) + '</p>');
    for (const { br, gzip } of [await compressBoth(page), compressBothNow(page)]) {
      expect(brotliWindowBits(br)).toBeLessThanOrEqual(Math.ceil(Math.log2(page.length + 1)));
      expect(brotliDecompressSync(br).equals(page)).toBe(true);
      expect(gunzipSync(gzip).equals(page)).toBe(true);
    }
    const big = Buffer.alloc(5 * 1024 * 1024, 'x');
    expect(brotliWindowBits((await compressBoth(big)).br)).toBe(22);
  });
});
