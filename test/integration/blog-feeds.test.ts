// spec D.7: the site's feed and a feed per topic at /topic/<tag>/feed.xml
// (advertised on its topic page), `?lang=` on both; Settings → Publishing → Feed content
// gives items the whole article (links absolute, `%%` comments never). Every feed is
// read by a real feed parser (rss-parser) and validated against RSS 2.0 (xmllint).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';

const SITE = 'https://feeds.example';
const SCHEMA = path.resolve(import.meta.dirname, '../fixtures/blog/schema/rss-2.0.xsd');

const FULL = `---
title: Full article
publish: true
date: 2026-04-01
tags: [shared]
---
The opening links to [[Second]] and shows ![[pic.png]].

A claim with a footnote.[^1] %%PRIVATE-FEED-WORDS never leave the vault%%

<a href="sub/page?x=1&amp;y=2">A relative link</a> and [an outside one](https://example.org/x).

[^1]: The footnote text.
`;

const blog = blogForFile({
  env: { PUBLIC_LAYOUT: 'blog', SITE_URL: SITE, SITE_NAME: 'Feeds', EXCLUDE_TAGS: 'secret-tag' },
  settings: { publishing: { languageFilter: true } },
  files: {
    'Posts/Full article.md': FULL,
    'Posts/pic.png': 'an image',
    'Posts/Arabic shared.md': '---\ntitle: مشاركة عربية\npublish: true\ndate: 2026-03-20\ntags: [shared]\n---\nنص عربي في موضوع مشترك.\n',
  },
});

type Parsed = Awaited<ReturnType<Parser['parseString']>>;

/** A feed as a reader gets it: RSS 2.0 by the schema, the channel's required elements, and a real parser's reading. */
async function readFeed(route: string): Promise<{ feed: Parsed; text: string }> {
  const res = await blog.page(route);
  expect(res.status, route).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
  const dir = await tempDir('vs-feed-');
  const file = path.join(dir, 'feed.xml');
  await fs.writeFile(file, res.text);
  // Throws (non-zero exit) when the feed does not validate.
  execFileSync('xmllint', ['--noout', '--schema', SCHEMA, file], { stdio: 'pipe' });
  const channel = new XMLParser().parse(res.text).rss.channel;
  for (const required of ['title', 'link', 'description']) expect(channel[required], `${route} channel ${required}`).toBeTruthy();
  return { feed: await new Parser({ customFields: { item: ['content:encoded'] } }).parseString(res.text), text: res.text };
}

const contentOf = (feed: Parsed, title: string) => (feed.items.find((i) => i.title === title) as Record<string, string> | undefined)?.['content:encoded'];

describe('/feed.xml (excerpt, the default)', () => {
  it('is valid RSS 2.0 with excerpts and no content:encoded', async () => {
    const { feed, text } = await readFeed('/feed.xml');
    expect(feed.title).toBe('Feeds');
    expect(feed.items[0]!.title).toBe('Full article');
    expect(feed.items[0]!.content).toBe('The opening links to Second and shows .');
    expect(text).not.toContain('content:encoded');
    expect(text).not.toContain('PRIVATE-FEED-WORDS');
  });
});

describe('a feed per topic', () => {
  it('/topic/shared/feed.xml lists the topic\'s posts, newest first, with the topic in its title', async () => {
    const { feed } = await readFeed('/topic/shared/feed.xml');
    expect(feed.title).toBe('shared · Feeds');
    expect(feed.link).toBe(`${SITE}/topic/shared`);
    expect(feed.feedUrl).toBe(`${SITE}/topic/shared/feed.xml`);
    expect(feed.items.map((i) => i.title)).toEqual(['Full article', 'مشاركة عربية', 'Second', 'First post']);
    expect(feed.items[0]!.link).toBe(`${SITE}/Posts/Full-article`);
  });

  it('is advertised on its topic page, in the head and beside the count', async () => {
    const page = (await blog.page('/topic/shared')).text;
    expect(page).toContain(`<link rel="alternate" type="application/rss+xml" title="shared · Feeds" href="${SITE}/topic/shared/feed.xml">`);
    expect(page).toContain(`<a class="s-feed-link" href="${SITE}/topic/shared/feed.xml">RSS</a>`);
    // The site's own feed stays advertised too.
    expect(page).toContain(`<link rel="alternate" type="application/rss+xml" title="Feeds" href="${SITE}/feed.xml">`);
  });

  it('?lang= filters a topic\'s feed as it filters the site\'s', async () => {
    const ar = (await readFeed('/topic/shared/feed.xml?lang=ar')).feed;
    expect(ar.items.map((i) => i.title)).toEqual(['مشاركة عربية']);
    expect(ar.feedUrl).toBe(`${SITE}/topic/shared/feed.xml?lang=ar`);
    expect((await readFeed('/topic/shared/feed.xml?lang=ar')).text).toContain('<language>ar</language>');
    const en = (await readFeed('/topic/shared/feed.xml?lang=en')).feed;
    expect(en.items.map((i) => i.title)).toEqual(['Full article', 'Second', 'First post']);
    expect((await readFeed('/feed.xml?lang=ar')).feed.items.map((i) => i.title)).toEqual(['مشاركة عربية', 'مرحبا بالعالم']);
  });

  it('with the language filter on, every page tells a feed reader of the feed in each language, and a topic page of its own', async () => {
    const alternates = (html: string) => [...html.matchAll(/<link rel="alternate" type="application\/rss\+xml"[^>]*>/g)].map((m) => m[0]);
    const home = alternates((await blog.page('/')).text);
    expect(home).toContain(`<link rel="alternate" type="application/rss+xml" hreflang="ar" title="Feeds (العربية)" href="${SITE}/feed.xml?lang=ar">`);
    expect(home).toContain(`<link rel="alternate" type="application/rss+xml" hreflang="en" title="Feeds (English)" href="${SITE}/feed.xml?lang=en">`);
    const topic = alternates((await blog.page('/topic/shared')).text);
    expect(topic).toContain(`<link rel="alternate" type="application/rss+xml" hreflang="ar" title="shared · Feeds (العربية)" href="${SITE}/topic/shared/feed.xml?lang=ar">`);
    // Each one answers: what a page names is a feed.
    for (const link of [...home, ...topic]) expect((await readFeed(new URL(/href="([^"]+)"/.exec(link)![1]!).pathname + new URL(/href="([^"]+)"/.exec(link)![1]!).search)).feed.items.length).toBeGreaterThan(0);
  });

  it('a tag no visitor sees has no feed; an unknown topic\'s feed answers like any missing address', async () => {
    const missing = await blog.page('/topic/nothing-here/feed.xml');
    const secret = await blog.page('/topic/secret-tag/feed.xml');
    expect(missing.status).toBe(404);
    expect(secret.status).toBe(404);
    expect(secret.text).toBe(missing.text);
  });
});

describe('Feed content: the full article', () => {
  it('items carry the article with every link absolute and no private comment; the feeds stay valid', async () => {
    await blog.writeSettings({ publishing: { languageFilter: true, feedContent: 'full' } });
    await blog.waitForPage('/feed.xml', (p) => p.text.includes('content:encoded'));
    const { feed } = await readFeed('/feed.xml');
    const html = contentOf(feed, 'Full article')!;
    expect(html).toContain(`href="${SITE}/Posts/Second">Second</a>`);
    expect(html).toContain(`src="${SITE}/Posts/pic.png"`);
    expect(html).toContain(`href="${SITE}/Posts/Full-article#fn1"`);
    expect(html).toContain(`href="${SITE}/Posts/sub/page?x=1&amp;y=2"`);
    expect(html).toContain('href="https://example.org/x"');
    expect(html).not.toMatch(/(href|src)="\/(?!\/)/);
    expect(html).not.toContain('PRIVATE-FEED-WORDS');
    // The excerpt stays the description.
    expect(feed.items[0]!.content).toBe('The opening links to Second and shows .');
    const topic = (await readFeed('/topic/shared/feed.xml')).feed;
    expect(contentOf(topic, 'First post')).toContain('<h2');
    expect(contentOf((await readFeed('/topic/shared/feed.xml?lang=ar')).feed, 'مشاركة عربية')).toContain('نص عربي في موضوع مشترك.');
  });

  it('an edit of one post reaches its item in the site feed and its topic feed', async () => {
    await fs.writeFile(path.join(blog.vault, 'Posts/Full article.md'), FULL.replace('The opening', 'The edited opening'));
    await blog.waitForPage('/topic/shared/feed.xml', (p) => p.text.includes('The edited opening'));
    expect((await readFeed('/feed.xml')).text).toContain('The edited opening');
  });
});

describe('characters XML cannot hold', () => {
  it('a backspace and other controls in a title or a body, pasted from a PDF, are left out: the feeds stay valid', async () => {
    await fs.writeFile(
      path.join(blog.vault, 'Posts/Pasted.md'),
      '---\ntitle: "Pasted \\u0001 from \\u000b a \\uFFFE PDF"\npublish: true\ndate: 2026-05-01\ntags: [shared]\n---\nA PDF\u000cwith a form feed and a backspace\u0008 in it.\n',
    );
    await blog.waitForPage('/feed.xml', (p) => p.text.includes('Pasted'));
    for (const route of ['/feed.xml', '/topic/shared/feed.xml']) {
      const { feed, text } = await readFeed(route);
      // The title is one line (fields.ts titleOf): the vertical tab and the spaces around it are one space.
      expect(feed.items.map((i) => i.title)).toContain('Pasted  from a  PDF');
      expect(text).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/);
    }
  });
});
