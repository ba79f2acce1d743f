// RFC 9110 §14 and §13.1.5 on attachments (sent by sirv): one well-formed byte range
// gets a 206 with exactly those bytes, a range past the end a 416, and anything else
// (malformed, another unit, several ranges, a stale If-Range) the whole file with a
// 200. No Range, however odd, drops the connection or writes to the log.
import http from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function raw(route: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(blog.url + route, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const FILE = 'PNGPUBLIC'; // 9 bytes
const blog = blogForFile({
  fixture: false,
  files: {
    'public.png': FILE,
    'one.png': 'X',
    'Post.md': '---\ntitle: Post\npublish: true\ndate: 2026-01-10\n---\n![[public.png]] ![[one.png]]\n',
  },
});
beforeAll(async () => {
  await blog.waitForPage('/public.png', (p) => p.status === 200);
});

const range = (value: string, extra: Record<string, string> = {}) => raw('/public.png', { range: value, ...extra });

describe('RFC 9110 §14: one well-formed byte range is answered with exactly its bytes', () => {
  it.each([
    ['bytes=0-3', 'PNGP', 'bytes 0-3/9'],
    ['bytes=2-2', 'G', 'bytes 2-2/9'],
    ['bytes=3-', 'PUBLIC', 'bytes 3-8/9'],
    ['bytes=-3', 'LIC', 'bytes 6-8/9'],
    ['bytes=-99', FILE, 'bytes 0-8/9'],
    ['bytes=0-99999999999999999999', FILE, 'bytes 0-8/9'],
    ['bytes=6-20', 'LIC', 'bytes 6-8/9'],
    ['BYTES = 1-2', 'NG', 'bytes 1-2/9'],
    ['bytes= 1-2 ,', 'NG', 'bytes 1-2/9'],
  ])('%s → 206 %s', async (header, body, contentRange) => {
    const res = await range(header);
    expect(res.status).toBe(206);
    expect(res.body).toBe(body);
    expect(res.headers['content-range']).toBe(contentRange);
    expect(res.headers['content-length']).toBe(String(body.length));
    expect(res.headers['content-type']).toBe('image/png');
  });

  it('bytes=0-0 of a longer file is answered whole with a 200 (sirv reads a last byte of 0 as “to the end”; §14.2 allows ignoring)', async () => {
    const res = await range('bytes=0-0');
    expect([res.status, res.body, res.headers['content-range']]).toEqual([200, FILE, undefined]);
  });

  it('a one-byte file answers bytes=0-0 with its byte', async () => {
    const res = await raw('/one.png', { range: 'bytes=0-0' });
    expect([res.status, res.body, res.headers['content-range']]).toEqual([206, 'X', 'bytes 0-0/1']);
  });
});

describe('RFC 9110 §14.1.1: a range starting at or past the end is unsatisfiable', () => {
  it.each(['bytes=9-', 'bytes=9-20', 'bytes=99999999999999999999-', 'bytes=-0'])('%s → 416 with bytes */9', async (header) => {
    const res = await range(header);
    expect(res.status).toBe(416);
    expect(res.headers['content-range']).toBe('bytes */9');
    expect(res.body).toBe('');
  });
});

describe('RFC 9110 §14.2: a Range that is invalid, of another unit, or of several ranges is ignored', () => {
  it.each(['bytes=5-1', 'bytes=abc', 'bytes=', 'bytes=-', 'bytes=1-2-3', 'bytes=0x1-2', 'bytes=+1-2', 'bytes=1.5-2', 'items=0-1', 'bytes 0-1', 'bytes=0-0,2-3', 'bytes=0-1, 5-', '=0-1'])(
    '%s → 200 with the whole file',
    async (header) => {
      const res = await range(header);
      expect(res.status).toBe(200);
      expect(res.body).toBe(FILE);
      expect(res.headers['content-range']).toBeUndefined();
      expect(res.headers['content-length']).toBe('9');
    },
  );

  it('HEAD ignores Range: the headers of a plain GET', async () => {
    const res = await raw('/public.png', { range: 'bytes=0-3' }, 'HEAD');
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe('9');
    expect(res.headers['content-range']).toBeUndefined();
  });

  it('bad ranges neither drop the connection nor write a stack trace to the log', async () => {
    const before = blog.output().length;
    for (let i = 0; i < 5; i++) for (const header of ['bytes=5-1', 'bytes=0-99999999999999999999', 'bytes=-3']) expect((await range(header)).status).toBeLessThan(300);
    const logged = blog.output().slice(before);
    expect(logged).not.toMatch(/RangeError|ERR_OUT_OF_RANGE|public page failed/);
  });
});

describe('RFC 9110 §13.1.5: If-Range', () => {
  it('the file’s own Last-Modified lets the range apply; another date or any entity tag (ours are weak) sends the whole file', async () => {
    const plain = await raw('/public.png');
    const lastModified = plain.headers['last-modified']!;
    const etag = plain.headers.etag!;
    expect(etag).toMatch(/^W\//);
    const same = await range('bytes=0-3', { 'if-range': lastModified });
    expect([same.status, same.body]).toEqual([206, 'PNGP']);
    for (const validator of ['Thu, 01 Jan 2015 00:00:00 GMT', etag, etag.slice(2), '"other"']) {
      const res = await range('bytes=0-3', { 'if-range': validator });
      expect([res.status, res.body], validator).toEqual([200, FILE]);
    }
  });
});
