// CONTRACT §8: a webmention's source is fetched within 5 s and 1 MB, and no connection to
// it outlives its check. A redirect whose body never ends is closed unread once the
// redirect is followed (draining it kept downloading after the check, without limit).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchSource } from '../../admin/comments/source-fetch.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { waitFor } from '../helpers/server.ts';

/** Another site whose redirects carry an endless body; each redirect's connection reports its close. */
class EndlessRedirects {
  /** Resolves when the connection that asked for that address is closed. */
  closed = new Map<string, Promise<void>>();
  page = '';
  url = '';
  private readonly chunk = Buffer.alloc(64 * 1024, 'x');
  private readonly server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/page') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(this.page);
    }
    const hops = /^\/endless\/(\d+)/.exec(url);
    if (!hops) {
      res.writeHead(404);
      return res.end();
    }
    this.closed.set(url, new Promise<void>((resolve) => req.socket.once('close', () => resolve())));
    const n = Number(hops[1]);
    res.writeHead(302, { location: n > 0 ? `/endless/${n - 1}${url.slice(hops[0].length)}` : '/page', 'content-type': 'text/plain' });
    // As much as the reader takes, for as long as the connection lasts.
    const pump = () => {
      while (!res.destroyed) if (!res.write(this.chunk)) return void res.once('drain', pump);
    };
    pump();
  });

  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** The close of the connection that asked for `path` (it must have been asked for). */
  closeOf(path: string): Promise<void> {
    const closed = this.closed.get(path);
    if (!closed) throw new Error(`${path} was never asked for; asked: ${[...this.closed.keys()].join(', ')}`);
    return closed;
  }

  stop(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

const source = new EndlessRedirects();
beforeAll(() => source.start());
afterAll(() => source.stop());

const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on', WEBMENTION_ALLOW_PRIVATE: 'on' },
  files: { 'Posts/Target.md': '---\ntitle: Target\npublish: true\ndate: 2026-02-01\n---\nThe article others mention.\n' },
});

describe('a redirect with an endless body: the mention is checked, and the redirect`s connection is closed', () => {
  it('the mention is recorded through the redirect, and the source sees the redirect`s connection closed', async () => {
    source.page = `<!doctype html><p>I wrote about <a href="${blog.url}/Posts/Target">this article</a>.</p>`;
    const sent = await fetch(`${blog.url}/webmention`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ source: `${source.url}/endless/0?server`, target: `${blog.url}/Posts/Target` }),
    });
    expect(sent.status).toBe(202);
    const mention = await waitFor(async () => {
      const items = (await blog.admin('GET', '/api/comments/queue')).body.items as { type: string; source: string }[];
      return items.find((i) => i.type === 'mention' && i.source === `${source.url}/endless/0?server`);
    });
    expect(mention).toMatchObject({ status: 'pending', kind: 'mention' });
    // The checker has moved on (the mention is stored): the redirect's connection must be gone, not drained for ever.
    await source.closeOf('/endless/0?server');
  });

  it('every hop`s connection is closed, when the redirects run out (a failed check) as when they end', async () => {
    expect(await fetchSource(`${source.url}/endless/5?fails`, true)).toMatchObject({ kind: 'failed', reason: 'too many redirects' });
    expect(await fetchSource(`${source.url}/endless/3?ends`, true)).toMatchObject({ kind: 'ok', url: `${source.url}/page` });
    const hops = [...source.closed.keys()].filter((p) => p.endsWith('?fails') || p.endsWith('?ends'));
    expect(hops.sort()).toEqual(['/endless/0?ends', '/endless/0?fails', '/endless/1?ends', '/endless/1?fails', '/endless/2?ends', '/endless/2?fails', '/endless/3?ends', '/endless/3?fails', '/endless/4?fails', '/endless/5?fails']);
    await Promise.all(hops.map((p) => source.closeOf(p)));
  });
});
