// The site's files are sent by sirv (site/serve/site-files.ts) behind the public server's
// gate: only an address the site index holds reaches it. An attachment of an unpublished
// note, a file left in the live site folder, and a compressed copy beside an asset are
// never served; an asset's .br and .gz are made once and sent as RFC 9110 §12.5.3 picks.
import http from 'node:http';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

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

const PUBLISHED = 'PNG-PUBLISHED-BYTES';
const SECRET = 'PNG-SECRET-BYTES';
const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog' },
  files: {
    'Posts/Shown.md': '---\ntitle: Shown\npublish: true\ndate: 2026-01-10\n---\n![[shown.png]] ![[a%41.png]]\n',
    'Posts/shown.png': PUBLISHED,
    'Posts/a%41.png': 'PNG-PERCENT',
    'Drafts/Hidden.md': '---\ntitle: Hidden\npublish: false\n---\n![[hidden.png]]\n',
    'Drafts/hidden.png': SECRET,
  },
});

let css = '';
let live = '';
beforeAll(async () => {
  const home = await blog.waitForPage('/Posts/Shown', (p) => p.status === 200, 30_000);
  css = /href="(\/_s\/[^"]+\.css)"/.exec(home.text)![1]!;
  // The live site folder: the generation holding the stylesheet.
  const root = path.join(blog.data, 'public-site');
  for (const name of await fs.readdir(root)) {
    if (await fs.stat(path.join(root, name, css)).catch(() => null)) live = path.join(root, name);
  }
  expect(live).not.toBe('');
});

describe('only what the site index holds is sent', () => {
  it('a published attachment is sent, a name holding a % escape as it is (never decoded twice)', async () => {
    expect((await raw('/Posts/shown.png')).body.toString()).toBe(PUBLISHED);
    const odd = await raw('/Posts/a%2541.png');
    expect([odd.status, odd.body.toString()]).toEqual([200, 'PNG-PERCENT']);
  });

  it('an attachment only an unpublished note shows is a 404, under any spelling of its address', async () => {
    for (const route of ['/Drafts/hidden.png', '/drafts/hidden.png', '/Drafts/hidden.png/', '/Drafts/%68idden.png']) {
      const res = await raw(route);
      expect(res.status, route).toBe(404);
      expect(res.body.toString(), route).not.toContain(SECRET);
    }
  });

  it('a file put in the live site folder, and the compressed copy beside an asset, are 404s', async () => {
    // A positive signal first: the asset's compressed copy exists on disk.
    expect((await raw(css, { 'accept-encoding': 'br' })).headers['content-encoding']).toBe('br');
    await fs.access(path.join(live, css + '.br'));
    await fs.writeFile(path.join(live, 'planted.png'), SECRET);
    await fs.writeFile(path.join(live, '_s', 'planted.css'), SECRET);
    for (const route of ['/planted.png', '/_s/planted.css', css + '.br', css + '.gz', '/Drafts/hidden.png']) {
      const res = await raw(route, { 'accept-encoding': 'br, gzip' });
      expect(res.status, route).toBe(404);
      expect(res.body.toString('latin1'), route).not.toContain(SECRET);
    }
  });
});

describe('content-named files under /_s/', () => {
  it('send the coding RFC 9110 §12.5.3 picks from the copies made once beside them, each decoding to the file', async () => {
    const plain = await raw(css);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const coding = async (accept: string) => {
      const res = await raw(css, { 'accept-encoding': accept });
      const c = res.headers['content-encoding'];
      const body = c === 'br' ? brotliDecompressSync(res.body) : c === 'gzip' ? gunzipSync(res.body) : res.body;
      expect(body.equals(plain.body), accept).toBe(true);
      expect(Number(res.headers['content-length']), accept).toBe(res.body.length);
      expect(res.headers.vary, accept).toBe('Accept-Encoding');
      expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
      return c;
    };
    expect(await coding('gzip, deflate, br')).toBe('br');
    expect(await coding('br;q=0, gzip')).toBe('gzip');
    expect(await coding('*, br;q=0')).toBe('gzip');
    expect(await coding('gzip;q=0, br;q=0')).toBeUndefined();
    expect(await coding('*;q=0')).toBeUndefined();
    const { mtimeMs } = await fs.stat(path.join(live, css + '.br'));
    await coding('br');
    expect((await fs.stat(path.join(live, css + '.br'))).mtimeMs).toBe(mtimeMs);
  });

  it('answer 304 to their ETag, per coding, and ignore Range', async () => {
    const br = await raw(css, { 'accept-encoding': 'br' });
    const again = await raw(css, { 'accept-encoding': 'br', 'if-none-match': br.headers.etag! });
    expect([again.status, again.body.length]).toEqual([304, 0]);
    const plain = await raw(css);
    expect(plain.headers.etag).not.toBe(br.headers.etag);
    const ranged = await raw(css, { range: 'bytes=0-3' });
    expect([ranged.status, ranged.body.length, ranged.headers['content-range']]).toEqual([200, plain.body.length, undefined]);
  });
});
