// CONTRACT §8: a webmention's source is another site's hostile markup. Past a bound of
// elements or microformats classes it is a plain mention, read at once (a 1 MB page of
// nested h-cards held every request for 15 s); within them, the parse runs in a thread
// of its own with 2 s and a 128 MB heap (58 KB of rebuilt formatting elements held every
// request for 30 s and took the server to 4 GB).
import { describe, expect, it } from 'vitest';
import { parseMention } from '../../admin/comments/mention-parse.ts';
import { mf2Items, PARSE_MS } from '../../admin/comments/mf2-worker.ts';

const target = 'https://blog.example/Posts/Hello';
const source = 'https://elsewhere.example/post';
const nearlyMB = (unit: string, head = '') => head + unit.repeat(Math.floor((1024 * 1024 - 2000) / unit.length));

describe('a source the parser would choke on', () => {
  const hostile: Record<string, string> = {
    'nested h-cards': nearlyMB('<div class="h-card">', `<a href="${target}">t</a><div class="h-entry">`),
    'elements with many properties': nearlyMB('<span class="p-name p-summary e-content u-url dt-published">a</span>', `<a href="${target}">t</a><div class="h-entry">`),
    'nested tables': nearlyMB('<table><tr><td>', `<a href="${target}">t</a>`),
  };
  for (const [name, html] of Object.entries(hostile)) {
    it(`${name}: read as a plain mention, at once`, async () => {
      const started = performance.now();
      const read = await parseMention(html, source, target);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(read).toEqual({ kind: 'mention', author: { name: null, url: null, photo: null }, content: null, publishedAt: null });
    });
  }

  it('markup the parser rebuilds without end (within the bounds) is cut off in time, and this thread never stops', async () => {
    const n = 1_000;
    let html = `<html><body><a href="${target}">t</a><div class="h-entry"><p>`;
    for (let i = 0; i < n; i++) html += `<b id=${i}>`;
    for (let i = 0; i < n; i++) html += '<p>x';
    let longest = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 20);
    const started = performance.now();
    const read = await parseMention(html, source, target);
    // One more tick, so a parse that held this thread shows as the gap before it.
    await new Promise((resolve) => setTimeout(resolve, 40));
    clearInterval(ticker);
    expect(read.kind).toBe('mention');
    expect(performance.now() - started).toBeLessThan(PARSE_MS + 1_500);
    // This thread ticked on throughout (the parse took seconds of another thread's time).
    expect(longest).toBeLessThan(500);
    // And the next source is read as usual.
    const next = await parseMention(`<div class="h-entry"><a class="u-like-of" href="${target}">x</a></div>`, source, target);
    expect(next.kind).toBe('like');
  }, 20_000);

  it('a source sent the moment a stuck parse is stopped goes to a new thread and is read whole', async () => {
    let html = `<html><body><a href="${target}">t</a><div class="h-entry"><p>`;
    for (let i = 0; i < 1_000; i++) html += `<b id=${i}>`;
    for (let i = 0; i < 1_000; i++) html += '<p>x';
    const like = `<div class="h-entry"><a class="u-like-of" href="${target}">x</a></div>`;
    // Stopped for its time (50 ms here: it takes seconds), and the next source sent in the same
    // turn as its answer, while its thread is being stopped, not yet gone.
    const next = await new Promise<unknown[] | null>((resolve, reject) => {
      mf2Items(html, source, 50).then((items) => {
        expect(items).toBeNull();
        resolve(mf2Items(like, source));
      }, reject);
    });
    expect(next).toEqual([expect.objectContaining({ type: ['h-entry'] })]);
  }, 20_000);

  it('a real post is still read whole: kind, author and text', async () => {
    const html = `<html><body>${'<p>filler</p>'.repeat(500)}<article class="h-entry"><a class="u-in-reply-to" href="${target}">re</a>
      <a class="p-author h-card" href="https://elsewhere.example/"><img class="u-photo" src="/me.png" alt="">Ann</a>
      <div class="e-content">Nice post.</div><time class="dt-published" datetime="2026-01-02T03:04:05Z">then</time></article></body></html>`;
    expect(await parseMention(html, source, target)).toMatchObject({
      kind: 'reply',
      author: { name: 'Ann', photo: 'https://elsewhere.example/me.png' },
      content: 'Nice post.',
      publishedAt: Date.parse('2026-01-02T03:04:05Z'),
    });
  });
});
