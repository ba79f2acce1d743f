// spec 5.6, 7, D.7: PUBLIC=false makes the whole public surface private. Every real
// address, the feed and the sitemap answer 401 without a session; /robots.txt
// answers 200 `Disallow: /`; a signed-in admin sees the site.
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';

const enc = (s: string) => s.split('/').map(encodeURIComponent).join('/');

const blog = blogForFile({ env: { PUBLIC_LAYOUT: 'blog', PUBLIC: 'false', COMMENTS: 'on' }, settings: { collections: { enabled: true } } });

const PUBLIC_ADDRESSES = [
  '/',
  '/page/2',
  '/Posts/First-post',
  enc('/Twins/مرحبا'),
  '/About',
  '/topic/alpha',
  '/folder/alpha-collection',
  '/feed.xml',
  '/feed.xml?lang=ar',
  '/sitemap.xml',
  '/sitemap.xml?lang=en',
  '/custom.css',
  '/posts/first-post/',
  '/Posts/Draft',
  '/no/such/address',
];

describe('PUBLIC=false without a session', () => {
  it('every public address answers 401, feed and sitemap included', async () => {
    for (const route of PUBLIC_ADDRESSES) {
      const res = await blog.page(route);
      expect(res.status, route).toBe(401);
      expect(res.text, route).not.toMatch(/First post|Welcome home|<rss|<urlset/);
    }
  });

  it('the built assets are private too', async () => {
    const cookie = await blog.login();
    const css = /href="(\/_s\/blog\.[^"]+\.css)"/.exec((await blog.page('/', { cookie })).text)![1]!;
    expect((await blog.page(css, { cookie })).status).toBe(200);
    expect((await blog.page(css)).status).toBe(401);
  });

  it('/robots.txt answers 200 Disallow: / (not 401)', async () => {
    const res = await blog.page('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.text).toBe('User-agent: *\nDisallow: /\n');
  });

  it('the APIs a public site opens to visitors answer 401 too: posts, comments, mentions, webmentions (CONTRACT §5, §8)', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const answers = [
      await fetch(`${blog.url}/api/posts`),
      await fetch(`${blog.url}/api/comments?path=Posts%2FFirst%20post.md`),
      await fetch(`${blog.url}/api/mentions?path=Posts%2FFirst%20post.md`),
      await fetch(`${blog.url}/api/comments`, { method: 'POST', headers: form, body: 'path=Posts%2FFirst%20post.md&name=A&body=B' }),
      await fetch(`${blog.url}/api/comments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"path":"Posts/First post.md","name":"A","body":"B"}' }),
      await fetch(`${blog.url}/webmention`, { method: 'POST', headers: form, body: `source=https://example.org/a&target=${encodeURIComponent(blog.url + '/Posts/First-post')}` }),
    ];
    expect(answers.map((r) => r.status)).toEqual([401, 401, 401, 401, 401, 401]);
    const admin = await blog.admin('GET', '/api/posts');
    expect(admin.status).toBe(200);
    expect(admin.body[0]).toHaveProperty('commentCount');
  });

  it('HEAD is refused the same way', async () => {
    const res = await fetch(blog.url + '/Posts/First-post', { method: 'HEAD' });
    expect(res.status).toBe(401);
  });
});

describe('PUBLIC=false with an admin session', () => {
  it('the admin sees the site, the feed and the sitemap', async () => {
    const cookie = await blog.login();
    for (const route of ['/', '/Posts/First-post', '/topic/alpha', '/folder/alpha-collection', '/feed.xml', '/sitemap.xml']) {
      expect((await blog.page(route, { cookie })).status, route).toBe(200);
    }
    // …and the real robots file.
    expect((await blog.page('/robots.txt', { cookie })).text).toContain('Disallow: /api/');
  });

  it('an unpublished note is still missing for the admin on the public side', async () => {
    const cookie = await blog.login();
    const missing = await blog.page('/no/such/address', { cookie });
    const draft = await blog.page('/Posts/Draft', { cookie });
    expect(draft.status).toBe(404);
    expect(draft.text).toBe(missing.text);
  });
});
