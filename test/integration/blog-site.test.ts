// The public blog on the fixture vault (spec 1, 2.4, 2.5, 4.5, 5.7, D.1–D.3, D.7):
// one real server, PUBLIC_LAYOUT=blog, EXCLUDE_TAGS=secret-tag.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import Parser from 'rss-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeHtml, linksWithClass, blogForFile } from '../fixtures/blog/helpers.ts';

const enc = (s: string) => s.split('/').map(encodeURIComponent).join('/');

const blog = blogForFile({ env: { PUBLIC_LAYOUT: 'blog', EXCLUDE_TAGS: 'secret-tag', SITE_NAME: 'Fixture Blog', SITE_TAGLINE: 'Notes in public', SITE_FOOTER: '(c) {year} {siteName} — footer' } });

describe('spec D.2: posts, newest first', () => {
  it('the home page lists every published post newest first, and nothing else', async () => {
    const home = await blog.page('/');
    expect(home.status).toBe(200);
    const titles = [...home.text.matchAll(/class="s-post-link" href="[^"]*">([^<]*)</g)].map((m) => decodeHtml(m[1]!));
    expect(titles).toEqual(['Third thoughts', 'Second', 'Hello world', 'مرحبا بالعالم', 'First post', 'Part two', 'Part one', 'Kyoto', 'Paris in spring']);
    // Static pages, drafts, template notes and malformed notes are not posts.
    for (const word of ['About this blog', 'Unfinished draft', 'TEMPLATE-WORDS', 'BROKEN-FRONTMATTER-WORDS', 'DRAFT-SECRET-WORDS']) expect(home.text).not.toContain(word);
  });

  it('note mode: the home note is the introduction above the posts', async () => {
    const home = await blog.page('/');
    const intro = home.text.indexOf('class="s-intro"');
    expect(intro).toBeGreaterThan(0);
    expect(home.text.slice(intro)).toMatch(/<strong>home note<\/strong>/);
    expect(intro).toBeLessThan(home.text.indexOf('class="s-cards'));
  });

  it('GET /api/posts: same posts, same order, CONTRACT shape; open to visitors (CONTRACT §5), the same answer', async () => {
    const res = await blog.admin('GET', '/api/posts');
    const visitor = await blog.api('GET', '/api/posts');
    expect(visitor.status).toBe(200);
    expect(visitor.body).toEqual(res.body);
    expect(res.status).toBe(200);
    expect(res.body.map((p: { title: string }) => p.title)).toEqual(['Third thoughts', 'Second', 'Hello world', 'مرحبا بالعالم', 'First post', 'Part two', 'Part one', 'Kyoto', 'Paris in spring']);
    const first = res.body.find((p: { title: string }) => p.title === 'First post');
    expect(first).toEqual({
      url: '/Posts/First-post',
      path: 'Posts/First post.md',
      title: 'First post',
      date: '2026-01-10T00:00:00.000Z',
      excerpt: 'The first post opens with this paragraph, which links to Second and ends here.',
      tags: ['alpha', 'shared'],
    });
    // EXCLUDE_TAGS hides tags from visitors only: the vault's own view keeps them.
    expect(res.body.find((p: { title: string }) => p.title === 'Second').tags).toContain('secret-tag');
  });
});

describe('spec 2.5, CONTRACT §5: GET /api/posts names exactly the posts the feed may name', () => {
  it('on a vault under the feed`s limit, /api/posts and /feed.xml list the same posts in the same order', async () => {
    const posts = (await blog.api('GET', '/api/posts')).body as { url: string }[];
    const feed = await new Parser().parseString((await blog.page('/feed.xml')).text);
    // Under the limit (50): the feed names every post it may, so the lists must match.
    expect(posts.length).toBeGreaterThan(1);
    expect(feed.items.length).toBeLessThan(50);
    const local = (link: string) => new URL(link, blog.url).pathname;
    expect(feed.items.map((i) => local(i.link!))).toEqual(posts.map((p) => p.url));
  });
});

describe('CONTRACT §6, spec 5.7: addresses and unpublished notes', () => {
  it('a note lives at its path without extension, spaces as -, percent-encoded', async () => {
    expect((await blog.page('/Posts/First-post')).status).toBe(200);
    expect((await blog.page(enc('/Twins/مرحبا'))).status).toBe(200);
  });

  it('an unpublished note answers byte for byte what a missing address answers', async () => {
    const missing = await blog.page('/Posts/No-such-note');
    expect(missing.status).toBe(404);
    for (const route of ['/Posts/Draft', '/Posts/Broken', '/Templates/Template-post', '/Topics/alpha', '/folder/gamma', '/topic/secret-tag', '/.trash/Trashed', '/.service/Leak', '/Trashed', '/Leak']) {
      const res = await blog.page(route);
      expect(res.status, route).toBe(404);
      expect(res.text, route).toBe(missing.text);
      expect(res.headers.get('content-type'), route).toBe(missing.headers.get('content-type'));
    }
  });

  it('wrong case and a trailing slash lead to the one real address', async () => {
    const res = await blog.page('/posts/first-post/');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/Posts/First-post');
  });

  it('nothing from .trash, .service, .git or the data directory is in the output', async () => {
    const root = path.join(blog.data, 'public-site');
    const gens = (await fs.readdir(root)).filter((n) => n.startsWith('gen-'));
    expect(gens.length).toBeGreaterThan(0);
    const files = (await fs.readdir(path.join(root, gens.at(-1)!), { recursive: true })) as string[];
    expect(files.some((f) => /(^|\/)\.(trash|service|git)(\/|$)/.test(f))).toBe(false);
    for (const f of files.filter((f) => f.endsWith('.html') || f.endsWith('.xml'))) {
      const text = await fs.readFile(path.join(root, gens.at(-1)!, f), 'utf8');
      expect(text, f).not.toMatch(/TRASH-WORDS|SERVICE-WORDS|DRAFT-SECRET-WORDS|TEMPLATE-WORDS/);
    }
  });
});

describe('spec D.1: the article page', () => {
  let html: string;
  beforeAll(async () => {
    html = (await blog.page('/Posts/First-post')).text;
  });

  it('has title, date, word count, reading time and tags', () => {
    expect(html).toContain('<h1 class="s-title">First post</h1>');
    expect(html).toContain('<time datetime="2026-01-10T00:00:00.000Z">January 10, 2026</time>');
    expect(html).toMatch(/<span class="s-words">\d+ words<\/span>/);
    expect(html).toContain('<span class="s-reading">1 min read</span>');
    expect(linksWithClass(html, 's-tag')).toEqual(['/topic/alpha', '/topic/shared']);
  });

  it('ends with share links, previous/next, Related (comments and mentions follow while comments are on: comments-*.test.ts)', () => {
    const order = ['class="s-share"', 'class="s-prevnext"', 'class="s-related"'].map((m) => html.indexOf(m));
    expect(html).not.toContain('id="comments"');
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(html).toMatch(/twitter\.com\/intent\/tweet\?url=http%3A%2F%2F127\.0\.0\.1%3A\d+%2FPosts%2FFirst-post/);
    expect(html).toMatch(/rel="prev" href="\/Pairs\/Part-two"/);
    expect(html).toContain(`rel="next" href="${enc('/Twins/مرحبا')}"`);
    // Related: First post links to Second.
    expect(html).toMatch(/<section class="s-related"[^>]*>.*href="\/Posts\/Second"/s);
  });

  it('Related is symmetric: the linked note lists the note linking to it', async () => {
    const second = (await blog.page('/Posts/Second')).text;
    expect(second).toMatch(/<section class="s-related"[^>]*>.*href="\/Posts\/First-post"/s);
  });

  it('a wikilink to a published note is a link; the body keeps no private %% comment', () => {
    expect(html).toContain('<a class="s-wikilink internal-link" href="/Posts/Second">Second</a>');
  });

  it('EXCLUDE_TAGS removes chips, the topic page and the topic row entry', async () => {
    const second = (await blog.page('/Posts/Second')).text;
    expect(linksWithClass(second, 's-tag')).toEqual(['/topic/beta', '/topic/shared']);
    expect(second).toContain('#Beta label');
    expect(second).not.toContain('secret-tag');
    expect((await blog.page('/topic/secret-tag')).status).toBe(404);
    expect((await blog.page('/')).text).not.toContain('secret-tag');
  });

  it('the footer: SITE_FOOTER with {year} and {siteName}, RSS link, sign-in link, the credit line', () => {
    expect(html).toContain(`(c) ${new Date().getUTCFullYear()} Fixture Blog — footer`);
    expect(html).toMatch(/<a class="s-rss" href="\/feed\.xml">/);
    expect(html).toMatch(/<a class="s-signin" href="\/admin\/"/);
    expect(html).toContain('class="s-blog-powered"');
  });

  it('masthead with site name and tagline, topic row on every page', async () => {
    for (const route of ['/', '/Posts/First-post', '/topic/alpha', '/About', '/Posts/No-such-note']) {
      const text = (await blog.page(route)).text;
      expect(text, route).toContain('<span class="s-site-name">Fixture Blog</span>');
      expect(text, route).toContain('<p class="s-tagline">Notes in public</p>');
      expect(text, route).toContain('<nav class="s-topics"');
    }
  });

  it('a signed-in admin sees an Edit link into /admin/; a visitor does not', async () => {
    expect(html).not.toContain('s-edit');
    const cookie = await blog.login();
    const asAdmin = (await blog.page('/Posts/First-post', { cookie })).text;
    expect(asAdmin).toContain('<a class="s-edit" href="/admin/?path=Posts%2FFirst%20post.md"');
  });

  it('a static page has no date and no neighbours', async () => {
    const about = (await blog.page('/About')).text;
    expect(about).toContain('<h1 class="s-title">About this blog</h1>');
    expect(about).not.toContain('<time');
    expect(about).not.toContain('s-prevnext');
  });
});

describe('spec 2.8: topics', () => {
  it('one page per tag of published posts, under its localised label, address keeps the tag', async () => {
    const beta = await blog.page('/topic/beta');
    expect(beta.status).toBe(200);
    expect(beta.text).toContain('Beta label');
    expect(linksWithClass(beta.text, 's-post-link')).toEqual(['/Posts/Second']);
    const shared = (await blog.page('/topic/shared')).text;
    expect(linksWithClass(shared, 's-post-link')).toEqual(['/Posts/Second', '/Posts/First-post']);
    // A tag only a draft or a template carries is no topic.
    expect((await blog.page('/topic/gamma')).status).toBe(200);
    const nav = (await blog.page('/')).text;
    expect(nav).toMatch(/<a class="s-chip s-topic" dir="auto" href="\/topic\/beta">#Beta label<\/a>/);
  });
});

describe('spec D.7: SEO tags', () => {
  it('article: title, description from the excerpt, og:type=article, canonical, RSS alternate', async () => {
    const text = (await blog.page('/Posts/First-post', { headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'blog.example.org' } })).text;
    expect(text).toContain('<title>First post · Fixture Blog</title>');
    expect(text).toContain('<meta name="description" content="The first post opens with this paragraph, which links to Second and ends here.">');
    expect(text).toContain('<meta property="og:type" content="article">');
    expect(text).toContain('<link rel="canonical" href="https://blog.example.org/Posts/First-post">');
    expect(text).toContain('<link rel="alternate" type="application/rss+xml" title="Fixture Blog" href="https://blog.example.org/feed.xml">');
  });

  it('other pages use the site meta and og:type website', async () => {
    const text = (await blog.page('/topic/alpha')).text;
    expect(text).toContain('<meta property="og:type" content="website">');
    expect(text).toMatch(/<link rel="alternate" type="application\/rss\+xml"/);
    expect((await blog.page('/')).text).toContain('<title>Fixture Blog</title>');
  });

  it('twins in two languages: hreflang ar, en and x-default on both faces', async () => {
    const base = blog.url;
    for (const route of ['/Twins/Hello', enc('/Twins/مرحبا')]) {
      const text = (await blog.page(route)).text;
      expect(text, route).toContain(`<link rel="alternate" hreflang="ar" href="${base}${enc('/Twins/مرحبا')}">`);
      expect(text, route).toContain(`<link rel="alternate" hreflang="en" href="${base}/Twins/Hello">`);
      expect(text, route).toContain(`<link rel="alternate" hreflang="x-default" href="${base}/Twins/Hello">`);
    }
  });

  it('a same-language pair gets no hreflang and names its counterpart under the title', async () => {
    for (const [route, other] of [['/Pairs/Part-one', 'Part two'], ['/Pairs/Part-two', 'Part one']]) {
      const text = (await blog.page(route!)).text;
      expect(text).not.toContain('hreflang');
      expect(text).toMatch(new RegExp(`class="s-counterpart" lang="en" dir="ltr">See also: <a class="s-post-link" href="[^"]+">${other}</a>`));
    }
  });

  it('an Arabic article is right-to-left inside the English frame', async () => {
    const text = (await blog.page(enc('/Twins/مرحبا'))).text;
    expect(text).toMatch(/<html lang="en" dir="ltr"/);
    expect(text).toContain('<article class="s-article" lang="ar" dir="rtl">');
  });
});

describe('spec 2.5: excerpts on lists', () => {
  it('skip a bare timestamp and a Tags line', async () => {
    const home = (await blog.page('/')).text;
    expect(home).toContain('<p class="s-card-excerpt">The first post opens with this paragraph, which links to Second and ends here.</p>');
    expect(home).not.toContain('09:15');
  });
});
