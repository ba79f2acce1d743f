// CONTRACT §10, spec D.1, D.7: `calendars.display` (Gregorian, Hijri Umm al-Qura, both)
// applies live to every date a visitor reads (articles, lists, cards); month names
// follow the site language and digits BLOG_LOCALE (here `ar`: Arabic-Indic) for dates
// and counts alike (word count, reading time, page numbers, the footer's year); the
// feed's pubDate and the sitemap's lastmod stay Gregorian whatever the setting.
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { blogForFile, type BlogServer } from '../fixtures/blog/helpers.ts';

const RFC822 = /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} ([01]\d|2[0-3]):[0-5]\d:[0-5]\d \+0000$/;
const INDIC = /^[\u0660-\u0669]+$/;

// Twenty-five posts under one tag: its topic page has two pages.
const many: Record<string, string> = {};
for (let i = 1; i <= 25; i++) many[`Many/Post ${i}.md`] = `---\ntitle: Many ${i}\npublish: true\ndate: 2025-06-${String(i).padStart(2, '0')}\ntags: [many]\n---\nFiller ${i}.\n`;

const blog = blogForFile({ env: { PUBLIC_LAYOUT: 'blog', BLOG_LOCALE: 'ar', SITE_NAME: 'Calendars' }, files: many });

const FIRST = '<time datetime="2026-01-10T00:00:00.000Z">';
const dateOf = (html: string, open = FIRST) => {
  const at = html.indexOf(open);
  return at < 0 ? null : html.slice(at + open.length, html.indexOf('</time>', at));
};

/** Saves the setting (as the settings panel does: settings.json) and waits until the article shows `expected`. */
async function switchTo(server: BlogServer, settings: Record<string, unknown>, expected: string): Promise<void> {
  await server.writeSettings(settings);
  await server.waitForPage('/Posts/First-post', (p) => dateOf(p.text) === expected);
}

async function pubDates(server: BlogServer): Promise<string[]> {
  const feed = await new Parser().parseString((await server.page('/feed.xml')).text);
  return feed.items.map((i) => i.pubDate!);
}

describe('CONTRACT §10: dates in the chosen calendar, digits from BLOG_LOCALE', () => {
  it('Gregorian by default: articles, home and topic cards, with Arabic-Indic digits', async () => {
    const article = (await blog.page('/Posts/First-post')).text;
    expect(dateOf(article)).toBe('January ١٠, ٢٠٢٦');
    expect(dateOf((await blog.page('/')).text)).toBe('January ١٠, ٢٠٢٦');
    expect(dateOf((await blog.page('/topic/shared')).text)).toBe('January ١٠, ٢٠٢٦');
  });

  it('counts use the same digits: word count, reading time, notes in a topic, page numbers, the footer year', async () => {
    const article = (await blog.page('/Posts/First-post')).text;
    const words = /<span class="s-words">([^ ]+) words<\/span>/.exec(article)![1]!;
    const minutes = /<span class="s-reading">([^ ]+) min read<\/span>/.exec(article)![1]!;
    expect(words).toMatch(INDIC);
    expect(minutes).toBe('١');
    expect(article).toMatch(/<p class="s-footer-text"><bdi>© [\u0660-\u0669]{4} Calendars<\/bdi><\/p>/);
    const topic = (await blog.page('/topic/many')).text;
    expect(topic).toContain('<p class="s-count">٢٥ published notes<');
    expect(topic).toContain('<span class="s-page-number">Page ١ / ٢</span>');
    expect((await blog.page('/topic/many/page/2')).text).toContain('<span class="s-page-number">Page ٢ / ٢</span>');
  });

  it('Hijri (Umm al-Qura) on articles, lists and cards once the setting is saved; the feed stays RFC-822 Gregorian', async () => {
    const before = await pubDates(blog);
    await switchTo(blog, { calendars: { display: 'hijri' } }, 'Rajab ٢١, ١٤٤٧ AH');
    expect(dateOf((await blog.page('/')).text)).toBe('Rajab ٢١, ١٤٤٧ AH');
    expect(dateOf((await blog.page('/topic/shared')).text)).toBe('Rajab ٢١, ١٤٤٧ AH');
    expect(dateOf((await blog.page('/Posts/Third')).text, '<time datetime="2026-03-10T08:00:00.000Z">')).toBe('Ramadan ٢١, ١٤٤٧ AH');
    const after = await pubDates(blog);
    expect(after).toEqual(before);
    for (const d of after) expect(d).toMatch(RFC822);
    expect(after).toContain('Sat, 10 Jan 2026 00:00:00 +0000');
    const sitemap = (await blog.page('/sitemap.xml')).text;
    expect(sitemap).toContain('<lastmod>2026-01-10T00:00:00.000Z</lastmod>');
  });

  it('both calendars side by side; the feed still Gregorian', async () => {
    await switchTo(blog, { calendars: { display: 'both' } }, 'January ١٠, ٢٠٢٦ / Rajab ٢١, ١٤٤٧ AH');
    expect(dateOf((await blog.page('/')).text)).toBe('January ١٠, ٢٠٢٦ / Rajab ٢١, ١٤٤٧ AH');
    for (const d of await pubDates(blog)) expect(d).toMatch(RFC822);
  });

  it('month names follow the site language: Arabic Hijri months under an Arabic site', async () => {
    await switchTo(blog, { language: 'ar', calendars: { display: 'hijri' } }, '٢١ رجب ١٤٤٧ هـ');
    expect(dateOf((await blog.page('/topic/many')).text, '<time datetime="2025-06-25T00:00:00.000Z">')).toMatch(/^[\u0660-\u0669]+ ذو الحجة ١٤٤٦ هـ$/);
    await switchTo(blog, { language: 'ar', calendars: { display: 'gregorian' } }, '١٠ يناير ٢٠٢٦');
    for (const d of await pubDates(blog)) expect(d).toMatch(RFC822);
  });
});
