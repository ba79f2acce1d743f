// Comments and Mentions in a real browser (CONTRACT §8): a visitor posts with
// scripts off (the form comes back to #comments with the notice) and on (JSON, the notice
// in place), all under the page's CSP; the admin approves from the queue and the article
// shows it; hostile text stays text in the admin app (names, bodies, a website, a mention's
// author); the queue's filter by note and Reject; the note's thread in the right panel;
// mention avatars are fetched only once in view; an Arabic site reads right to left.
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminForFile, clearToasts, openFromTree, pageProblems, screenshot } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { newVisitor } from '../helpers/visitor.ts';

const HOSTILE_AUTHOR = '<img src=x onerror=alert(7)>"><b>Mallory</b>';
// Another site: a page mentioning the article (a like, with its author's face) and the face itself.
const faces: string[] = [];
let other = '';
let target = '';
const otherSite = http.createServer((req, res) => {
  if (req.url === '/face.png') {
    faces.push(req.url);
    res.writeHead(200, { 'content-type': 'image/png' });
    // A 1x1 transparent PNG.
    return res.end(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'));
  }
  res.writeHead(200, { 'content-type': 'text/html' });
  // A reply whose author's name is markup (escaped in the source, so the parsed name is that markup as text).
  if (req.url === '/hostile') {
    return res.end(`<div class="h-entry"><span class="p-author h-card"><a class="u-url p-name" href="${other}/">${HOSTILE_AUTHOR.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</a></span><a class="u-in-reply-to" href="${target}">re</a><p class="e-content">A hostile reply.</p></div>`);
  }
  res.end(`<div class="h-entry"><span class="p-author h-card"><a class="u-url p-name" href="${other}/">Faye Farsite</a><img class="u-photo" src="/face.png"></span><a class="u-like-of" href="${target}">liked</a></div>`);
});
beforeAll(() => new Promise<void>((r) => otherSite.listen(0, '127.0.0.1', () => ((other = `http://127.0.0.1:${(otherSite.address() as AddressInfo).port}`), r()))));
afterAll(() => new Promise<void>((r) => otherSite.close(() => r())));

const long = Array.from({ length: 40 }, (_, i) => `Paragraph ${i}, long enough that the discussion sits well below the first screen.`).join('\n\n');
const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-comments-',
  prepare: async ({ vault }) => {
    await fs.mkdir(path.join(vault, 'Posts'), { recursive: true });
    await fs.writeFile(path.join(vault, 'Posts/Garden.md'), `---\ntitle: The garden\npublish: true\ndate: 2026-03-01\n---\n${long}\n`);
    await fs.writeFile(path.join(vault, 'Posts/حديقة.md'), '---\ntitle: الحديقة\npublish: true\ndate: 2026-03-02\n---\nمقال عن الحديقة والأشجار.\n');
    return { env: { PUBLIC_LAYOUT: 'blog', SITE_NAME: 'Garden notes', COMMENTS: 'on', WEBMENTION_ALLOW_PRIVATE: 'on' } };
  },
});

/** A visitor's page; fails the test on any CSP violation or script error. */
async function visit(route: string, options: { js?: boolean; width?: number; dark?: boolean } = {}): Promise<{ page: Page; context: BrowserContext; problems: string[] }> {
  const context = await browser.newContext({ javaScriptEnabled: options.js !== false, viewport: { width: options.width ?? 1100, height: 800 }, colorScheme: options.dark ? 'dark' : 'light' });
  const page = await context.newPage();
  const problems = pageProblems(page);
  await page.goto(server.url + route);
  return { page, context, problems };
}

const queue = async () => (await server.admin('GET', '/api/comments/queue')).body.items as { id: string; name?: string; type: string; note: string }[];

describe('a visitor comments', () => {
  it('with scripts off: the form posts, comes back to #comments and shows the notice', async () => {
    const { page, context, problems } = await visit('/Posts/Garden', { js: false });
    await page.fill('#comment-name', 'Nora No-Script');
    await page.fill('#comment-body', 'Written *without* a script.');
    // The 2 s rule: a person takes longer than that to write.
    await page.waitForTimeout(2100);
    await page.click('.s-submit');
    await page.waitForURL(/\?comment=pending#comments$/);
    await expect(page.locator('#comment-notice').textContent()).resolves.toBe('Thank you: your comment is awaiting moderation.');
    expect(await page.locator('#comment-notice').isVisible()).toBe(true);
    await screenshot(page, 'comments-no-script-notice');
    expect((await queue()).some((i) => i.name === 'Nora No-Script')).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('with scripts on: JSON is posted, the notice shows in place and the page stays', async () => {
    const { page, context, problems } = await visit('/Posts/Garden');
    await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
    const posted: { type: string | null; body: string | null }[] = [];
    page.on('request', (r) => r.method() === 'POST' && posted.push({ type: r.headers()['content-type'] ?? null, body: r.postData() }));
    await page.fill('#comment-name', '<img src=x onerror=alert(1)> Sam');
    await page.fill('#comment-email', 'sam@example.org');
    await page.fill('#comment-body', 'Posted **with** the script <script>alert(2)</script>');
    // No wait: a JSON post is judged by the other rules, not the form's 2 s rule (CONTRACT §8).
    const before = page.url();
    await page.click('.s-submit');
    await page.locator('.s-form-status[data-kind="ok"]').waitFor();
    expect(await page.locator('.s-form-status').textContent()).toBe('Thank you: your comment is awaiting moderation.');
    expect(page.url()).toBe(before);
    expect(posted).toHaveLength(1);
    expect(posted[0]!.type).toBe('application/json');
    expect(JSON.parse(posted[0]!.body!)).toMatchObject({ path: 'Posts/Garden.md', name: '<img src=x onerror=alert(1)> Sam', subject: '' });
    expect(await page.inputValue('#comment-body')).toBe('');
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the owner moderates', () => {
  it('the status bar counts what waits; the Comments view lists it (hostile text as text); Approve puts it on the article', async () => {
    const { page } = main;
    const alerts: string[] = [];
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.locator('[data-testid="comments-badge"] .count').filter({ hasText: '2' }).waitFor();
    await page.click('[data-testid="comments-badge"]');
    const item = page.locator('[data-testid="comment-queue"] .comment-card', { hasText: 'Sam' });
    await item.waitFor();
    expect(await item.locator('.comment-who').textContent()).toBe('<img src=x onerror=alert(1)> Sam');
    expect(await item.locator('.comment-text').textContent()).toBe('Posted **with** the script <script>alert(2)</script>');
    expect(await page.locator('.comments-view img').count()).toBe(0);
    await clearToasts(page);
    await screenshot(page, 'comments-admin-queue', true);
    await item.locator('[data-action="approve"]').click();
    await item.waitFor({ state: 'detached' });
    await page.locator('[data-testid="comments-badge"] .count').filter({ hasText: '1' }).waitFor();
    // The visitor's article has it, rendered harmlessly.
    const { page: article, context } = await visit('/Posts/Garden');
    await waitFor(async () => {
      await article.reload();
      return (await article.locator('#comments .s-comment-author').allTextContents()).includes('<img src=x onerror=alert(1)> Sam');
    }, 15_000, 200);
    expect(await article.locator('#comments .s-comment-body strong').textContent()).toBe('with');
    expect(await article.locator('#comments .s-comment-body script').count()).toBe(0);
    expect(alerts).toEqual([]);
    await article.locator('#comments').scrollIntoViewIfNeeded();
    await screenshot(article, 'comments-article-light', true);
    await context.close();
  });

  it('the note`s thread in the right panel: every comment with its status; Reply publishes as the site`s author', async () => {
    const { page } = main;
    await page.locator('.views button', { hasText: 'Edit' }).click();
    await openFromTree(page, 'Posts/Garden.md');
    const thread = page.locator('[data-testid="note-comments"]');
    await thread.locator('.comment-card', { hasText: 'Nora No-Script' }).waitFor();
    expect(await thread.locator('.comment-card[data-status="pending"]').count()).toBe(1);
    expect(await thread.locator('.comment-card[data-status="approved"]').count()).toBe(1);
    const sam = thread.locator('.comment-card', { hasText: 'Sam' });
    await sam.locator('[data-action="reply"]').click();
    await sam.locator('textarea').fill('Thank you, Sam.');
    // While the reply is on its way its text cannot change: what is typed then would be cleared with it, unsent.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/comments/reply', async (route) => {
      await held;
      await route.continue();
    });
    try {
      await sam.locator('button[type="submit"]').click();
      await waitFor(async () => !(await sam.locator('textarea').isEditable()));
      release();
      await thread.locator('.comment-card', { hasText: 'Thank you, Sam.' }).waitFor();
    } finally {
      release();
      await page.unroute('**/api/comments/reply');
    }
    const { page: article, context } = await visit('/Posts/Garden');
    await waitFor(async () => {
      await article.reload();
      return (await article.locator('#comments .s-replies .s-by-author .s-comment-body').count()) === 1;
    }, 15_000, 200);
    expect(await article.locator('#comments .s-by-author .s-author-badge').textContent()).toBe('Author');
    await context.close();
  });
});

describe('mentions', () => {
  it('an approved like shows its author`s face, fetched from the other site only once it is in view', async () => {
    target = `${server.url}/Posts/Garden`;
    const sent = await fetch(`${server.url}/webmention`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ source: `${other}/liked`, target }) });
    expect(sent.status).toBe(202);
    const like = await waitFor(async () => (await queue()).find((i) => i.type === 'mention'));
    expect((await server.admin('POST', '/api/comments/moderate', { id: like!.id, action: 'approve' })).status).toBe(200);
    const { page, context, problems } = await visit('/Posts/Garden');
    await waitFor(async () => {
      await page.reload();
      return (await page.locator('#mentions .s-likes').count()) === 1;
    }, 15_000, 200);
    // Loaded, scripts run, nothing below the fold asked for: the face has not been fetched.
    await page.waitForFunction(() => document.readyState === 'complete' && document.documentElement.classList.contains('s-js'));
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(faces).toEqual([]);
    await page.locator('#mentions').scrollIntoViewIfNeeded();
    await page.locator('#mentions .s-avatar-img:not([hidden])').waitFor();
    expect(faces).toEqual(['/face.png']);
    expect(await page.locator('#mentions .s-facepile a').getAttribute('title')).toBe('Faye Farsite');
    await screenshot(page, 'comments-mentions', true);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the queue: every field as text, the filter by note, Reject', () => {
  const ARABIC = 'Posts/حديقة.md';
  const cardIds = () => main.page.locator('[data-testid="comment-queue"] .comment-card').evaluateAll((els) => els.map((el) => el.getAttribute('data-id')).sort());

  it('a commenter`s website and a mention author`s name carrying markup show as text; the website`s link stays https', async () => {
    const { page } = main;
    const alerts: string[] = [];
    page.on('dialog', (d) => {
      alerts.push(d.message());
      void d.dismiss();
    });
    // From an address of its own: the browser's visitor has its 3 posts a minute to spend.
    const webby = await newVisitor(server.url).postJson('/api/comments', { path: ARABIC, name: 'Webby', body: 'See my site.', website: 'https://evil.example/"><b>x</b>' });
    expect(webby.status, webby.text).toBe(202);
    const stored = (await server.admin('GET', `/api/comments?path=${encodeURIComponent(ARABIC)}`)).body.comments.find((c: { id: string }) => c.id === webby.body.id).website as string;
    target = `${server.url}/Posts/Garden`;
    const sent = await fetch(`${server.url}/webmention`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ source: `${other}/hostile`, target }) });
    expect(sent.status).toBe(202);
    await waitFor(async () => (await queue()).some((i) => i.type === 'mention'));
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await page.click('[data-testid="comments-badge"]');
    const card = page.locator('[data-testid="comment-queue"] .comment-card', { hasText: 'Webby' });
    await card.waitFor();
    const link = card.locator('.comment-card-meta a');
    expect(await link.getAttribute('href')).toBe(stored);
    expect(stored).toMatch(/^https:\/\/evil\.example\//);
    expect(await link.textContent()).toBe(stored);
    const mention = page.locator('[data-testid="comment-queue"] .comment-card[data-type="mention"]');
    await mention.waitFor();
    expect(await mention.locator('.comment-who').textContent()).toBe(HOSTILE_AUTHOR);
    expect(await mention.locator('.comment-text').textContent()).toBe('A hostile reply.');
    expect(await page.locator('.comments-view img, .comments-view b').count()).toBe(0);
    expect(alerts).toEqual([]);
  });

  it('the filter by note leaves only that note`s cards; Reject takes a card out of the queue', async () => {
    const { page } = main;
    const second = await newVisitor(server.url).postJson('/api/comments', { path: ARABIC, name: 'Second reader', body: 'Also here.' });
    expect(second.status, second.text).toBe(202);
    const all = await queue();
    const arabic = all.filter((i) => i.note === ARABIC).map((i) => i.id).sort();
    expect(arabic).toHaveLength(2);
    expect(all.length).toBeGreaterThan(arabic.length);
    // Every note's cards first (the positive signal), then the filter.
    await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await waitFor(async () => JSON.stringify(await cardIds()) === JSON.stringify(all.map((i) => i.id).sort()));
    await page.selectOption('.comments-view select[name="note"]', ARABIC);
    await waitFor(async () => JSON.stringify(await cardIds()) === JSON.stringify(arabic));
    const rejected = page.locator('[data-testid="comment-queue"] .comment-card', { hasText: 'Second reader' });
    await rejected.locator('[data-action="reject"]').click();
    await rejected.waitFor({ state: 'detached' });
    expect(await cardIds()).toEqual(arabic.filter((id) => id !== second.body.id));
    expect((await queue()).map((i) => i.id)).not.toContain(second.body.id);
    const stored = (await server.admin('GET', `/api/comments?path=${encodeURIComponent(ARABIC)}`)).body.comments as { id: string; status: string }[];
    expect(stored.find((c) => c.id === second.body.id)?.status).toBe('rejected');
    await page.selectOption('.comments-view select[name="note"]', '');
  });
});

describe('how it looks', () => {
  it('light, dark and 360 px', async () => {
    for (const [name, options] of [
      ['comments-article-dark', { dark: true }],
      ['comments-article-360', { width: 360 }],
    ] as const) {
      const { page, context } = await visit('/Posts/Garden#comments', options);
      await page.locator('#comments').scrollIntoViewIfNeeded();
      const fits = await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      expect(fits, name).toBe(true);
      await screenshot(page, name, true);
      await context.close();
    }
  });

  // (The visitor's third post of the minute from this address: a fourth would be 429.)
  it('an Arabic site reads right to left; with moderation "none" a comment appears in place at once', async () => {
    expect((await server.admin('PATCH', '/api/settings', { language: 'ar', comments: { moderation: 'none' } })).status).toBe(200);
    const { page, context, problems } = await visit(`/Posts/${encodeURIComponent('حديقة')}`);
    await waitFor(async () => {
      await page.reload();
      return (await page.locator('#comments h2').textContent())?.startsWith('التعليقات');
      // A new language re-renders the whole site: on a busy machine that takes a while.
    }, 60_000, 250);
    expect(await page.locator('#comments').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await page.locator('label[for="comment-name"]').textContent()).toBe('الاسم');
    await page.fill('#comment-name', 'سارة');
    await page.fill('#comment-body', 'تعليق جميل على المقال.');
    await page.waitForTimeout(2100);
    await page.click('.s-submit');
    const added = page.locator('#comments .s-comment.s-new');
    await added.waitFor();
    expect(await added.locator('.s-comment-author').textContent()).toBe('سارة');
    expect(await added.locator('.s-comment-body').textContent()).toBe('تعليق جميل على المقال.\n');
    expect(await page.locator('.s-form-status').textContent()).toBe('شكرًا لك: نُشر تعليقك.');
    // Approved before the answer: the next reader's page has it.
    const served = await (await fetch(server.url + `/Posts/${encodeURIComponent('حديقة')}`)).text();
    expect(served).toContain('تعليق جميل على المقال.');
    // Its date is written as the page writes it (the site's calendar, month names and digits).
    const id = await added.getAttribute('id');
    const servedDate = new RegExp(`id="${id}"[\\s\\S]*?<time datetime="([^"]+)">([^<]+)</time>`).exec(served);
    expect(servedDate, 'the served page dates the comment').not.toBeNull();
    expect(await added.locator('.s-comment-date time').getAttribute('datetime')).toBe(servedDate![1]);
    expect(await added.locator('.s-comment-date time').textContent()).toBe(servedDate![2]);
    await page.locator('#comments').scrollIntoViewIfNeeded();
    // The new comment fades in (300 ms).
    await page.waitForTimeout(400);
    await screenshot(page, 'comments-article-rtl', true);
    expect(problems).toEqual([]);
    await context.close();
  }, 120_000);
});
