// CONTRACT §11 and §7 (favicon): how public answers are served. Compressed
// variants (br, then gzip) decode to the very bytes of the plain page; pages carry
// an ETag and answer 304; hashed assets are immutable; HEAD answers the headers of
// GET without a body; Vary names what changes the bytes.
import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { waitFor } from '../helpers/server.ts';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request whose body is left exactly as sent (fetch would decode it). */
function raw(route: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(blog.url + route, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const blog = blogForFile({ env: { PUBLIC_LAYOUT: 'blog' } });
beforeAll(async () => {
  await blog.waitForPage('/Posts/First-post', (p) => p.status === 200);
});

describe('CONTRACT §11: compression', () => {
  it('br when accepted, else gzip, else plain; every variant decodes to the same bytes', async () => {
    for (const route of ['/Posts/First-post', '/', '/topic/alpha', '/feed.xml', '/sitemap.xml']) {
      const plain = await raw(route);
      expect(plain.headers['content-encoding'], route).toBeUndefined();
      const br = await raw(route, { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding'], route).toBe('br');
      expect(brotliDecompressSync(br.body).equals(plain.body), route).toBe(true);
      const gz = await raw(route, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding'], route).toBe('gzip');
      expect(gunzipSync(gz.body).equals(plain.body), route).toBe(true);
      expect(br.body.length).toBeLessThan(plain.body.length);
      expect(Number(br.headers['content-length'])).toBe(br.body.length);
      // A refused encoding is not sent.
      expect((await raw(route, { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding']).toBe('gzip');
    }
  });

  it('RFC 9110 §12.5.3: a coding named in Accept-Encoding keeps its own weight whatever `*` says', async () => {
    const encoding = async (header: string) => (await raw('/Posts/First-post', { 'accept-encoding': header })).headers['content-encoding'];
    expect(await encoding('*, br;q=0')).toBe('gzip');
    expect(await encoding('*;q=0, gzip')).toBe('gzip');
    expect(await encoding('*')).toBe('br');
    expect(await encoding('*;q=0')).toBeUndefined();
    const gz = await raw('/Posts/First-post', { 'accept-encoding': '*, br;q=0' });
    expect(gunzipSync(gz.body).equals((await raw('/Posts/First-post')).body)).toBe(true);
  });

  it('Vary names the encoding, the cookie and (without SITE_URL) the headers the base URL comes from', async () => {
    const vary = (await raw('/Posts/First-post')).headers.vary!.toLowerCase();
    for (const h of ['accept-encoding', 'cookie', 'host', 'x-forwarded-host', 'x-forwarded-proto']) expect(vary).toContain(h);
  });

  it('the base URL follows the request: two hosts get their own absolute links, compressed alike', async () => {
    const a = await raw('/Posts/First-post', { 'x-forwarded-host': 'a.example', 'accept-encoding': 'br' });
    const b = await raw('/Posts/First-post', { 'x-forwarded-host': 'b.example', 'accept-encoding': 'br' });
    expect(brotliDecompressSync(a.body).toString()).toContain('href="http://a.example/Posts/First-post"');
    expect(brotliDecompressSync(b.body).toString()).toContain('href="http://b.example/Posts/First-post"');
    expect(a.headers.etag).not.toBe(b.headers.etag);
  });

  it('the signed-in admin gets the Edit link whatever the encoding asked; visitors never do', async () => {
    const cookie = await blog.login();
    const admin = await raw('/Posts/First-post', { cookie, 'accept-encoding': 'br, gzip' });
    const text = admin.headers['content-encoding'] === 'br' ? brotliDecompressSync(admin.body).toString() : admin.headers['content-encoding'] === 'gzip' ? gunzipSync(admin.body).toString() : admin.body.toString();
    expect(text).toContain('<a class="s-edit" href="/admin/?path=Posts%2FFirst%20post.md"');
    expect(text.trimEnd().endsWith('</html>')).toBe(true);
    const visitor = await raw('/Posts/First-post', { 'accept-encoding': 'br' });
    expect(brotliDecompressSync(visitor.body).toString()).not.toContain('s-edit');
    expect(admin.headers.etag).not.toBe(visitor.headers.etag);
  });
});

describe('RFC 9112 §3.2.2: a request target in absolute form', () => {
  it('is the page at its path, with its authority standing for the Host header', async () => {
    const server = new URL(blog.url);
    const get = (target: string) =>
      new Promise<Raw>((resolve, reject) => {
        const req = http.request({ host: server.hostname, port: server.port, path: target }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        });
        req.on('error', reject);
        req.end();
      });
    const page = await get('http://abs.example/Posts/First-post');
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain('href="http://abs.example/Posts/First-post"');
    expect((await get('http://abs.example/api/me')).status).toBe(200);
    expect((await get('http://abs.example/No-such-page')).status).toBe(404);
  });
});

describe('a big page', () => {
  it('is sent as it is to a visitor who would wait for its compression, then compressed off the thread for the next', async () => {
    // About 700 KB of page: past COMPRESS_NOW_MAX (site/serve/prepared.ts), under the cache's share for one page.
    const paragraphs = Array.from({ length: 6000 }, (_, i) => `Paragraph ${i} of a very long note, with words enough to fill a line or two.`).join('\n\n');
    await fs.writeFile(path.join(blog.vault, 'Posts/Big.md'), `---\ntitle: Big\npublish: true\ndate: 2025-01-01\n---\n${paragraphs}\n`);
    await blog.waitForPage('/Posts/Big', (p) => p.status === 200, 30_000);
    // A base URL in use but not the latest seen (warming follows that one): nothing is prepared for it yet.
    const headers = { 'x-forwarded-host': 'a.example', 'accept-encoding': 'br, gzip' };
    const first = await raw('/Posts/Big', headers);
    expect(first.status).toBe(200);
    expect(first.headers['content-encoding']).toBeUndefined();
    expect(first.body.length).toBeGreaterThan(256 * 1024);
    expect(first.body.toString()).toContain('href="http://a.example/Posts/Big"');
    let later = first;
    await waitFor(async () => (later = await raw('/Posts/Big', headers)).headers['content-encoding'] === 'br', 15_000);
    expect(brotliDecompressSync(later.body).equals(first.body)).toBe(true);
    expect(later.headers.etag).toBe(first.headers.etag);
    expect((await raw('/Posts/Big', { ...headers, 'if-none-match': first.headers.etag! })).status).toBe(304);
  });
});

describe('CONTRACT §11: the Content-Security-Policy comes with every prepared page', () => {
  it('in every encoding, on a 404, on a 304 and on the admin’s page', async () => {
    const cookie = await blog.login();
    const answers = [
      await raw('/Posts/First-post'),
      await raw('/Posts/First-post', { 'accept-encoding': 'br' }),
      await raw('/', { 'accept-encoding': 'gzip' }),
      await raw('/No/such/page', { 'accept-encoding': 'br' }),
      await raw('/Posts/First-post', { cookie }),
    ];
    answers.push(await raw('/Posts/First-post', { 'if-none-match': answers[0]!.headers.etag! }));
    expect(answers.at(-1)!.status).toBe(304);
    for (const a of answers) expect(a.headers['content-security-policy']).toContain("script-src 'self'");
    // No frame a note holds may be given the camera, the microphone or the reader's location.
    for (const a of answers) expect(a.headers['permissions-policy']).toMatch(/(^|, )camera=\(\), microphone=\(\), geolocation=\(\)/);
  });
});

describe('CONTRACT §11: ETag and 304', () => {
  it('a page carries an ETag and answers 304 without a body to If-None-Match', async () => {
    const first = await raw('/Posts/First-post', { 'accept-encoding': 'br' });
    expect(first.headers.etag).toMatch(/^W\/"/);
    expect(first.headers['cache-control']).toBe('no-cache');
    const again = await raw('/Posts/First-post', { 'if-none-match': first.headers.etag!, 'accept-encoding': 'br' });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
    // Any other validator gets the page.
    expect((await raw('/Posts/First-post', { 'if-none-match': 'W/"other"' })).status).toBe(200);
  });

  it('an edit changes the ETag: the old validator gets the new page', async () => {
    const before = await raw('/About');
    await blog.admin('PUT', '/api/note?path=About.md', { content: '---\ntitle: About this blog\npublish: true\npage: true\n---\nABOUT-EDITED-TEXT\n' });
    await blog.waitForPage('/About', (p) => p.text.includes('ABOUT-EDITED-TEXT'));
    const after = await raw('/About', { 'if-none-match': before.headers.etag! });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('a missing address is a 404 whatever the validator', async () => {
    const missing = await raw('/No/such/page');
    expect(missing.status).toBe(404);
    expect((await raw('/No/such/page', { 'if-none-match': missing.headers.etag ?? '*' })).status).toBe(404);
  });
});

describe('CONTRACT §11: hashed assets', () => {
  it('the stylesheet and scripts under /_s/ are immutable for a year, and compressed', async () => {
    const html = (await raw('/')).body.toString();
    const assets = [...html.matchAll(/(?:href|src)="(\/_s\/[^"]+)"/g)].map((m) => m[1]!);
    // The light-or-dark script, the stylesheet, the page's script.
    expect(assets.map((a) => a.replace(/\.[0-9a-f]+\./, '.'))).toEqual(['/_s/theme.js', '/_s/blog.css', '/_s/blog.js']);
    for (const asset of assets) {
      const plain = await raw(asset);
      expect(plain.status).toBe(200);
      expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(plain.headers['content-type']).toMatch(asset.endsWith('.css') ? /^text\/css/ : /javascript/);
      const br = await raw(asset, { 'accept-encoding': 'br' });
      // A few hundred bytes (the light-or-dark script) gain nothing compressed and go as they are.
      if (plain.body.length <= 256) {
        expect([asset, br.headers['content-encoding']]).toEqual([asset, undefined]);
        continue;
      }
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    }
  });
});

describe('HEAD', () => {
  it('answers exactly the headers of GET, with no body, for pages, assets, the feed and a 404', async () => {
    const html = (await raw('/')).body.toString();
    const css = /href="(\/_s\/[^"]+\.css)"/.exec(html)![1]!;
    for (const route of ['/', '/Posts/First-post', '/feed.xml', css, '/No/such/page', '/favicon.ico']) {
      const get = await raw(route, { 'accept-encoding': 'gzip' });
      const head = await raw(route, { 'accept-encoding': 'gzip' }, 'HEAD');
      expect(head.status, route).toBe(get.status);
      expect(head.body.length, route).toBe(0);
      for (const h of ['content-type', 'content-length', 'content-encoding', 'etag', 'cache-control', 'vary']) expect(head.headers[h], `${route} ${h}`).toBe(get.headers[h]);
    }
  });
});

describe('CONTRACT §7: /favicon.ico', () => {
  it('answers a built-in icon when the vault has none, and the vault root’s favicon.png once there is one', async () => {
    const builtIn = await raw('/favicon.ico');
    expect(builtIn.status).toBe(200);
    expect(builtIn.headers['content-type']).toBe('image/x-icon');
    expect(builtIn.body.readUInt16LE(2)).toBe(1); // an ICO header
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
    await fs.writeFile(path.join(blog.vault, 'favicon.png'), png);
    const mine = await blog.waitForPage('/favicon.ico', (p) => p.headers.get('content-type') === 'image/png');
    expect(mine.status).toBe(200);
    expect((await raw('/favicon.ico')).body.equals(png)).toBe(true);
  });
});
