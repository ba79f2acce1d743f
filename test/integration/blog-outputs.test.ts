// spec D.7, 4.5: /feed.xml, /sitemap.xml, /robots.txt, with SITE_URL set,
// BLOG_LOCALE=ar-EG and the language filter on. The feed goes through a real
// feed parser; the sitemap through xmllint and the sitemaps.org 0.9 schema.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';

const SITE = 'https://notes.example.com';
const SCHEMA = path.resolve(import.meta.dirname, '../fixtures/blog/schema/sitemap-with-alternates.xsd');
const enc = (s: string) => s.split('/').map(encodeURIComponent).join('/');
const RFC822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d \+0000$/;

const blog = blogForFile({
    env: { PUBLIC_LAYOUT: 'blog', SITE_URL: SITE, BLOG_LOCALE: 'ar-EG', SITE_NAME: 'Outputs', EXCLUDE_TAGS: 'secret-tag' },
    settings: { publishing: { languageFilter: true } },
  });

async function validateSitemap(xml: string): Promise<void> {
  const dir = await tempDir('vs-sitemap-');
  const file = path.join(dir, 'sitemap.xml');
  await fs.writeFile(file, xml);
  // Throws (non-zero exit) when the document does not validate.
  execFileSync('xmllint', ['--noout', '--schema', SCHEMA, file], { stdio: 'pipe' });
}

describe('/feed.xml', () => {
  it('is RSS 2.0 a real parser reads: posts only, newest first, excerpt as description', async () => {
    const res = await blog.page('/feed.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/rss\+xml/);
    const feed = await new Parser().parseString(res.text);
    expect(res.text).toMatch(/<rss version="2\.0"/);
    expect(feed.title).toBe('Outputs');
    expect(feed.link).toBe(`${SITE}/`);
    expect(feed.items.map((i) => i.title)).toEqual(['Third thoughts', 'Second', 'Hello world', 'مرحبا بالعالم', 'First post', 'Part two', 'Part one', 'Kyoto', 'Paris in spring']);
    const first = feed.items.find((i) => i.title === 'First post')!;
    expect(first.link).toBe(`${SITE}/Posts/First-post`);
    expect(first.content).toBe('The first post opens with this paragraph, which links to Second and ends here.');
    expect(first.categories).not.toContain('secret-tag');
  });

  it('pubDate is RFC-822, Gregorian, GMT; language is BLOG_LOCALE', async () => {
    const text = (await blog.page('/feed.xml')).text;
    const dates = [...text.matchAll(/<pubDate>([^<]*)<\/pubDate>/g)].map((m) => m[1]!);
    expect(dates.length).toBe(9);
    for (const d of dates) expect(d).toMatch(RFC822);
    expect(dates[0]).toBe('Tue, 10 Mar 2026 08:00:00 +0000');
    expect(text).toContain('<language>ar-EG</language>');
  });

  it('leaves out static pages, the home note and template notes', async () => {
    const text = (await blog.page('/feed.xml')).text;
    for (const word of ['About this blog', 'Welcome home', 'TEMPLATE', 'Unfinished draft']) expect(text).not.toContain(word);
  });

  it('?lang=ar and ?lang=en filter by the note language when the filter is on', async () => {
    const ar = await new Parser().parseString((await blog.page('/feed.xml?lang=ar')).text);
    expect(ar.items.map((i) => i.title)).toEqual(['مرحبا بالعالم']);
    const en = await new Parser().parseString((await blog.page('/feed.xml?lang=en')).text);
    expect(en.items.map((i) => i.title)).not.toContain('مرحبا بالعالم');
    expect(en.items.length).toBe(8);
  });

  it('every page advertises it', async () => {
    for (const route of ['/', '/Posts/Second', '/topic/beta', '/nope']) {
      expect((await blog.page(route)).text, route).toContain(`<link rel="alternate" type="application/rss+xml" title="Outputs" href="${SITE}/feed.xml">`);
    }
  });
});

describe('/sitemap.xml', () => {
  it('validates against the sitemaps.org 0.9 schema', async () => {
    const res = await blog.page('/sitemap.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    await validateSitemap(res.text);
    await validateSitemap((await blog.page('/sitemap.xml?lang=ar')).text);
  });

  it('front page first, then every visible note newest first with lastmod; static pages in; the home note (read at /), topic and collection pages out', async () => {
    const text = (await blog.page('/sitemap.xml')).text;
    const locs = [...text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.slice(SITE.length));
    expect(locs[0]).toBe('/');
    expect(locs.slice(1)).toEqual(
      expect.arrayContaining(['/About', '/Posts/Third', '/Posts/Second', '/Twins/Hello', enc('/Twins/مرحبا'), '/Posts/First-post', '/Pairs/Part-two', '/Pairs/Part-one', '/Travel/Asia/Kyoto', enc('/Travel/2|Europe/Paris')]),
    );
    expect(locs.length).toBe(11);
    expect(locs.some((l) => l === '/Home' || l.startsWith('/topic/') || l.startsWith('/folder/'))).toBe(false);
    const lastmods = [...text.matchAll(/<lastmod>([^<]*)<\/lastmod>/g)].map((m) => Date.parse(m[1]!));
    const notes = lastmods.slice(1);
    expect([...notes].sort((a, b) => b - a)).toEqual(notes);
    expect(text).toContain(`<loc>${SITE}/Posts/First-post</loc><lastmod>2026-01-10T00:00:00.000Z</lastmod>`);
  });

  it('twins carry xhtml:link alternates for both faces', async () => {
    const text = (await blog.page('/sitemap.xml')).text;
    const hello = new RegExp(`<url><loc>${SITE}/Twins/Hello</loc>.*?</url>`).exec(text)![0];
    expect(hello).toContain(`<xhtml:link rel="alternate" hreflang="ar" href="${SITE}${enc('/Twins/مرحبا')}"/>`);
    expect(hello).toContain(`<xhtml:link rel="alternate" hreflang="en" href="${SITE}/Twins/Hello"/>`);
    expect(hello).toContain(`<xhtml:link rel="alternate" hreflang="x-default" href="${SITE}/Twins/Hello"/>`);
    const marhaba = new RegExp(`<url><loc>${SITE}${enc('/Twins/مرحبا')}</loc>.*?</url>`).exec(text)![0];
    expect(marhaba).toContain('hreflang="en"');
    expect(text).not.toMatch(/Part-one<\/loc>[^\n]*xhtml:link/);
  });
});

describe('/robots.txt', () => {
  it('allows everything but the API and names the sitemap', async () => {
    const res = await blog.page('/robots.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(res.text).toBe(`User-agent: *\nAllow: /\nDisallow: /api/\nSitemap: ${SITE}/sitemap.xml\n`);
  });
});

describe('spec D.1: dates', () => {
  it('month names from the interface language, Arabic-Indic digits from an Arabic BLOG_LOCALE', async () => {
    const text = (await blog.page('/Posts/First-post')).text;
    expect(text).toContain('<time datetime="2026-01-10T00:00:00.000Z">January ١٠, ٢٠٢٦</time>');
  });
});
