// CONTRACT §8's SSRF rules and caps for a webmention's source, against real loopback
// servers: the resolved address is checked (a name is not trusted), IPv4 inside IPv6
// too; at most 5 s, 1 MB and 5 redirects, each redirect checked again.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../admin/comments/ip-ranges.ts';
import { linksTo, parseMention } from '../../admin/comments/mention-parse.ts';
import { fetchSource, isBadPort, SOURCE_LIMITS } from '../../admin/comments/source-fetch.ts';

describe('private, loopback and link-local addresses, v4 and v6', () => {
  it.each(['127.0.0.1', '10.0.0.8', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '::1', '::', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '::ffff:a9fe:a9fe', '64:ff9b::a00:1', '64:ff9b:1::7f00:1', '::ffff:0:7f00:1', '::ffff:0:a00:1', '2002:c0a8:0101::1', 'not-an-ip'])(
    '%s is refused',
    (a) => expect(isPrivateAddress(a)).toBe(true),
  );
  it.each(['93.184.216.34', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '::ffff:0:808:808', '64:ff9b:1::808:808'])('%s is allowed', (a) => expect(isPrivateAddress(a)).toBe(false));
});

let requests: string[] = [];
let base = '';
const server = http.createServer((req, res) => {
  requests.push(req.url ?? '');
  const url = req.url ?? '';
  const hops = /^\/hop\/(\d+)$/.exec(url);
  if (hops) {
    const n = Number(hops[1]);
    res.writeHead(302, { location: n > 0 ? `/hop/${n - 1}` : '/ok' });
    return res.end();
  }
  if (url === '/ok') return res.end('<a href="https://t.example/post">t</a>');
  if (url === '/huge') {
    res.writeHead(200, { 'content-type': 'text/html' });
    return res.end('x'.repeat(SOURCE_LIMITS.maxBytes + 10));
  }
  if (url === '/slow') return setTimeout(() => res.end('late'), 1_000);
  if (url === '/gone') {
    res.writeHead(410);
    return res.end();
  }
  if (url === '/to-smtp') {
    res.writeHead(302, { location: 'http://127.0.0.1:25/' });
    return res.end();
  }
  if (url === '/to-private') {
    res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' });
    return res.end();
  }
  res.writeHead(404);
  res.end();
});
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('fetching a source', () => {
  it('a loopback source is refused before any request, by address or by a name resolving there', async () => {
    requests = [];
    expect((await fetchSource(`${base}/ok`, false)).kind).toBe('refused');
    expect((await fetchSource(base.replace('127.0.0.1', 'localhost') + '/ok', false)).kind).toBe('refused');
    expect(requests).toEqual([]);
  });

  it('redirects: followed up to 5, refused past that, and each target checked again (a redirect to a private address is refused)', async () => {
    expect(await fetchSource(`${base}/hop/4`, true)).toMatchObject({ kind: 'ok', url: `${base}/ok` });
    expect(await fetchSource(`${base}/hop/5`, true)).toMatchObject({ kind: 'failed', reason: 'too many redirects' });
    // Only this test's own server is let through: the redirect's target (link-local, cloud metadata) is checked and refused.
    const onlyOurs = (address: string) => address === '127.0.0.1';
    requests = [];
    expect(await fetchSource(`${base}/to-private`, onlyOurs)).toEqual({ kind: 'refused', reason: '169.254.169.254 resolves to a private address' });
    expect(requests).toEqual(['/to-private']);
  });

  it('a port no browser fetches (mail, ssh…) is refused, named or reached by a redirect, before any request there', async () => {
    expect(isBadPort(new URL('http://example.org:25/'))).toBe(true);
    expect(isBadPort(new URL('https://example.org:22/x'))).toBe(true);
    expect(isBadPort(new URL('https://example.org/x'))).toBe(false);
    expect(isBadPort(new URL('http://example.org:8080/x'))).toBe(false);
    expect(await fetchSource('http://127.0.0.1:25/', true)).toEqual({ kind: 'refused', reason: 'port 25 is not fetched' });
    expect(await fetchSource(`${base}/to-smtp`, true)).toEqual({ kind: 'refused', reason: 'port 25 is not fetched' });
  });

  it('over 1 MB fails; 410 is "gone"; a slow source is cut at the time limit', async () => {
    expect(await fetchSource(`${base}/huge`, true)).toMatchObject({ kind: 'failed' });
    expect(await fetchSource(`${base}/gone`, true)).toEqual({ kind: 'gone', answered: 410 });
    const was = SOURCE_LIMITS.timeoutMs;
    SOURCE_LIMITS.timeoutMs = 200;
    try {
      const started = Date.now();
      expect(await fetchSource(`${base}/slow`, true)).toMatchObject({ kind: 'failed', reason: 'the source took longer than 5 s' });
      expect(Date.now() - started).toBeLessThan(900);
    } finally {
      SOURCE_LIMITS.timeoutMs = was;
    }
  });
});

describe('reading the source', () => {
  it('a link to the target is found in href or src, resolved against the source, whatever its fragment', () => {
    expect(linksTo('<a href="/post#x">', 'text/html', 'https://t.example/a', 'https://t.example/post')).toBe(true);
    expect(linksTo("<img src='https://t.example/post'>", 'text/html', 'https://s.example/', 'https://t.example/post')).toBe(true);
    expect(linksTo('<p>https://t.example/post</p>', 'text/html', 'https://s.example/', 'https://t.example/post')).toBe(false);
    expect(linksTo('see https://t.example/post', 'text/plain', 'https://s.example/', 'https://t.example/post')).toBe(true);
  });

  it('the h-entry gives the kind; only http(s) URLs are kept for the author', async () => {
    const html = `<div class="h-entry"><span class="p-author h-card"><a class="p-name u-url" href="javascript:alert(1)">Eve</a><img class="u-photo" src="data:image/png;base64,AAAA"></span><a class="u-like-of" href="https://t.example/post">x</a></div>`;
    expect(await parseMention(html, 'https://s.example/', 'https://t.example/post')).toEqual({ kind: 'like', author: { name: 'Eve', url: null, photo: null }, content: null, publishedAt: null });
  });
});
