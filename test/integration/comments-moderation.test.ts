// The owner's side of comments (CONTRACT §8, spec 2.5, D.1, D.3) on the real server: the
// moderation modes, approve/reject/spam/delete and replies, what visitors then see (the
// article's built HTML, replies one level deep, counts on cards and in GET /api/posts, the
// Most discussed row), that a moderation re-renders only what shows it, hostile text in
// every field rendered harmlessly, the export, and the static snapshot.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { blogForFile, decodeHtml } from '../fixtures/blog/helpers.ts';
import { CLI_BUILD, PROJECT_DIR, childEnv } from '../helpers/server.ts';
import { tempDir } from '../helpers/tmp.ts';
import { newVisitor } from '../helpers/visitor.ts';

const post = (title: string, date: string, body = `${title} body text.`) => `---\ntitle: ${title}\npublish: true\ndate: ${date}\n---\n${body}\n`;

const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog', SITE_NAME: 'Comment Blog', COMMENTS: 'on' },
  settings: { home: { mode: 'dashboard' } },
  files: {
    'Posts/Hello.md': post('Hello', '2026-01-05', 'Hello body.\n\n## Comments\n\nA heading named like the section.'),
    'Posts/Other.md': post('Other', '2026-01-04'),
    'Posts/Quiet.md': post('Quiet', '2026-01-03'),
    'Posts/Busy.md': post('Busy', '2026-01-02'),
  },
});

const enc = encodeURIComponent;
const comments = (html: string) => {
  const at = html.indexOf('<section class="s-comments"');
  return at < 0 ? '' : html.slice(at, html.indexOf('</section>', at));
};
const sendComment = async (path: string, fields: Record<string, unknown> = {}) => {
  const res = await newVisitor(blog.url).postJson('/api/comments', { path, name: 'Reader', body: 'Nice post.', ...fields });
  expect(res.status, res.text).toBe(202);
  return res.body as { id: string; status: string };
};
const moderate = (id: string, action: string) => blog.admin('POST', '/api/comments/moderate', { id, action });
const etag = async (route: string) => (await blog.page(route)).headers.get('etag');
const setModeration = async (moderation: string) => expect((await blog.admin('PATCH', '/api/settings', { comments: { moderation } })).status).toBe(200);

describe('spec D.3: no Most discussed row while no comment is approved', () => {
  it('the dashboard home lists the posts but has no Most discussed row, a pending comment notwithstanding', async () => {
    await sendComment('Posts/Hello.md', { name: 'Still waiting' });
    const home = await blog.page('/');
    // The positive signal: the home is the dashboard with its posts' cards.
    expect(home.status).toBe(200);
    expect(home.text).toContain('href="/Posts/Hello"');
    expect(home.text).not.toContain('class="s-discussed"');
    expect(home.text).not.toContain('Most discussed');
  });
});

describe('moderation: approve, reject, spam, delete (CONTRACT §8)', () => {
  it('approve: 200 { id, status }; the comment is then in the article`s built HTML, the count on the home card and in /api/posts', async () => {
    const { id } = await sendComment('Posts/Hello.md', { name: 'Ada', body: 'Approved **words**.' });
    expect((await blog.page('/Posts/Hello')).text).not.toContain('Approved');
    const res = await moderate(id, 'approve');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id, status: 'approved' });
    const page = await blog.waitForPage('/Posts/Hello', (p) => p.text.includes('Approved <strong>words</strong>.'));
    expect(comments(page.text)).toContain(`id="comment-${id}"`);
    expect(comments(page.text)).toContain('<span class="s-comment-author" dir="auto">Ada</span>');
    // The note's own "Comments" heading keeps its own id; the page's section is the one #comments.
    expect(page.text.match(/ id="comments"/g)).toHaveLength(1);
    expect(page.text).toContain('<h2 id="comments-1">Comments<a class="s-anchor" href="#comments-1" aria-labelledby="s-anchor-label comments-1"></a></h2>');
    await blog.waitForPage('/', (p) => p.text.includes('href="/Posts/Hello#comments">1 comment</a>'));
    const visitor = (await newVisitor(blog.url).get('/api/posts')).body as { path: string; commentCount: number }[];
    expect(visitor.find((p) => p.path === 'Posts/Hello.md')!.commentCount).toBe(1);
    const listed = await newVisitor(blog.url).get(`/api/comments?path=${enc('Posts/Hello.md')}`);
    expect(listed.body.comments).toEqual([{ id, parent: null, name: 'Ada', website: null, html: '<p>Approved <strong>words</strong>.</p>\n', date: expect.any(String), status: 'approved', author: false }]);
  });

  it('commentCount: approved ones for a visitor, every one for the admin', async () => {
    await sendComment('Posts/Hello.md', { name: 'Waiting' });
    const visitor = (await newVisitor(blog.url).get('/api/posts')).body as { path: string; commentCount: number }[];
    const admin = (await blog.admin('GET', '/api/posts')).body as { path: string; commentCount: number }[];
    const count = (list: typeof visitor) => list.find((p) => p.path === 'Posts/Hello.md')!.commentCount;
    expect(count(admin)).toBeGreaterThan(count(visitor));
  });

  it('reject and spam keep the comment from visitors; delete removes it (status "deleted"); 404 for an unknown id; 400 for an unknown action', async () => {
    const a = await sendComment('Posts/Other.md', { name: 'Rejected one' });
    const b = await sendComment('Posts/Other.md', { name: 'Spammy one' });
    const c = await sendComment('Posts/Other.md', { name: 'Deleted one' });
    expect((await moderate(a.id, 'reject')).body).toEqual({ id: a.id, status: 'rejected' });
    expect((await moderate(b.id, 'spam')).body).toEqual({ id: b.id, status: 'spam' });
    await moderate(c.id, 'approve');
    await blog.waitForPage('/Posts/Other', (p) => p.text.includes('Deleted one'));
    expect((await moderate(c.id, 'delete')).body).toEqual({ id: c.id, status: 'deleted' });
    const page = await blog.waitForPage('/Posts/Other', (p) => !p.text.includes('Deleted one'));
    expect(page.text).not.toContain('Rejected one');
    expect(page.text).not.toContain('Spammy one');
    const all = (await blog.admin('GET', `/api/comments?path=${enc('Posts/Other.md')}`)).body.comments as { id: string; status: string }[];
    expect(all.map((x) => [x.id, x.status])).toEqual([
      [a.id, 'rejected'],
      [b.id, 'spam'],
    ]);
    expect((await moderate('no-such-id', 'approve')).status).toBe(404);
    expect((await moderate(a.id, 'burn')).status).toBe(400);
  });

  it('a reply from the admin shows as the site`s author, approved at once, nested under the comment (one level)', async () => {
    const top = await sendComment('Posts/Quiet.md', { name: 'Asker', body: 'A question?' });
    await moderate(top.id, 'approve');
    const reply = await blog.admin('POST', '/api/comments/reply', { id: top.id, body: 'An *answer*.' });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ id: expect.any(String), status: 'approved' });
    // A visitor's reply to the author's reply joins the same thread: one level only.
    const nested = await sendComment('Posts/Quiet.md', { name: 'Asker', body: 'Thanks!', parent: reply.body.id });
    await moderate(nested.id, 'approve');
    const page = await blog.waitForPage('/Posts/Quiet', (p) => p.text.includes('Thanks!'));
    const html = comments(page.text);
    const thread = html.slice(html.indexOf(`id="comment-${top.id}"`));
    expect(thread).toMatch(new RegExp(`<ol class="s-replies"><li class="s-comment s-by-author" id="comment-${reply.body.id}"`));
    expect(thread).toContain('<span class="s-comment-author" dir="auto">Comment Blog</span>');
    expect(thread).toContain('<span class="s-author-badge">Author</span>');
    expect(html).not.toMatch(/<ol class="s-replies">[^]*<ol class="s-replies">/);
    // Replies in the order written, under their comment.
    expect(thread.indexOf(`id="comment-${reply.body.id}"`)).toBeLessThan(thread.indexOf(`id="comment-${nested.id}"`));
    // A newer thread comes after it: the newest thread last.
    const later = await sendComment('Posts/Quiet.md', { name: 'Latecomer', body: 'A later thought.' });
    await moderate(later.id, 'approve');
    const after = comments((await blog.waitForPage('/Posts/Quiet', (p) => p.text.includes('A later thought.'))).text);
    const order = [top.id, reply.body.id, nested.id, later.id].map((id) => after.indexOf(`id="comment-${id}"`));
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // …as a thread of its own, not a reply: the first thread's replies close before it.
    expect(after).toMatch(new RegExp(`</ol>\\s*</li>\\s*<li class="s-comment" id="comment-${later.id}"`));
    // commentCount counts every approved comment, the author's reply and the visitor's answer to it included.
    const posts = (await newVisitor(blog.url).get('/api/posts')).body as { path: string; commentCount: number }[];
    expect(posts.find((p) => p.path === 'Posts/Quiet.md')!.commentCount).toBe(4);
    expect(after).toContain('<span class="s-count">(4 comments)</span>');
    await blog.waitForPage('/', (p) => p.text.includes('href="/Posts/Quiet#comments">4 comments</a>'));
    expect((await blog.admin('POST', '/api/comments/reply', { id: 'nope', body: 'x' })).status).toBe(404);
    expect((await blog.admin('POST', '/api/comments/reply', { id: top.id, body: '' })).status).toBe(400);
  });

  it('GET /api/comments/queue: pending comments and mentions, newest first; ?path= filters by note', async () => {
    const first = await sendComment('Posts/Busy.md', { name: 'Queued first' });
    await new Promise((r) => setTimeout(r, 5));
    const second = await sendComment('Posts/Busy.md', { name: 'Queued second' });
    const items = (await blog.admin('GET', `/api/comments/queue?path=${enc('Posts/Busy.md')}`)).body.items as { id: string; type: string; note: string }[];
    expect(items.map((i) => i.id)).toEqual([second.id, first.id]);
    expect(items.every((i) => i.type === 'comment' && i.note === 'Posts/Busy.md')).toBe(true);
    const everything = (await blog.admin('GET', '/api/comments/queue')).body.items as { note: string }[];
    expect(new Set(everything.map((i) => i.note)).size).toBeGreaterThan(1);
  });
});

describe('moderation modes (settings comments.moderation)', () => {
  it('"known": a name and email with an approved comment skip the queue; another email waits', async () => {
    const first = await sendComment('Posts/Busy.md', { name: 'Regular', email: 'regular@example.org' });
    expect(first.status).toBe('pending');
    await moderate(first.id, 'approve');
    await setModeration('known');
    expect((await sendComment('Posts/Busy.md', { name: 'Regular', email: 'REGULAR@example.org', body: 'Back again.' })).status).toBe('approved');
    expect((await sendComment('Posts/Busy.md', { name: 'Regular', email: 'someone@example.org' })).status).toBe('pending');
    expect((await sendComment('Posts/Busy.md', { name: 'Regular' })).status).toBe('pending');
    // Approved at once: the answer comes once the article shows it.
    expect((await blog.page('/Posts/Busy')).text).toContain('Back again.');
  });

  it('"none": every comment is approved at once; "all" (the default) makes every one wait', async () => {
    await setModeration('none');
    expect((await sendComment('Posts/Busy.md', { name: 'Anyone' })).status).toBe('approved');
    await setModeration('all');
    expect((await sendComment('Posts/Busy.md', { name: 'Regular', email: 'regular@example.org' })).status).toBe('pending');
  });
});

describe('what a moderation re-renders (the incremental pipeline)', () => {
  it('approving re-renders that article and the lists whose counts changed, nothing else; a pending one rejected re-renders nothing', async () => {
    const { id } = await sendComment('Posts/Other.md', { name: 'Scope' });
    const before = Object.fromEntries(await Promise.all(['/Posts/Other', '/Posts/Hello', '/Posts/Quiet', '/feed.xml', '/sitemap.xml', '/'].map(async (r) => [r, await etag(r)])));
    await moderate(id, 'approve');
    await blog.waitForPage('/Posts/Other', (p) => p.text.includes(`comment-${id}`));
    await blog.waitForPage('/', (p) => p.headers.get('etag') !== before['/']);
    for (const r of ['/Posts/Hello', '/Posts/Quiet', '/feed.xml', '/sitemap.xml']) expect(await etag(r), r).toBe(before[r]);
    // A pending comment rejected: nothing a visitor sees changes, so nothing is rendered.
    const pending = await sendComment('Posts/Hello.md', { name: 'Never shown' });
    const hello = await etag('/Posts/Hello');
    await moderate(pending.id, 'reject');
    // The positive signal: a later approval elsewhere is live, so the reject's pass (if any) is done.
    const later = await sendComment('Posts/Quiet.md', { name: 'Signal' });
    await moderate(later.id, 'approve');
    await blog.waitForPage('/Posts/Quiet', (p) => p.text.includes(`comment-${later.id}`));
    expect(await etag('/Posts/Hello')).toBe(hello);
  });

  it('deleting an approved comment re-renders that article and the lists showing its count; other articles keep their ETags', async () => {
    const { id } = await sendComment('Posts/Other.md', { name: 'Short-lived' });
    await moderate(id, 'approve');
    await blog.waitForPage('/Posts/Other', (p) => p.text.includes(`comment-${id}`));
    const before = Object.fromEntries(await Promise.all(['/Posts/Other', '/Posts/Hello', '/Posts/Quiet', '/Posts/Busy', '/feed.xml', '/sitemap.xml', '/'].map(async (r) => [r, await etag(r)])));
    expect((await moderate(id, 'delete')).body).toEqual({ id, status: 'deleted' });
    // The positive signals: the article no longer shows it, and the home's card count changed.
    const other = await blog.waitForPage('/Posts/Other', (p) => !p.text.includes(`comment-${id}`));
    expect(other.headers.get('etag')).not.toBe(before['/Posts/Other']);
    await blog.waitForPage('/', (p) => p.headers.get('etag') !== before['/']);
    for (const r of ['/Posts/Hello', '/Posts/Quiet', '/Posts/Busy', '/feed.xml', '/sitemap.xml']) expect(await etag(r), r).toBe(before[r]);
  });

  it('the dashboard`s Most discussed row ranks posts by approved comments', async () => {
    const home = await blog.waitForPage('/', (p) => p.text.includes('Most discussed'));
    const row = home.text.slice(home.text.indexOf('class="s-discussed"'), home.text.indexOf('</section>', home.text.indexOf('class="s-discussed"')));
    const titles = [...row.matchAll(/class="s-post-link" href="[^"]*">([^<]*)</g)].map((m) => m[1]);
    const counts = (await newVisitor(blog.url).get('/api/posts')).body as { title: string; commentCount: number }[];
    const ranked = counts.filter((p) => p.commentCount > 0).sort((a, b) => b.commentCount - a.commentCount);
    expect(titles).toEqual(ranked.map((p) => p.title));
  });
});

describe('hostile text in every field is rendered harmlessly (page, JSON)', () => {
  it('name, website and body carrying markup and script show as text; links get rel="nofollow ugc"', async () => {
    const evil = await sendComment('Posts/Hello.md', {
      name: '<img src=x onerror=alert(1)>"\'',
      website: 'https://evil.example/"><script>alert(2)</script>',
      body: '<script>alert(3)</script> <b onmouseover=alert(4)>bold</b> [click](javascript:alert(5)) [ok](https://fine.example) ![i](https://tracker.example/p.png)',
      email: 'x@evil.example',
    });
    await moderate(evil.id, 'approve');
    const page = await blog.waitForPage('/Posts/Hello', (p) => p.text.includes(`comment-${evil.id}`));
    const html = comments(page.text);
    expect(html).not.toMatch(/<script|<img src=x|<b onmouseover|href="javascript:/i);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;&quot;');
    expect(html).toContain('&lt;script&gt;alert(3)&lt;/script&gt;');
    expect(html).toContain('<a href="https://fine.example" rel="nofollow ugc noopener">ok</a>');
    expect(html).toContain('href="https://evil.example/%22%3E%3Cscript%3Ealert(2)%3C/script%3E" rel="nofollow ugc noopener"');
    // An image in a comment is no image (no request to another site): a link at most.
    expect(html).not.toMatch(/<img[^>]*tracker/);
    // The email is never shown, never in a visitor's answer.
    expect(page.text).not.toContain('x@evil.example');
    const json = await newVisitor(blog.url).get(`/api/comments?path=${enc('Posts/Hello.md')}`);
    expect(json.text).not.toContain('x@evil.example');
    const mine = (json.body.comments as { id: string; name: string; html: string }[]).find((c) => c.id === evil.id)!;
    expect(mine.name).toBe('<img src=x onerror=alert(1)>"\'');
    expect(mine.html).not.toMatch(/<script|<b onmouseover|href="javascript:/);
    expect(json.headers['content-type']).toContain('application/json');
  });

  it('the feed, full articles and all, carries no visitor string: neither the hostile name nor any comment`s body', async () => {
    expect((await blog.admin('PATCH', '/api/settings', { publishing: { feedContent: 'full' } })).status).toBe(200);
    // The positive signal: the feed now carries Hello's whole article (its body's second part).
    const feed = await blog.waitForPage('/feed.xml', (p) => p.text.includes('A heading named like the section.'));
    for (const visitorText of ['onerror=alert(1)', 'alert(2)', 'alert(3)', 'alert(4)', 'fine.example', 'evil.example', 'tracker.example', 'Approved', 'A question?', 'Reader']) {
      expect(feed.text, visitorText).not.toContain(visitorText);
    }
  });
});

describe('export and the static snapshot', () => {
  it('GET /api/comments/export gives the admin the whole database as JSON, emails included', async () => {
    const res = await blog.admin('GET', '/api/comments/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('comments.json');
    expect(res.body.comments.length).toBeGreaterThan(10);
    expect(res.body.comments.some((c: { email: string | null }) => c.email === 'x@evil.example')).toBe(true);
    expect(Array.isArray(res.body.mentions)).toBe(true);
  });

  it('`vault-service build` writes approved comments into the snapshot`s pages (readable without a server)', async () => {
    const out = path.join(await tempDir('vs-snap-'), 'site');
    await promisify(execFile)(process.execPath, [...CLI_BUILD, '--quiet'], {
      cwd: PROJECT_DIR,
      env: childEnv({ VAULT: blog.vault, SERVICE_DATA: blog.data, SITE_OUT: out, SITE_URL: 'https://blog.example', PUBLIC_LAYOUT: 'blog', COMMENTS: 'on' }),
    });
    const html = await fs.readFile(path.join(out, 'Posts/Quiet.html'), 'utf8');
    expect(decodeHtml(comments(html))).toContain('A question?');
    expect(html).toContain('action="https://blog.example/api/comments"');
    expect(html).toContain('<link rel="webmention" href="https://blog.example/webmention">');
    expect(html).not.toContain('service:notice');
  });
});
