// The prepared-page cache: bounded by bytes, least recently used out
// first, and never storing a page prepared from a build that has since replaced it.
import { describe, expect, it } from 'vitest';
import { PageCache } from '../../site/serve/page-cache.ts';
import { COMPRESS_MAX, COMPRESS_NOW_MAX, prepare, prepareNow, type Prepared } from '../../site/serve/prepared.ts';

const page = (bytes: number): Promise<Prepared> => prepare({ status: 200, body: Buffer.alloc(bytes, 'x'), headers: [['content-type', 'text/html']], compress: false });

describe('PageCache', () => {
  it('keeps within its budget by dropping the least recently used page', async () => {
    const one = await page(1000);
    const cache = new PageCache(one.size * 10);
    const key = (n: number) => PageCache.key('', `/p${n}`);
    for (let n = 0; n < 10; n++) expect(cache.set(key(n), cache.stamp(`/p${n}`), await page(1000))).toBe(true);
    cache.get(key(0)); // /p0 is now the most recent
    cache.set(key(10), cache.stamp('/p10'), await page(1000));
    expect(cache.has(key(1))).toBe(false);
    for (const n of [0, 2, 9, 10]) expect(cache.has(key(n)), String(n)).toBe(true);
    expect(cache.size.bytes).toBeLessThanOrEqual(one.size * 10);
  });

  it('does not let one huge page flush the rest', async () => {
    const cache = new PageCache(8000);
    expect(cache.set(PageCache.key('', '/big'), cache.stamp('/big'), await page(5000))).toBe(false);
  });

  it('refuses a page prepared before its address was invalidated, or before a clear', async () => {
    const cache = new PageCache(1 << 20);
    const before = cache.stamp('/a');
    cache.invalidate(['/a']);
    expect(cache.set(PageCache.key('base', '/a'), before, await page(10))).toBe(false);
    expect(cache.set(PageCache.key('base', '/a'), cache.stamp('/a'), await page(10))).toBe(true);
    const other = cache.stamp('/b');
    cache.clear();
    expect(cache.set(PageCache.key('base', '/b'), other, await page(10))).toBe(false);
  });

  it('invalidating an address forgets it under every base URL', async () => {
    const cache = new PageCache(1 << 20);
    for (const base of ['http://a', 'http://b']) cache.set(PageCache.key(base, '/x'), cache.stamp('/x'), await page(10));
    cache.set(PageCache.key('http://a', '/y'), cache.stamp('/y'), await page(10));
    cache.invalidate(['/x']);
    expect(cache.has(PageCache.key('http://a', '/x'))).toBe(false);
    expect(cache.has(PageCache.key('http://b', '/x'))).toBe(false);
    expect(cache.has(PageCache.key('http://a', '/y'))).toBe(true);
  });
});

describe('a big page (site/serve/prepared.ts)', () => {
  const text = (bytes: number) => ({ status: 200, body: Buffer.alloc(bytes, 'lorem ipsum '), headers: [['content-type', 'text/html']] as [string, string][], compress: true });

  it('is not compressed while a visitor waits, and is marked for compression off the thread', async () => {
    const now = prepareNow(text(COMPRESS_NOW_MAX + 1));
    expect(now.deferred).toBe(true);
    expect(now.variants.br).toBe(now.variants.identity);
    const later = await prepare(text(COMPRESS_NOW_MAX + 1));
    expect(later.deferred).toBe(false);
    expect(later.variants.br.body.length).toBeLessThan(later.variants.identity.body.length);
    expect(later.etag).toBe(now.etag);
    // A page at most COMPRESS_NOW_MAX is compressed at once, as before.
    expect(prepareNow(text(COMPRESS_NOW_MAX)).variants.br).not.toBe(prepareNow(text(COMPRESS_NOW_MAX)).variants.identity);
  });

  it('past COMPRESS_MAX it is never compressed, on the thread or off it', async () => {
    for (const p of [prepareNow(text(COMPRESS_MAX + 1)), await prepare(text(COMPRESS_MAX + 1))]) {
      expect(p.deferred).toBe(false);
      expect(p.variants.br).toBe(p.variants.identity);
    }
  });

  it('the cache holds a deferred page but does not call it ready, until the compressed one replaces it', async () => {
    const cache = new PageCache(64 << 20);
    const key = PageCache.key('', '/big');
    expect(cache.set(key, cache.stamp('/big'), prepareNow(text(COMPRESS_NOW_MAX + 1)))).toBe(true);
    expect(cache.has(key)).toBe(true);
    expect(cache.ready(key)).toBe(false);
    expect(cache.set(key, cache.stamp('/big'), await prepare(text(COMPRESS_NOW_MAX + 1)))).toBe(true);
    expect(cache.ready(key)).toBe(true);
  });
});
