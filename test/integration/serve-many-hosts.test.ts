// Without SITE_URL a page's absolute URLs come from the request's Host (spec D.7). Pages for
// one host are never served to another (CONTRACT §15): a few names get pages kept of their
// own (MAX_BASES); past that a name's pages are made for it at each request, uncompressed and
// not kept, so forged names can neither poison another visitor's links nor grow the server.
// ALLOWED_HOSTS answers 421 to any name not on it.
import http from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { MAX_BASES } from '../../site/serve/page-source.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { ensureUiBuilt } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';

const files = { 'Posts/Long.md': `---\ntitle: Long\npublish: true\ndate: 2026-02-01\n---\n${'A sentence that makes the page worth compressing. '.repeat(400)}\n` };
const blog = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on' }, files });
const guarded = blogForFile(async () => {
  // The admin's shell is served under the allowed name too.
  await ensureUiBuilt();
  return { fixture: false, env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on', ALLOWED_HOSTS: 'blog.example,127.0.0.1' }, files };
});

type Answer = { status: number; encoding: string | undefined; body: string };

function get(server: { url: string }, route: string, headers: Record<string, string>, method = 'GET', payload?: string): Promise<Answer> {
  const url = new URL(server.url + route);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: url.hostname, port: url.port, path: route, method, headers: { 'accept-encoding': 'identity;q=0.5, gzip', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, encoding: res.headers['content-encoding'], body: (res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8') });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** What a visitor reads that carries the base URL: an article (canonical, og:url, feed link, webmention link, comment form), the feed, the sitemap, robots.txt. */
const ROUTES = ['/Posts/Long', '/feed.xml', '/sitemap.xml', '/robots.txt'];

function expectOwnBase(res: Answer, base: string, route: string): void {
  expect(res.status, route).toBe(200);
  expect(res.body, route).toContain(`${base}/`);
  expect(res.body, route).not.toMatch(/forged|attacker/);
  if (route === '/Posts/Long') {
    for (const link of [`<link rel="canonical" href="${base}/Posts/Long">`, `<meta property="og:url" content="${base}/Posts/Long">`, `href="${base}/feed.xml"`, `<link rel="webmention" href="${base}/webmention">`, `action="${base}/api/comments"`]) {
      expect(res.body, link).toContain(link);
    }
  }
}

describe('forged Host headers with SITE_URL unset', () => {
  it(`${MAX_BASES} forged names asked first take every kept place, and a visitor by the real name still gets its own links`, async () => {
    // Ready, asked by forged names only: the real name has not been seen yet.
    await waitFor(async () => (await get(blog, '/Posts/Long', { host: 'forged0.example' })).status === 200, 30_000);
    for (let i = 0; i < MAX_BASES; i++) {
      for (const route of ROUTES) expectOwnBase(await get(blog, route, { host: `forged${i}.example` }).then((r) => ({ ...r, body: r.body.replaceAll(`forged${i}.example`, 'self') })), 'http://self', route);
    }
    const real = new URL(blog.url).host;
    for (const route of ROUTES) {
      expectOwnBase(await get(blog, route, { host: real }), `http://${real}`, route);
      // Asked again (a cache would answer now, if anything were kept for this name).
      expectOwnBase(await get(blog, route, { host: real }), `http://${real}`, route);
    }
    // The forged names' own pages are still theirs, from the cache (compressed).
    for (let i = 0; i < MAX_BASES; i++) {
      const res = await get(blog, '/Posts/Long', { host: `forged${i}.example` });
      expect(res.encoding).toBe('gzip');
      expect(res.body).toContain(`<link rel="canonical" href="http://forged${i}.example/Posts/Long">`);
    }
  });

  it('past the bound every name still gets its own pages; none is kept, and the kept names keep theirs', async () => {
    for (let i = 0; i < 40; i++) {
      const host = `h${i}.attacker.example`;
      for (const route of ROUTES) {
        const res = await get(blog, route, { host });
        expect(res.status).toBe(200);
        expect(res.body, route).toContain(`http://${host}/`);
        expect(res.body, route).not.toContain('forged');
        if (route === '/Posts/Long') {
          // Made for this request alone: not compressed, not kept.
          expect(res.encoding).toBeUndefined();
          expect(res.body).toContain(`<link rel="canonical" href="http://${host}/Posts/Long">`);
        }
      }
    }
    // A proxy's X-Forwarded-Host is a name like any other.
    const proxied = await get(blog, '/Posts/Long', { host: new URL(blog.url).host, 'x-forwarded-host': 'h99.attacker.example' });
    expect(proxied.body).toContain('<link rel="canonical" href="http://h99.attacker.example/Posts/Long">');
    const res = await get(blog, '/Posts/Long', { host: 'forged1.example' });
    expect(res.encoding).toBe('gzip');
    expect(res.body).toContain('<link rel="canonical" href="http://forged1.example/Posts/Long">');
    expect(res.body).not.toContain('attacker');
  });
});

describe('ALLOWED_HOSTS', () => {
  const port = () => new URL(guarded.url).port;

  it('answers 421 to any other name (Host or X-Forwarded-Host), pages and API alike, and serves the listed ones', async () => {
    await waitFor(async () => (await get(guarded, '/Posts/Long', { host: `127.0.0.1:${port()}` })).status === 200, 30_000);
    for (const headers of [{ host: 'evil.example' } as Record<string, string>, { host: `evil.example:${port()}` }, { host: 'blog.example.evil' }, { host: 'blog.example', 'x-forwarded-host': 'evil.example' }]) {
      for (const route of [...ROUTES, '/api/me', '/admin/']) expect((await get(guarded, route, headers)).status, `${JSON.stringify(headers)} ${route}`).toBe(421);
      expect((await get(guarded, '/api/login', { ...headers, 'content-type': 'application/json' }, 'POST', '{"password":"x"}')).status).toBe(421);
    }
    for (const host of ['blog.example', 'blog.example:8443', `127.0.0.1:${port()}`]) {
      const res = await get(guarded, '/Posts/Long', { host });
      expect(res.status, host).toBe(200);
      expect(res.body).toContain(`<link rel="canonical" href="http://${host}/Posts/Long">`);
    }
    expect((await get(guarded, '/robots.txt', { host: 'blog.example', 'x-forwarded-host': 'blog.example', 'x-forwarded-proto': 'https' })).body).toContain('Sitemap: https://blog.example/sitemap.xml');
  });

  it('the admin works under an allowed name', async () => {
    // guarded.url is http://127.0.0.1:PORT, a listed name: sign in, read and write through the API.
    expect((await guarded.admin('GET', '/api/me')).body).toEqual({ admin: true });
    expect((await guarded.admin('PUT', '/api/note?path=Posts%2FNew.md', { content: '# New\n' })).status).toBeLessThan(300);
    expect((await guarded.admin('GET', '/api/note?path=Posts%2FNew.md')).status).toBe(200);
    const shell = await get(guarded, '/admin/', { host: `127.0.0.1:${port()}` });
    expect(shell.status).toBe(200);
    expect(shell.body).toContain('<script');
  });
});
