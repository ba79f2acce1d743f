// CONTRACT §8: a webmention's source is another site's hostile markup, read on the
// server's one thread. Past a bound of elements or microformats classes it is a plain
// mention, read at once: a 1 MB page of nested h-cards held every request for 15 s.
import { describe, expect, it } from 'vitest';
import { parseMention } from '../../admin/comments/mention-parse.ts';

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
    it(`${name}: read as a plain mention, at once`, () => {
      const started = performance.now();
      const read = parseMention(html, source, target);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(read).toEqual({ kind: 'mention', author: { name: null, url: null, photo: null }, content: null, publishedAt: null });
    });
  }

  it('a real post is still read whole: kind, author and text', () => {
    const html = `<html><body>${'<p>filler</p>'.repeat(500)}<article class="h-entry"><a class="u-in-reply-to" href="${target}">re</a>
      <a class="p-author h-card" href="https://elsewhere.example/"><img class="u-photo" src="/me.png" alt="">Ann</a>
      <div class="e-content">Nice post.</div><time class="dt-published" datetime="2026-01-02T03:04:05Z">then</time></article></body></html>`;
    expect(parseMention(html, source, target)).toMatchObject({
      kind: 'reply',
      author: { name: 'Ann', photo: 'https://elsewhere.example/me.png' },
      content: 'Nice post.',
      publishedAt: Date.parse('2026-01-02T03:04:05Z'),
    });
  });
});
