// Comments (CONTRACT §8, spec 2.2, 2.5, D.1, D.3) on the real server and a real SQLite
// file: every route and status, the moderation modes, the rate limit, the field limits,
// the form's silent spam rules (a JSON post judged by the others), hostile text in every
// field rendered harmlessly (article, JSON), a draft and a missing post answering alike,
// and what a moderation re-renders.
import Database from 'better-sqlite3';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { newVisitor } from '../helpers/visitor.ts';

const post = (title: string, date: string, extra = '') => `---\ntitle: ${title}\npublish: true\ndate: ${date}\n${extra}---\n${title} body text.\n`;

const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog', SITE_NAME: 'Comment Blog' },
  settings: { home: { mode: 'dashboard' } },
  files: {
    'Posts/Hello.md': post('Hello', '2026-01-05'),
    'Posts/Other.md': post('Other', '2026-01-04'),
    'Posts/Quiet.md': post('Quiet', '2026-01-03'),
    'Posts/Draft.md': '---\ntitle: Draft\ndate: 2026-01-06\n---\nA draft.\n',
    'About.md': '---\ntitle: About\npublish: true\npage: true\n---\nAbout page.\n',
  },
});

const HELLO = 'Posts/Hello.md';
const comment = (extra: Record<string, unknown> = {}) => ({ path: HELLO, name: 'Reader', body: 'A thoughtful comment.', ...extra });
const section = (html: string) => {
  const at = html.indexOf('<section class="s-comments"');
  return at < 0 ? '' : html.slice(at, html.indexOf('</section>', at));
};
const queue = async () => (await blog.admin('GET', '/api/comments/queue')).body.items as { id: string; type: string; name?: string; note: string }[];

describe('comments off (the default): nothing is open', () => {
  it('POST and GET /api/comments answer 404, posts carry no commentCount, the article has no form', async () => {
    const v = newVisitor(blog.url);
    expect((await v.postJson('/api/comments', comment())).status).toBe(404);
    expect((await v.get(`/api/comments?path=${encodeURIComponent(HELLO)}`)).status).toBe(404);
    const posts = await v.get('/api/posts');
    expect(posts.status).toBe(200);
    expect(posts.body[0]).not.toHaveProperty('commentCount');
    const page = await blog.page('/Posts/Hello');
    expect(page.text).not.toContain('id="comments"');
    expect(page.text).not.toContain('rel="webmention"');
    expect(await fs.stat(path.join(blog.data, 'comments.db')).catch(() => null)).toBeNull();
  });

  it('mentions follow the same switch: POST /webmention and GET /api/mentions answer 404, and nothing is stored', async () => {
    const v = newVisitor(blog.url);
    // A well-formed mention of a published article here: only the switch can refuse it.
    const sent = await v.postForm('/webmention', { source: 'https://elsewhere.example/a-reply', target: `${blog.url}/Posts/Hello` });
    expect(sent.status).toBe(404);
    expect(sent.body).toMatchObject({ code: 'not_found' });
    expect((await v.get(`/api/mentions?path=${encodeURIComponent(HELLO)}`)).status).toBe(404);
    expect(await fs.stat(path.join(blog.data, 'comments.db')).catch(() => null)).toBeNull();
  });

  it('the setting comments.enabled turns them on (validated like every setting)', async () => {
    expect((await blog.admin('PATCH', '/api/settings', { comments: { moderation: 'sometimes' } })).status).toBe(400);
    const res = await blog.admin('PATCH', '/api/settings', { comments: { enabled: true } });
    expect(res.status).toBe(200);
    expect(res.body.comments).toEqual({ enabled: true, moderation: 'all' });
    await blog.waitForPage('/Posts/Hello', (p) => p.text.includes('id="comment-form"'));
  });
});

describe('CONTRACT §8: POST /api/comments', () => {
  it('202 pending by default (moderation "all"); stored in SERVICE_DATA/comments.db, a real SQLite file in WAL mode', async () => {
    const v = newVisitor(blog.url);
    const res = await v.postJson('/api/comments', comment({ email: 'reader@example.org' }));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.any(String), status: 'pending' });
    const db = new Database(path.join(blog.data, 'comments.db'), { readonly: true });
    try {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect((db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v).toBeGreaterThanOrEqual(1);
      expect(db.prepare('SELECT status, email FROM comments WHERE id = ?').get(res.body.id)).toEqual({ status: 'pending', email: 'reader@example.org' });
    } finally {
      db.close();
    }
    expect((await fs.stat(path.join(blog.data, 'comments.db'))).mode & 0o777).toBe(0o600);
    await expect(fs.stat(path.join(blog.vault, 'comments.db'))).rejects.toThrow();
    // Not shown to visitors, listed in the admin's queue.
    expect((await v.get(`/api/comments?path=${encodeURIComponent(HELLO)}`)).body.comments).toEqual([]);
    expect((await queue()).map((i) => i.id)).toContain(res.body.id);
  });

  it('404 alike for a draft, a missing note and a static page (a visitor cannot tell a draft exists)', async () => {
    const v = newVisitor(blog.url);
    const draft = await v.postJson('/api/comments', comment({ path: 'Posts/Draft.md' }));
    const missing = await v.postJson('/api/comments', comment({ path: 'Posts/Nothing.md' }));
    const page = await v.postJson('/api/comments', comment({ path: 'About.md' }));
    expect([draft.status, missing.status, page.status]).toEqual([404, 404, 404]);
    expect(draft.text).toBe(missing.text);
    const getDraft = await v.get('/api/comments?path=Posts%2FDraft.md');
    const getMissing = await v.get('/api/comments?path=Posts%2FNothing.md');
    expect(getDraft.status).toBe(404);
    expect(getDraft.text).toBe(getMissing.text);
    const mentionsDraft = await v.get('/api/mentions?path=Posts%2FDraft.md');
    expect(mentionsDraft.status).toBe(404);
    expect(mentionsDraft.text).toBe((await v.get('/api/mentions?path=Posts%2FNothing.md')).text);
  });

  const bad: [string, Record<string, unknown>, string, string][] = [
    ['no name', { name: '  ' }, 'name', 'required'],
    ['a name over 80 characters', { name: 'n'.repeat(81) }, 'name', 'too_long'],
    ['no body', { body: '' }, 'body', 'required'],
    ['a body over 5,000 characters', { body: 'b'.repeat(5001) }, 'body', 'too_long'],
    ['more than 3 links', { body: 'https://a.example https://b.example https://c.example [d](https://d.example)' }, 'body', 'too_many_links'],
    ['an email that is not one', { email: 'not-an-email' }, 'email', 'bad_email'],
    ['a javascript: website', { website: 'javascript:alert(1)' }, 'website', 'bad_url'],
    ['control characters in the name', { name: 'bad\u0007name' }, 'name', 'bad_field'],
    ['a parent that is not an approved comment here', { parent: 'nope' }, 'parent', 'bad_parent'],
  ];
  it.each(bad)('400 { code, field } for %s, and nothing stored', async (_what, fields, field, code) => {
    const before = (await queue()).length;
    const res = await newVisitor(blog.url).postJson('/api/comments', comment(fields));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code, field });
    expect((await queue()).length).toBe(before);
  });

  it('the limits themselves are allowed: an 80-character name, a 5,000-character body, 3 links', async () => {
    const v = newVisitor(blog.url);
    expect((await v.postJson('/api/comments', comment({ name: 'n'.repeat(80), body: 'b'.repeat(5000) }))).status).toBe(202);
    expect((await v.postJson('/api/comments', comment({ body: 'https://a.example https://b.example [c](https://c.example)' }))).status).toBe(202);
  });

  it('429 past 3 a minute from one client address (another address is not affected)', async () => {
    const v = newVisitor(blog.url);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await v.postJson('/api/comments', comment({ body: `Comment ${i}` }))).status);
    expect(answers).toEqual([202, 202, 202, 429]);
    expect((await newVisitor(blog.url).postJson('/api/comments', comment())).status).toBe(202);
  });

  it('415 for a body that is neither JSON nor a form', async () => {
    const res = await fetch(`${blog.url}/api/comments`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi' });
    expect(res.status).toBe(415);
  });

  it('is open to other sites (a form on another origin may post here), unlike admin routes', async () => {
    const res = await fetch(`${blog.url}/api/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify(comment({ body: 'From another site.' })),
    });
    expect(res.status).toBe(202);
  });
});

describe('the form without a script: 303 back to #comments, the notice, and the silent rules', () => {
  it('a form post is answered 303 to the article`s #comments; coming back shows the notice', async () => {
    const v = newVisitor(blog.url);
    const res = await v.postForm('/api/comments', { path: HELLO, name: 'Form Reader', body: 'Posted without a script.', subject: '' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/Posts/Hello?comment=pending#comments');
    const back = await v.get('/Posts/Hello?comment=pending');
    expect(section(back.text)).toContain('<p class="s-comment-notice" id="comment-notice" role="status">Thank you: your comment is awaiting moderation.</p>');
    // Everyone else (and the visitor without the query) gets the page as it is.
    expect((await v.get('/Posts/Hello')).text).not.toContain('s-comment-notice');
    expect((await queue()).some((i) => i.name === 'Form Reader')).toBe(true);
  });

  it('a form post with a filled honeypot is taken (303, pending) and dropped: never stored, never shown', async () => {
    const before = (await queue()).length;
    const res = await newVisitor(blog.url).postForm('/api/comments', { path: HELLO, name: 'Robot', body: 'Buy things.', subject: 'I fill every field' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/Posts/Hello?comment=pending#comments');
    // The positive signal: a form post without the trap filled, from another address, is stored.
    expect((await newVisitor(blog.url).postForm('/api/comments', { path: HELLO, name: 'Human', body: 'Kept.', subject: '' })).status).toBe(303);
    expect((await queue()).map((i) => i.name).filter((n) => n === 'Robot' || n === 'Human')).toEqual(['Human']);
    expect((await queue()).length).toBe(before + 1);
  });

  it('a form post within 2 s of its page being sent to that address is dropped; after 2 s it is taken', async () => {
    const v = newVisitor(blog.url);
    expect((await v.get('/Posts/Hello')).status).toBe(200);
    const before = (await queue()).length;
    const fast = await v.postForm('/api/comments', { path: HELLO, name: 'Hasty', body: 'Too fast.', subject: '' });
    expect(fast.status).toBe(303);
    expect((await queue()).length).toBe(before);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await v.postForm('/api/comments', { path: HELLO, name: 'Patient', body: 'Took my time.', subject: '' })).status).toBe(303);
    expect((await queue()).map((i) => i.name)).toContain('Patient');
  });

  it('the load time a form carries in its `loaded` field (filled by a script) is used: under 2 s is dropped, however long ago the page was sent', async () => {
    const t = Date.now();
    // Never sent a page: only the fields can drop these.
    const quick = await newVisitor(blog.url).postForm('/api/comments', { path: HELLO, name: 'Quick form', body: 'Fast.', subject: '', loaded: String(t), sent: String(t + 500) });
    const arrived = await newVisitor(blog.url).postForm('/api/comments', { path: HELLO, name: 'Just loaded', body: 'Fast too.', subject: '', loaded: String(Date.now()) });
    const slow = await newVisitor(blog.url).postForm('/api/comments', { path: HELLO, name: 'Slow form', body: 'Slow.', subject: '', loaded: String(t - 30_000) });
    expect([quick.status, arrived.status, slow.status]).toEqual([303, 303, 303]);
    // The page just sent to this address, but its form says it was loaded 30 s ago: taken.
    const v = newVisitor(blog.url);
    expect((await v.get('/Posts/Hello')).status).toBe(200);
    expect((await v.postForm('/api/comments', { path: HELLO, name: 'Long reader', body: 'Read it all.', subject: '', loaded: String(t - 30_000), sent: String(t) })).status).toBe(303);
    const names = (await queue()).map((i) => i.name);
    expect(names).toContain('Slow form');
    expect(names).toContain('Long reader');
    expect(names).not.toContain('Quick form');
    expect(names).not.toContain('Just loaded');
  });
});

describe('CONTRACT §8: a JSON post is judged by the other rules only (no honeypot, no 2 s rule)', () => {
  it('a JSON post with the trap filled, sent at once after its page, or carrying times under 2 s apart, is stored', async () => {
    const t = Date.now();
    const trap = await newVisitor(blog.url).postJson('/api/comments', comment({ name: 'JSON trap', subject: 'filled' }));
    const v = newVisitor(blog.url);
    expect((await v.get('/Posts/Hello')).status).toBe(200);
    const atOnce = await v.postJson('/api/comments', comment({ name: 'JSON at once' }));
    const timed = await newVisitor(blog.url).postJson('/api/comments', comment({ name: 'JSON quick', loaded: t, sent: t + 500 }));
    expect([trap, atOnce, timed].map((r) => [r.status, r.body.status])).toEqual([
      [202, 'pending'],
      [202, 'pending'],
      [202, 'pending'],
    ]);
    const ids = (await queue()).map((i) => i.id);
    for (const r of [trap, atOnce, timed]) expect(ids).toContain(r.body.id);
  });

  it('…and still by the other rules: a bad field is 400 and the fourth post of the minute is 429', async () => {
    const v = newVisitor(blog.url);
    expect((await v.postJson('/api/comments', comment({ name: '', subject: 'filled' }))).body).toMatchObject({ code: 'required', field: 'name' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await v.postJson('/api/comments', comment({ body: `Again ${i}`, subject: 'filled' }))).status);
    expect(answers).toEqual([202, 202, 202, 429]);
  });
});
