// PUBLIC=false: every answer the signed-in admin gets is `private` and varies by Cookie,
// so a shared cache (a CDN, an office proxy) never keeps a private site's pages, assets,
// search files, attachments or favicon to hand to someone else (a reviewer's find: the
// search shards were `public, immutable` for a year, attachments had no Cache-Control).
import { expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { waitFor } from '../helpers/server.ts';

const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog', PUBLIC: 'false' },
  files: { 'Posts/Pic.md': '---\ntitle: Pic\npublish: true\ndate: 2026-02-01\n---\nA picture: ![[dot.png]] and words to search.\n', 'Posts/dot.png': 'png bytes' },
});

it('pages, hashed assets, search files, attachments, the favicon and custom.css are private to the signed-in admin', async () => {
  const cookie = await blog.login();
  const page = (await waitFor(async () => {
    const p = await blog.page('/Posts/Pic', { cookie });
    return p.status === 200 ? p : null;
  }, 30_000))!;
  const css = /href="(\/_s\/[^"]+\.css)"/.exec(page.text)![1]!;
  const img = /<img[^>]+src="([^"]+dot\.png)"/.exec(page.text)![1]!;
  const manifest = JSON.parse((await blog.page('/search.json', { cookie })).text) as { meta: string[] };
  const routes = ['/Posts/Pic', '/', '/feed.xml', '/search.json', css, `/${manifest.meta[0]}`, new URL(img, blog.url).pathname, '/favicon.ico', '/custom.css'];
  for (const route of routes) {
    const res = await blog.page(route, { cookie });
    expect(res.status, route).toBe(200);
    expect(res.headers.get('cache-control'), route).toMatch(/^private, /);
    if (route !== '/custom.css') expect(res.headers.get('vary') ?? '', route).toMatch(/Cookie/);
  }
});
