// Without SITE_URL a page's absolute URLs come from the request's Host (spec D.7). A few
// names a site is reached by get pages of their own (MAX_BASES); any other gets the pages of
// the longest-held name, from the cache, so a client sending a new Host with every request
// costs a cache hit and grows nothing (it once took a server from 7,000 to 60 requests a
// second and to 2.6 GB: a reviewer's find).
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_BASES } from '../../site/serve/page-source.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';

const blog = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'blog' }, files: { 'Posts/Long.md': `---\ntitle: Long\npublish: true\ndate: 2026-02-01\n---\n${'A sentence that makes the page worth compressing. '.repeat(400)}\n` } });

function get(route: string, host: string): Promise<{ status: number; encoding: string | undefined; body: string }> {
  const url = new URL(blog.url + route);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: route, headers: { host, 'accept-encoding': 'identity;q=0.5, gzip' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, encoding: res.headers['content-encoding'], body: (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

describe('pages for many Host names', () => {
  it(`the first ${MAX_BASES} names in use get pages of their own; every other gets the first name's, from the cache`, async () => {
    await blog.waitForPage('/Posts/Long', (p) => p.status === 200);
    // The test's own requests came with the server's address as their Host: one of the names in use.
    const kept = [new URL(blog.url).host, ...Array.from({ length: MAX_BASES - 1 }, (_, i) => `kept${i}.example`)];
    for (const host of kept) {
      await get('/Posts/Long', host);
      // Kept: the second answer comes from the cache, compressed.
      expect((await get('/Posts/Long', host)).encoding, host).toBe('gzip');
    }
    for (let i = 0; i < 40; i++) {
      const host = `h${i}.attacker.example`;
      const res = await get('/Posts/Long', host);
      expect(res.status).toBe(200);
      expect(res.encoding, host).toBe('gzip');
      // The longest-held name's page: the test's own address.
      expect(res.body).toContain(`<link rel="canonical" href="${blog.url}/Posts/Long">`);
      expect(res.body).not.toContain(host);
    }
    // The names in use keep their place and their own pages.
    for (const host of kept) {
      const res = await get('/Posts/Long', host);
      expect(res.encoding).toBe('gzip');
      expect(res.body).toContain(`<link rel="canonical" href="http://${host}/Posts/Long">`);
      expect(res.body).not.toContain('attacker.example');
    }
  });
});
