// The article's comment form posted without a script and refused (CONTRACT §8): in a real
// browser with scripts off, the visitor gets a page in the site's language that says why,
// with the form again holding what they wrote (nothing typed is lost), and posting it
// from there, fixed, goes back to the article with the notice. Its own server: the form
// posts count against the 3-a-minute rule of one client address.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminForFile, pageProblems, screenshot } from '../helpers/browser.ts';
import { commentFailurePage } from '../../site/serve/comment-failure.ts';

const { server, browser } = adminForFile({
  prefix: 'vs-e2e-comment-refused-',
  prepare: async ({ vault }) => {
    await fs.mkdir(path.join(vault, 'Posts'), { recursive: true });
    await fs.writeFile(path.join(vault, 'Posts/Pond.md'), '---\ntitle: The pond\npublish: true\ndate: 2026-03-01\n---\nFrogs.\n');
    return { env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on' } };
  },
});

describe('a comment form posted without a script and refused', () => {
  it('answers a page saying why, with what was written, and the fixed form posts from there', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const problems = pageProblems(page);
    await page.goto(server.url + '/Posts/Pond');
    // A name of spaces alone passes the browser's `required`; the server refuses it.
    const written = 'A long thought about <b>frogs</b> & ponds,\nkept whole.';
    await page.fill('#comment-name', '   ');
    await page.fill('#comment-email', 'reader@example.org');
    await page.fill('#comment-body', written);
    await page.waitForTimeout(2100); // the form's 2 s rule: a person takes longer to write
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.click('.s-submit')]);
    expect(answer.status()).toBe(400);
    expect(answer.headers()['content-type']).toBe('text/html; charset=utf-8');
    await expect(page.locator('[role=alert]').textContent()).resolves.toBe('Your comment could not be sent: name is required.');
    expect(await page.inputValue('#comment-body')).toBe(written);
    expect(await page.inputValue('#comment-email')).toBe('reader@example.org');
    expect(await page.locator('a[href$="/Posts/Pond#comments"]').textContent()).toBe('Back to the article');
    await screenshot(page, 'comments-no-script-refused');

    await page.fill('#comment-name', 'Fixed Name');
    await page.click('button[type=submit]');
    await page.waitForURL(/\/Posts\/Pond\?comment=pending#comments$/);
    await expect(page.locator('#comment-notice').textContent()).resolves.toBe('Thank you: your comment is awaiting moderation.');
    const queued = (await server.admin('GET', '/api/comments/queue')).body.items as { name?: string; body?: string; html?: string }[];
    expect(queued.map((c) => c.name)).toEqual(['Fixed Name']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a form post to a note that is not a published post is the one 404 every such post gets, not a page', async () => {
    const form = (path: string) =>
      fetch(server.url + '/api/comments', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ path, name: ' ', body: 'x' }) });
    const missing = await form('Posts/Nothing.md');
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
    const json = await fetch(server.url + '/api/comments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: 'Posts/Nothing.md', name: 'A', body: 'x' }) });
    expect(await missing.text()).toBe(await json.text());
  });

  it('a JSON post refused is answered in JSON, as before', async () => {
    const res = await fetch(server.url + '/api/comments', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: 'Posts/Pond.md', name: ' ', body: 'x' }) });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'required', field: 'name' });
  });
});

describe('the page itself', () => {
  it('is in the site’s language and direction, and everything the visitor sent stays text', () => {
    const html = commentFailurePage({
      language: 'ar',
      message: 'name is required.',
      article: 'https://blog.example/Posts/x"><script>',
      fields: { name: '"><script>alert(1)</script>', body: '</textarea><script>alert(2)</script>', path: 'Posts/a.md', loaded: '12345', subject: 'trap', website: 'javascript:alert(3)' },
    });
    expect(html).toContain('<html lang="ar" dir="rtl">');
    // Readable in a dark browser: the page says it takes both schemes (black on dark otherwise).
    expect(html).toContain('<meta name="color-scheme" content="light dark">');
    expect(html).toContain('تعذّر إرسال تعليقك:');
    expect(html).not.toContain('<script>');
    expect(html).toContain('&lt;/textarea&gt;&lt;script&gt;alert(2)&lt;/script&gt;</textarea>');
    // The trap is not carried over; the path and the page's load time are.
    expect(html).not.toContain('name="subject"');
    expect(html).toContain('<input type="hidden" name="path" value="Posts/a.md">');
    expect(html).toContain('<input type="hidden" name="loaded" value="12345">');
  });
});
