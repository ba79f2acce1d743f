// CONTRACT §8, in the order a post is judged: while comments are off every question is 404,
// however bad its fields, and a path that is not a published post is 404 before any field
// is judged (a bad field tells a visitor nothing). Then a name must show: bidi controls and
// invisible characters are taken out, and a name of nothing else is no name (400).
import { describe, expect, it } from 'vitest';
import { visibleName } from '../../admin/comments/rules.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { newVisitor } from '../helpers/visitor.ts';

const post = (title: string) => `---\ntitle: ${title}\npublish: true\ndate: 2026-01-05\n---\n${title} body text.\n`;
const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog' },
  files: { 'Posts/Hello.md': post('Hello'), 'Posts/Draft.md': '---\ntitle: Draft\ndate: 2026-01-06\n---\nA draft.\n' },
});

const HELLO = 'Posts/Hello.md';
const comment = (extra: Record<string, unknown> = {}) => ({ path: HELLO, name: 'Reader', body: 'A thoughtful comment.', ...extra });
/** Posts that break a field rule each (or carry no fields at all). */
const badPosts: Record<string, unknown>[] = [{}, { path: HELLO }, comment({ name: '' }), comment({ body: 'b'.repeat(5001) }), comment({ email: 'not-an-email' }), comment({ path: 7 })];
const queue = async () => (await blog.admin('GET', '/api/comments/queue')).body.items as { type: string; name?: string }[];

describe('comments off: 404 before any field is judged', () => {
  it('POST /api/comments with a bad field (JSON or form) answers the same 404 as a good post', async () => {
    const good = await newVisitor(blog.url).postJson('/api/comments', comment());
    expect(good.status).toBe(404);
    for (const body of badPosts) {
      const res = await newVisitor(blog.url).postJson('/api/comments', body);
      expect([res.status, res.text], JSON.stringify(body)).toEqual([404, good.text]);
    }
    const form = await newVisitor(blog.url).postForm('/api/comments', { path: HELLO, name: '', body: '', subject: '' });
    expect([form.status, form.text]).toEqual([404, good.text]);
  });

  it('GET /api/comments and /api/mentions without a path answer 404 too', async () => {
    const v = newVisitor(blog.url);
    expect((await v.get('/api/comments')).status).toBe(404);
    expect((await v.get('/api/mentions')).status).toBe(404);
  });
});

describe('comments on: a path that is not a published post is 404 before any field; then the fields', () => {
  it('turned on by the setting', async () => {
    expect((await blog.admin('PATCH', '/api/settings', { comments: { enabled: true } })).status).toBe(200);
  });

  it('a bad field on a draft or a missing note answers the 404 a good post to a missing note gets', async () => {
    const missing = await newVisitor(blog.url).postJson('/api/comments', comment({ path: 'Posts/Nothing.md' }));
    expect(missing.status).toBe(404);
    for (const path of ['Posts/Draft.md', 'Posts/Nothing.md']) {
      for (const fields of [{ name: '' }, { body: 'b'.repeat(5001) }, { email: 'not-an-email' }]) {
        const res = await newVisitor(blog.url).postJson('/api/comments', comment({ path, ...fields }));
        expect([res.status, res.text], `${path} ${JSON.stringify(fields)}`).toEqual([404, missing.text]);
      }
    }
  });

  it('on a published post a bad field is 400 { code, field }; no path at all is 400 naming path', async () => {
    expect((await newVisitor(blog.url).postJson('/api/comments', comment({ name: '' }))).body).toMatchObject({ code: 'required', field: 'name' });
    expect((await newVisitor(blog.url).postJson('/api/comments', comment({ email: 'x' }))).body).toMatchObject({ code: 'bad_email', field: 'email' });
    const noPath = await newVisitor(blog.url).postJson('/api/comments', { name: 'Reader', body: 'Hi.' });
    expect([noPath.status, noPath.body.field]).toEqual([400, 'path']);
    expect((await newVisitor(blog.url).get('/api/comments')).status).toBe(400);
  });
});

describe('a name must show: bidi controls and invisible characters are taken out before it is judged', () => {
  const invisible = ['\u200b\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u2800\u3164', '\u115f\u1160', '\uffa0', ' \u200b \u3164 ', '\u202e\u2066\u200f\u061c'];
  it.each(invisible.map((n) => [JSON.stringify(n), n]))('a name of only %s is 400 { code: "required", field: "name" }, as an empty one', async (_shown, name) => {
    const res = await newVisitor(blog.url).postJson('/api/comments', comment({ name }));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'required', field: 'name' });
  });

  it('bidi controls and invisible characters are taken out of a name that shows; joiners inside an emoji stay', async () => {
    const answers = await Promise.all(
      ['\u202eadmin', 'Ma\u200bry\u2066 Ann\u2069\u200e', '\u200d\u{1F469}\u200d\u{1F4BB}\u200d'].map((name) => newVisitor(blog.url).postJson('/api/comments', comment({ name }))),
    );
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    const names = (await queue()).filter((i) => i.type === 'comment').map((i) => i.name);
    expect(names).toEqual(expect.arrayContaining(['admin', 'Mary Ann', '\u{1F469}\u200d\u{1F4BB}']));
  });

  it('visibleName keeps a joiner between two visible characters only (Persian and emoji need it)', () => {
    expect(visibleName('\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645')).toBe('\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645');
    expect(visibleName('a \u200d b\u200c')).toBe('a  b');
    expect(visibleName('\u200bAnn\ufeff')).toBe('Ann');
    expect(visibleName(42)).toBe(42);
  });
});
