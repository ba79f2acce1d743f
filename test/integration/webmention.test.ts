// Receiving webmentions (CONTRACT §8, W3C Webmention) on the real server, from a real
// source server on loopback: accepted, verified, approved, displayed; updated; removed on
// 410 and when the source stops linking; refused (and never fetched) when the source is
// on a private address and WEBMENTION_ALLOW_PRIVATE is off.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { waitFor } from '../helpers/server.ts';
import { CHECKS_AT_ONCE, CHECKS_PER_NETWORK, MAX_QUEUE, MAX_QUEUED_PER_NETWORK } from '../../admin/comments/webmention.ts';

/** Another site: pages set by the test, every request remembered. */
class SourceSite {
  pages = new Map<string, { status: number; body: string; type?: string; location?: string }>();
  requests: string[] = [];
  /** While set, a request for `/held` waits for it. */
  hold: Promise<void> | null = null;
  private server = http.createServer(async (req, res) => {
    this.requests.push(req.url ?? '');
    if (req.url?.startsWith('/held')) await this.hold;
    const page = this.pages.get(req.url ?? '') ?? { status: 404, body: 'no' };
    res.writeHead(page.status, { 'content-type': page.type ?? 'text/html; charset=utf-8', ...(page.location ? { location: page.location } : {}) });
    res.end(page.body);
  });
  url = '';
  async start(): Promise<void> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', () => r()));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  stop(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

const source = new SourceSite();
beforeAll(() => source.start());
afterAll(() => source.stop());

const files = {
  'Posts/Target.md': '---\ntitle: Target\npublish: true\ndate: 2026-02-01\n---\nThe article others mention.\n',
  'Posts/Second.md': '---\ntitle: Second\npublish: true\ndate: 2026-02-02\n---\nAnother article.\n',
  'Posts/Draft.md': '---\ntitle: Draft\ndate: 2026-02-03\n---\nNot published.\n',
  'Posts/Moving.md': '---\ntitle: Moving\npublish: true\ndate: 2026-01-05\n---\nAbout to move.\n',
};
const blog = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on', WEBMENTION_ALLOW_PRIVATE: 'on' }, files });
const guarded = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on' }, files });
const behindProxy = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on', WEBMENTION_ALLOW_PRIVATE: 'on', SITE_URL: 'https://blog.example/notes' }, files });

const send = (server: { url: string }, fields: Record<string, string>) =>
  fetch(`${server.url}/webmention`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
const target = () => `${blog.url}/Posts/Target`;
const mentionsOf = async (path = 'Posts/Target.md') => (await blog.admin('GET', `/api/mentions?path=${encodeURIComponent(path)}`)).body.mentions as any[];
/** Deletes the mentions from `src` (as the admin would), so later tests count what they made. */
const forget = async (src: string) => {
  for (const m of await mentionsOf()) if (m.source === src) expect((await blog.admin('POST', '/api/comments/moderate', { id: m.id, action: 'delete' })).status).toBe(200);
};
const mentionsSection = (html: string) => {
  const at = html.indexOf('<section class="s-mentions"');
  return at < 0 ? '' : html.slice(at, html.indexOf('</section>', at));
};

function entry(kind: 'reply' | 'like' | 'repost' | 'mention', text: string, author = 'Alice Example', link = target()): string {
  const prop = kind === 'reply' ? 'u-in-reply-to' : kind === 'like' ? 'u-like-of' : kind === 'repost' ? 'u-repost-of' : '';
  return `<!doctype html><html><body><article class="h-entry">
    <span class="p-author h-card"><a class="u-url p-name" href="https://alice.example/">${author}</a><img class="u-photo" src="/alice.png" alt=""></span>
    <time class="dt-published" datetime="2026-02-10T10:00:00Z">Feb 10</time>
    ${prop ? `<a class="${prop}" href="${link}">the post</a>` : ''}
    <div class="e-content">${text} ${prop ? '' : `<a href="${link}">this article</a>`}</div>
  </article></body></html>`;
}

describe('POST /webmention: what is refused at once (400) and what is accepted (202)', () => {
  it('every article carries <link rel="webmention">', async () => {
    const page = await blog.waitForPage('/Posts/Target', (p) => p.status === 200);
    expect(page.text).toContain(`<link rel="webmention" href="${blog.url}/webmention">`);
  });

  it('400 for a bad URL, source equal to target, a target elsewhere, a draft or missing target (alike)', async () => {
    const cases: [Record<string, string>, string][] = [
      [{ source: 'not a url', target: target() }, 'bad_url'],
      [{ source: 'ftp://example.org/x', target: target() }, 'bad_url'],
      [{ target: target() }, 'bad_url'],
      [{ source: target(), target: target() + '#here' }, 'same_url'],
      [{ source: `${source.url}/a`, target: 'https://elsewhere.example/Posts/Target' }, 'bad_target'],
      [{ source: `${source.url}/a`, target: `${blog.url}/Posts/Draft` }, 'bad_target'],
      [{ source: `${source.url}/a`, target: `${blog.url}/Posts/Nothing` }, 'bad_target'],
    ];
    for (const [fields, code] of cases) {
      const res = await send(blog, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect((await res.json()).code).toBe(code);
    }
    const draft = await (await send(blog, { source: `${source.url}/a`, target: `${blog.url}/Posts/Draft` })).text();
    const missing = await (await send(blog, { source: `${source.url}/a`, target: `${blog.url}/Posts/Nothing` })).text();
    expect(draft).toBe(missing);
    expect(source.requests).toEqual([]);
  });
});

describe('a reply, a like, a repost and a plain mention: verified, queued, approved, displayed', () => {
  it('each is checked after the answer and waits in the moderation queue', async () => {
    source.pages.set('/reply', { status: 200, body: entry('reply', 'Great <b>point</b>, &lt;script&gt;alert(1)&lt;/script&gt;') });
    source.pages.set('/like', { status: 200, body: entry('like', '', 'Liker <script>x</script>') });
    source.pages.set('/repost', { status: 200, body: entry('repost', '', 'Reposter') });
    source.pages.set('/mention', { status: 200, body: entry('mention', 'I wrote about', 'Mentioner') });
    for (const p of ['/reply', '/like', '/repost', '/mention']) expect((await send(blog, { source: source.url + p, target: target() })).status).toBe(202);
    const queued = await waitFor(async () => {
      const items = (await blog.admin('GET', '/api/comments/queue')).body.items.filter((i: { type: string }) => i.type === 'mention');
      return items.length === 4 ? items : null;
    });
    expect(queued.map((m: { kind: string }) => m.kind).sort()).toEqual(['like', 'mention', 'reply', 'repost']);
    const reply = queued.find((m: { kind: string }) => m.kind === 'reply');
    expect(reply).toMatchObject({ status: 'pending', source: `${source.url}/reply`, author: { name: 'Alice Example', url: 'https://alice.example/', photo: `${source.url}/alice.png` }, date: '2026-02-10T10:00:00.000Z' });
    // Another site's markup is kept as text only.
    expect(reply.html).toBe('<p>Great point, &lt;script&gt;alert(1)&lt;/script&gt;</p>');
    // Not shown to visitors while pending.
    expect((await fetch(`${blog.url}/api/mentions?path=Posts%2FTarget.md`).then((r) => r.json())).mentions).toEqual([]);
    expect(mentionsSection((await blog.page('/Posts/Target')).text)).toBe('');
  });

  it('approved: the Mentions section shows replies as a thread, likes and reposts as avatars loaded only in view, mentions as links', async () => {
    for (const m of await mentionsOf()) expect((await blog.admin('POST', '/api/comments/moderate', { id: m.id, action: 'approve' })).status).toBe(200);
    const page = await blog.waitForPage('/Posts/Target', (p) => ['1 like', '1 repost', 'Great point', 'Mentioner'].every((t) => p.text.includes(t)));
    const html = mentionsSection(page.text);
    expect(html).toContain('<p class="s-facepile-label">1 like</p>');
    expect(html).toContain('<p class="s-facepile-label">1 repost</p>');
    expect(html).toMatch(/<ol class="s-thread-list s-mention-replies">[^]*<p>Great point, &lt;script&gt;alert\(1\)&lt;\/script&gt;<\/p>/);
    expect(html).toContain(`<a href="${source.url}/mention" rel="nofollow ugc noopener" dir="auto">Mentioner</a>`);
    // No third-party request before the image is in view: the address is data-src, never src.
    expect(html).toContain(`data-src="${source.url}/alice.png"`);
    expect(html).not.toMatch(/\ssrc="/);
    expect(html).not.toContain('<script>x</script>');
    const visitor = await fetch(`${blog.url}/api/mentions?path=Posts%2FTarget.md`).then((r) => r.json());
    expect(visitor.mentions).toHaveLength(4);
    expect(Object.keys(visitor.mentions[0]).sort()).toEqual(['author', 'date', 'html', 'id', 'kind', 'source', 'status']);
  });

  it('the same pair sent again updates the mention, and an approved one stays approved', async () => {
    source.pages.set('/reply', { status: 200, body: entry('reply', 'Edited: an even better point') });
    expect((await send(blog, { source: `${source.url}/reply`, target: target() })).status).toBe(202);
    const page = await blog.waitForPage('/Posts/Target', (p) => p.text.includes('an even better point'));
    expect(page.text).not.toContain('Great point');
    const reply = (await mentionsOf()).filter((m) => m.kind === 'reply');
    expect(reply).toHaveLength(1);
    expect(reply[0].status).toBe('approved');
  });

  it('a source that answers 410 is removed', async () => {
    source.pages.set('/repost', { status: 410, body: 'gone' });
    expect((await send(blog, { source: `${source.url}/repost`, target: target() })).status).toBe(202);
    await blog.waitForPage('/Posts/Target', (p) => !p.text.includes('1 repost'));
    expect((await mentionsOf()).map((m) => m.kind).sort()).toEqual(['like', 'mention', 'reply']);
  });

  it('a source that answers 403 or 404 keeps its mention (only 410 or no link deletes, and anyone can ask for a check)', async () => {
    const before = (await mentionsOf()).map((m) => m.kind).sort();
    source.pages.set('/like', { status: 403, body: 'no bots' });
    expect((await send(blog, { source: `${source.url}/like`, target: target() })).status).toBe(202);
    // Checked in order: once a later mention is stored, the 403 was handled.
    source.pages.set('/after403', { status: 200, body: entry('mention', 'After the 403', 'Later', target()) });
    expect((await send(blog, { source: `${source.url}/after403`, target: target() })).status).toBe(202);
    await waitFor(async () => (await mentionsOf()).some((m: { source: string }) => m.source === `${source.url}/after403`));
    expect((await mentionsOf()).filter((m: { source: string }) => m.source !== `${source.url}/after403`).map((m) => m.kind).sort()).toEqual(before);
    source.pages.set('/like', { status: 200, body: entry('like', '') });
    await forget(`${source.url}/after403`);
  });

  it('a target sent with a fragment or a query is the same post: one mention, not one per spelling', async () => {
    source.pages.set('/frag', { status: 200, body: entry('mention', 'Fragments', 'Fragmenter', target()) });
    for (const suffix of ['#1', '#2', '?x=1']) expect((await send(blog, { source: `${source.url}/frag#top`, target: target() + suffix })).status).toBe(202);
    source.pages.set('/after-frag', { status: 200, body: entry('mention', 'After', 'Later', target()) });
    expect((await send(blog, { source: `${source.url}/after-frag`, target: target() })).status).toBe(202);
    await waitFor(async () => (await mentionsOf()).some((m: { source: string }) => m.source === `${source.url}/after-frag`));
    expect((await mentionsOf()).filter((m: { source: string }) => m.source.startsWith(`${source.url}/frag`))).toHaveLength(1);
    await forget(`${source.url}/frag`);
    await forget(`${source.url}/after-frag`);
  });

  it('a target spelled as the site 301s it (trailing slash, other case, a moved note’s old address) names the post it lands on', async () => {
    for (const [page, spelled] of [
      ['/slash', `${target()}/`],
      ['/case', `${blog.url}/posts/TARGET`],
    ] as const) {
      source.pages.set(page, { status: 200, body: entry('mention', `Spelled ${page}`, 'Speller', spelled) });
      expect((await send(blog, { source: source.url + page, target: spelled })).status, spelled).toBe(202);
    }
    await waitFor(async () => (await mentionsOf()).filter((m: { source: string }) => /\/(slash|case)$/.test(m.source)).length === 2);
    // A note moved by the admin: its old address answers 301, and a mention sent there lands on it.
    expect((await blog.admin('POST', '/api/note/rename', { path: 'Posts/Moving.md', to: 'Posts/Moved away.md' })).status).toBe(200);
    await blog.waitForPage('/Posts/Moving', (p) => p.status === 301);
    source.pages.set('/old', { status: 200, body: entry('mention', 'Old address', 'Archivist', `${blog.url}/Posts/Moving`) });
    expect((await send(blog, { source: `${source.url}/old`, target: `${blog.url}/Posts/Moving` })).status).toBe(202);
    const moved = await waitFor(async () => {
      const list = await mentionsOf('Posts/Moved away.md');
      return list.length > 0 ? list : null;
    });
    expect(moved!.map((m) => m.source)).toEqual([`${source.url}/old`]);
    // Spellings that land nowhere are refused as before.
    for (const nowhere of [`${blog.url}/posts/draft`, `${blog.url}/Posts/Nothing/`]) expect((await send(blog, { source: `${source.url}/a`, target: nowhere })).status, nowhere).toBe(400);
    await forget(`${source.url}/slash`);
    await forget(`${source.url}/case`);
  });

  it('a source that no longer links to the target is removed', async () => {
    source.pages.set('/mention', { status: 200, body: '<p>I changed my mind and link <a href="https://other.example/">elsewhere</a>.</p>' });
    expect((await send(blog, { source: `${source.url}/mention`, target: target() })).status).toBe(202);
    await blog.waitForPage('/Posts/Target', (p) => !p.text.includes('Mentioner'));
    expect((await mentionsOf()).map((m) => m.kind).sort()).toEqual(['like', 'reply']);
  });

  it('a source that never linked stores nothing; redirects are followed (at most 5)', async () => {
    source.pages.set('/nolink', { status: 200, body: '<p>Nothing here.</p>' });
    source.pages.set('/hop1', { status: 302, body: '', location: '/hop2' });
    source.pages.set('/hop2', { status: 301, body: '', location: `${source.url}/linked` });
    source.pages.set('/linked', { status: 200, body: entry('mention', 'After two redirects', 'Hopper', `${blog.url}/Posts/Second`) });
    expect((await send(blog, { source: `${source.url}/nolink`, target: `${blog.url}/Posts/Second` })).status).toBe(202);
    expect((await send(blog, { source: `${source.url}/hop1`, target: `${blog.url}/Posts/Second` })).status).toBe(202);
    const found = await waitFor(async () => {
      const list = await mentionsOf('Posts/Second.md');
      return list.length > 0 ? list : null;
    });
    // The checks run in order: the one that never linked was done first, and left nothing.
    expect(found!.map((m) => m.source)).toEqual([`${source.url}/hop1`]);
    expect(found![0].author.name).toBe('Hopper');
  });
});

describe('with SITE_URL set, a target is here when its host (and path) is SITE_URL`s', () => {
  it('the public address under SITE_URL is accepted; the address the request came to is not', async () => {
    source.pages.set('/proxied', { status: 200, body: entry('mention', 'Via the public name', 'Proxy', 'https://blog.example/notes/Posts/Target') });
    expect((await send(behindProxy, { source: `${source.url}/proxied`, target: 'https://blog.example/notes/Posts/Target' })).status).toBe(202);
    for (const wrong of [`${behindProxy.url}/Posts/Target`, 'https://blog.example/Posts/Target', 'https://other.example/notes/Posts/Target']) {
      const res = await send(behindProxy, { source: `${source.url}/proxied`, target: wrong });
      expect(res.status, wrong).toBe(400);
      expect((await res.json()).code).toBe('bad_target');
    }
    await waitFor(async () => (await behindProxy.admin('GET', '/api/comments/queue')).body.items.length === 1);
  });
});

/** POST /webmention from another loopback address (another client). */
function sendFrom(localAddress: string, fields: Record<string, string>): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = http.request(`${behindProxy.url}/webmention`, { method: 'POST', localAddress, headers: { 'content-type': 'application/x-www-form-urlencoded' } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(new URLSearchParams(fields).toString());
  });
}

describe('one sender network cannot fill the queue, nor keep others waiting', () => {
  const to = 'https://blog.example/notes/Posts/Target';

  it(`past ${MAX_QUEUED_PER_NETWORK} of its network's waiting, a client gets 429 (from any address of its /24); another network is taken and checked at once`, async () => {
    let release!: () => void;
    source.hold = new Promise<void>((resolve) => (release = resolve));
    const flood = [...Array(MAX_QUEUED_PER_NETWORK + CHECKS_PER_NETWORK + 1).keys()].map((i) => `/held-flood${i}`);
    try {
      // The first few are taken to be checked at once and wait on the held source; the queue behind them fills.
      const statuses: number[] = [];
      for (const [i, p] of flood.entries()) statuses.push(await sendFrom(`127.0.0.${i + 1}`, { source: `${source.url}${p}`, target: to }));
      await waitFor(() => flood.slice(0, CHECKS_PER_NETWORK).every((p) => source.requests.includes(p)));
      expect(statuses).toEqual([...Array(MAX_QUEUED_PER_NETWORK + CHECKS_PER_NETWORK).fill(202), 429]);
      // Another network: its source is asked for while the flood's are still held.
      expect(await sendFrom('127.0.1.2', { source: `${source.url}/other-client`, target: to })).toBe(202);
      await waitFor(() => source.requests.includes('/other-client'));
      expect(flood.slice(CHECKS_PER_NETWORK).filter((p) => source.requests.includes(p))).toEqual([]);
    } finally {
      release();
      source.hold = null;
    }
    // Every waiting source is fetched before the next test counts requests.
    await waitFor(() => flood.slice(0, -1).every((p) => source.requests.includes(p)), 30_000);
  });

  it('a full queue still takes a sender with nothing waiting (the biggest sender’s newest goes)', async () => {
    let release!: () => void;
    source.hold = new Promise<void>((resolve) => (release = resolve));
    try {
      const senders = Math.ceil((MAX_QUEUE + CHECKS_AT_ONCE) / MAX_QUEUED_PER_NETWORK) + 1;
      for (let c = 0; c < senders; c++) {
        for (let i = 0; i < MAX_QUEUED_PER_NETWORK; i++) await sendFrom(`127.1.${c + 1}.${i + 1}`, { source: `${source.url}/held-full-${c}-${i}`, target: to });
      }
      expect(await sendFrom('127.2.0.1', { source: `${source.url}/held-newcomer`, target: to })).toBe(202);
    } finally {
      release();
      source.hold = null;
    }
    await waitFor(() => source.requests.includes('/held-newcomer'), 60_000);
  }, 120_000);
});

describe('a source on a private address (WEBMENTION_ALLOW_PRIVATE off)', () => {
  it('is refused, whether named by address or by a name resolving there, and no request reaches it', async () => {
    const before = source.requests.length;
    const to = `${guarded.url}/Posts/Target`;
    source.pages.set('/private', { status: 200, body: entry('mention', 'From inside', 'Insider', to) });
    for (const src of [`${source.url}/private`, source.url.replace('127.0.0.1', 'localhost') + '/private', `http://[::ffff:127.0.0.1]:${new URL(source.url).port}/private`]) {
      const res = await send(guarded, { source: src, target: to });
      expect(res.status, src).toBe(400);
      expect((await res.json()).code).toBe('private_source');
    }
    // Only this test's source counts: checks queued by the tests before may still be running.
    expect(source.requests.slice(before).filter((r) => r === '/private')).toEqual([]);
    expect((await guarded.admin('GET', '/api/comments/queue')).body.items).toEqual([]);
  });
});
