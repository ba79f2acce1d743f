// The prepared-page cache: bounded by bytes, least recently used out
// first, and never storing a page prepared from a build that has since replaced it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PageCache } from '../../site/serve/page-cache.ts';
import { COMPRESS_MAX, COMPRESS_NOW_MAX, prepare, prepareNow, sendPrepared, type Prepared } from '../../site/serve/prepared.ts';

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
    expect(later.variants.br.body!.length).toBeLessThan(COMPRESS_NOW_MAX + 1);
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

describe('a compressed page holds its plain bytes only once a client asks for them', () => {
  // A page of words, as HTML compresses: both codings shrink it.
  const words = Array.from({ length: 4000 }, (_, i) => `word${(i * 7919) % 1013}`).join(' ');
  const html = Buffer.from(`<!doctype html><p>${words}</p><footer></footer>`);
  const input = { status: 200, body: html, headers: [['content-type', 'text/html']] as [string, string][], compress: true, edits: [{ at: html.indexOf('<footer>'), html: '<a href="/admin/">Edit</a>' }] };
  let page: Prepared;
  let server: http.Server;
  const get = (headers: Record<string, string>, method = 'GET') =>
    new Promise<{ body: Buffer; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
      const req = http.request({ port: (server.address() as AddressInfo).port, headers, method }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve({ body: Buffer.concat(parts), headers: res.headers }));
      });
      req.on('error', reject);
      req.end();
    });

  beforeAll(async () => {
    page = await prepare(input);
    server = http.createServer((req, res) => sendPrepared(req, res, page, req.headers['x-admin'] === '1'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('held compressed, counted at the compressed size, answered in full to a client without compression', async () => {
    const fresh = await prepare(input);
    expect(fresh.variants.identity.body).toBeNull();
    expect(fresh.size).toBeLessThan(html.length / 2);
    page = fresh;
    const compressedSize = fresh.size;
    const cache = new PageCache(1 << 20);
    const key = PageCache.key('', '/p');
    expect(cache.set(key, cache.stamp('/p'), page)).toBe(true);
    const held = cache.size.bytes;
    const head = await get({}, 'HEAD');
    expect(Number(head.headers['content-length'])).toBe(html.length);
    expect(page.variants.identity.body).toBeNull(); // a HEAD makes nothing
    const plain = await get({});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(html)).toBe(true);
    // Made once and kept: the page and the cache both count the plain bytes now.
    expect(page.variants.identity.body!.equals(html)).toBe(true);
    expect(page.size).toBe(compressedSize + html.length);
    expect(cache.size.bytes).toBe(held + html.length);
    expect((await get({})).body.equals(html)).toBe(true);
    expect(cache.size.bytes).toBe(held + html.length);
  });

  it('the compressed answers are the held copies; the admin’s Edit link is spliced into the plain bytes', async () => {
    page = await prepare(input);
    const gz = await get({ 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.body.equals(page.variants.gzip.body!)).toBe(true);
    expect(page.variants.identity.body).toBeNull();
    const admin = await get({ 'x-admin': '1', 'accept-encoding': 'br' });
    expect(admin.body.toString()).toBe(html.toString().replace('<footer>', '<a href="/admin/">Edit</a><footer>'));
  });

  it('a page grown past the budget by its plain bytes makes room by dropping others', async () => {
    page = await prepare(input);
    const cache = new PageCache(page.size * 3);
    for (const n of [1, 2]) cache.set(PageCache.key('', `/other${n}`), cache.stamp(`/other${n}`), await prepare(input));
    cache.set(PageCache.key('', '/p'), cache.stamp('/p'), page);
    await get({});
    expect(cache.size.bytes).toBeLessThanOrEqual(page.size * 3);
    expect(cache.size.pages).toBeLessThan(3);
  });
});
