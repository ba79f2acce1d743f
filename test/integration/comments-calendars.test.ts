// CONTRACT §10 for the discussion (spec D.1, CONTRACT §8): a comment's and a mention's date
// under an article are dates a visitor reads, so they follow `calendars.display` (here Hijri,
// Umm al-Qura) with BLOG_LOCALE's digits (`ar`: Arabic-Indic), and the comment counts (the
// article's heading, the home card) use the same digits, in English and in Arabic.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { waitFor } from '../helpers/server.ts';
import { newVisitor } from '../helpers/visitor.ts';

const INDIC = /[\u0660-\u0669]/;
const LATIN_DIGIT = /[0-9]/;

const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog', BLOG_LOCALE: 'ar', SITE_NAME: 'Hijri Comments', COMMENTS: 'on', WEBMENTION_ALLOW_PRIVATE: 'on' },
  settings: { calendars: { display: 'hijri' }, comments: { moderation: 'none' } },
  files: {
    'Posts/Talk.md': '---\ntitle: Talk\npublish: true\ndate: 2026-01-10\n---\nSomething to talk about.\n',
  },
});

// Another site replying to the article, with a publication date of its own (2026-01-10 is Rajab 21, 1447 AH).
let sourceUrl = '';
const source = http.createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<!doctype html><article class="h-entry">
    <span class="p-author h-card"><a class="u-url p-name" href="https://replier.example/">Replier</a></span>
    <time class="dt-published" datetime="2026-01-10T00:00:00Z">then</time>
    <a class="u-in-reply-to" href="${blog.url}/Posts/Talk">the post</a>
    <div class="e-content">A reply from elsewhere.</div></article>`);
});
beforeAll(() => new Promise<void>((r) => source.listen(0, '127.0.0.1', () => ((sourceUrl = `http://127.0.0.1:${(source.address() as AddressInfo).port}/reply`), r()))));
afterAll(() => new Promise<void>((r) => source.close(() => r())));

/** The text of the `<time>` inside the element carrying `id`. */
function timeIn(html: string, id: string): { iso: string; text: string } | null {
  const at = html.indexOf(`id="${id}"`);
  if (at < 0) return null;
  const m = /<time datetime="([^"]+)">([^<]*)<\/time>/.exec(html.slice(at));
  return m ? { iso: m[1]!, text: m[2]! } : null;
}

/** A date as CONTRACT §10 writes it in Hijri (Umm al-Qura, UTC) with Arabic-Indic digits: an oracle independent of the site's code. */
const hijri = (iso: string, language: string) =>
  new Intl.DateTimeFormat(`${language}-u-ca-islamic-umalqura-nu-arab`, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' }).format(new Date(iso));

describe('CONTRACT §10 under comments: Hijri dates and Arabic-Indic digits', () => {
  let commentId = '';

  it('a comment`s date is Hijri with Arabic-Indic digits, and the count reads (١ comment) on the article and ١ comment on the card', async () => {
    const res = await newVisitor(blog.url).postJson('/api/comments', { path: 'Posts/Talk.md', name: 'Reader', body: 'A dated comment.' });
    expect(res.status, res.text).toBe(202);
    expect(res.body.status).toBe('approved');
    commentId = res.body.id;
    const page = await blog.waitForPage('/Posts/Talk', (p) => p.text.includes(`id="comment-${commentId}"`));
    const date = timeIn(page.text, `comment-${commentId}`)!;
    expect(date.text).toBe(hijri(date.iso, 'en'));
    expect(date.text).toMatch(/ AH$/);
    expect(date.text).toMatch(INDIC);
    expect(date.text).not.toMatch(LATIN_DIGIT);
    expect(page.text).toContain('<h2 id="comments-title">Comments <span class="s-count">(١ comment)</span></h2>');
    const home = await blog.waitForPage('/', (p) => p.text.includes('class="s-card-comments"'));
    expect(home.text).toContain('<a class="s-card-comments" href="/Posts/Talk#comments">١ comment</a>');
    // The article's own date, beside it, is Hijri too (the same formatter).
    expect(home.text).toContain('<time datetime="2026-01-10T00:00:00.000Z">Rajab ٢١, ١٤٤٧ AH</time>');
  });

  it('a mention`s date (its h-entry`s published date) is Hijri with Arabic-Indic digits', async () => {
    const sent = await fetch(`${blog.url}/webmention`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ source: sourceUrl, target: `${blog.url}/Posts/Talk` }),
    });
    expect(sent.status).toBe(202);
    // Moderation "none": the checked mention is approved at once.
    await waitFor(async () => {
      const list = (await blog.admin('GET', `/api/mentions?path=${encodeURIComponent('Posts/Talk.md')}`)).body.mentions as { id: string; status: string }[];
      return list.some((m) => m.status === 'approved');
    });
    const page = await blog.waitForPage('/Posts/Talk', (p) => p.text.includes('A reply from elsewhere.'));
    const section = page.text.slice(page.text.indexOf('<section class="s-mentions"'));
    expect(section).toContain('<time datetime="2026-01-10T00:00:00.000Z">Rajab ٢١, ١٤٤٧ AH</time>');
  });

  it('in Arabic: Arabic month names, and a count with digits (٣ تعليقات) on the article and the card', async () => {
    await blog.writeSettings({ language: 'ar', calendars: { display: 'hijri' }, comments: { moderation: 'none' } });
    for (const body of ['Second comment.', 'Third comment.']) {
      const res = await newVisitor(blog.url).postJson('/api/comments', { path: 'Posts/Talk.md', name: 'قارئ', body });
      expect(res.status, res.text).toBe(202);
      expect(res.body.status).toBe('approved');
    }
    const page = await blog.waitForPage('/Posts/Talk', (p) => p.text.includes('Third comment.') && p.text.includes('(٣ تعليقات)'));
    const date = timeIn(page.text, `comment-${commentId}`)!;
    expect(date.text).toBe(hijri(date.iso, 'ar'));
    expect(date.text).toMatch(/ هـ$/);
    expect(date.text).not.toMatch(LATIN_DIGIT);
    const home = await blog.waitForPage('/', (p) => p.text.includes('٣ تعليقات'));
    expect(home.text).toContain('<a class="s-card-comments" href="/Posts/Talk#comments">٣ تعليقات</a>');
  });
});
