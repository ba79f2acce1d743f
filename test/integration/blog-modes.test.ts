// spec 2.8, D.3–D.5: collections (tags mode), the home band, the topic row's
// collection chips, dashboard home, categories (folders mode) and the default app
// layout — switched live through settings.json, as PATCH /api/settings does.
import { describe, expect, it } from 'vitest';
import { linksWithClass, blogForFile } from '../fixtures/blog/helpers.ts';

const base = { siteName: 'Modes', tagline: 'Every layout', collections: { enabled: true, showOnHome: true, showInNav: true, source: 'tags' } };

const blog = blogForFile({ env: { PUBLIC_LAYOUT: 'blog' }, settings: base });

/** Writes settings.json and waits until the home page shows `marker`. */
async function switchTo(settings: Record<string, unknown>, ready: (html: string) => boolean): Promise<string> {
  await blog.writeSettings(settings);
  return (await blog.waitForPage('/', (p) => ready(p.text))).text;
}

describe('spec 2.8, D.5: collections in tags mode', () => {
  it('a collection page: mark, title, description, count, members by tag, by folders: and by its folder', async () => {
    const page = await blog.page('/folder/alpha-collection');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<span class="s-mark">★</span> Alpha Collection</h1>');
    expect(page.text).toContain('<p class="s-list-description">Everything about alpha.</p>');
    expect(page.text).toContain('<p class="s-count">3 published notes</p>');
    // Third (folders: /folder/Alpha-Collection/), First post (tag alpha), Kyoto (folder Travel/Asia); never the draft.
    expect(linksWithClass(page.text, 's-post-link')).toEqual(['/Posts/Third', '/Posts/First-post', '/Travel/Asia/Kyoto']);
  });

  it('the address tolerates case, spaces and a pasted trailing slash', async () => {
    for (const route of ['/folder/Alpha-Collection', '/folder/alpha-collection/', '/folder/%20Alpha%20Collection%20']) {
      const res = await blog.page(route);
      expect(res.status, route).toBe(301);
      expect(res.headers.get('location'), route).toBe('/folder/alpha-collection');
    }
  });

  it('a hidden collection is unreachable; an empty one still has its page and its home card', async () => {
    expect((await blog.page('/folder/gamma')).status).toBe(404);
    const empty = await blog.page('/folder/empty');
    expect(empty.status).toBe(200);
    expect(empty.text).toContain('0 published notes');
    const home = (await blog.page('/')).text;
    const band = /<section class="s-band">.*?<\/section>/s.exec(home)![0];
    expect(band).toContain('Alpha Collection');
    expect(band).toMatch(/Empty shelf<\/span>.*0 published notes/s);
    expect(band).not.toContain('Gamma');
  });

  it('Show in navigation: collection chips first with their mark, a separator, then topics; no chip when empty', async () => {
    const home = (await blog.page('/')).text;
    const nav = /<nav class="s-topics".*?<\/nav>/s.exec(home)![0];
    expect(nav).toMatch(/s-home.*s-pinned" href="\/folder\/alpha-collection"><span class="s-mark">★<\/span>Alpha Collection.*s-sep.*s-topic-list/s);
    expect(nav).not.toContain('/folder/empty');
    expect(nav).not.toContain('/folder/gamma');
  });

  it('collection pages are not in the sitemap', async () => {
    expect((await blog.page('/sitemap.xml')).text).not.toContain('/folder/');
  });

  it('turning Show in navigation off removes the chips; the pages stay reachable', async () => {
    await switchTo({ ...base, collections: { ...base.collections, showInNav: false } }, (html) => !html.includes('s-pinned'));
    expect((await blog.page('/folder/alpha-collection')).status).toBe(200);
  });
});

describe('spec D.3: dashboard home', () => {
  it('hero with site name and tagline over a gradient made from the site name; card grid with thumbnails, excerpts, chips', async () => {
    const home = await switchTo({ ...base, home: { mode: 'dashboard' } }, (html) => html.includes('s-hero'));
    expect(home).toMatch(/<section class="s-hero" style="background: linear-gradient\([^"]+\)">/);
    expect(home).toContain('<h1 class="s-hero-name">Modes</h1>');
    expect(home).toContain('<p class="s-hero-tagline">Every layout</p>');
    expect(home).toContain('<ul class="s-cards s-grid">');
    const card = /<li class="s-card"[^>]*>.*?<\/li>/s.exec(home)![0];
    expect(card).toMatch(/class="s-card-thumb"[^>]*style="background: linear-gradient/);
    expect(card).toContain('s-card-excerpt');
    expect(home).toContain('<section class="s-band">');
    // Dashboard mode shows no home-note introduction.
    expect(home).not.toContain('s-intro');
  });

  it('home.banner (an https URL) is the hero background', async () => {
    const home = await switchTo({ ...base, home: { mode: 'dashboard', banner: 'https://images.example/banner.jpg' } }, (html) => html.includes('banner.jpg'));
    expect(home).toContain('style="background: url(&quot;https://images.example/banner.jpg&quot;) center / cover"');
  });
});

describe('spec 2.8, D.4: categories in folders mode', () => {
  it('the navigation, the band and the category pages come from folders; collections are gone', async () => {
    // The page body and the topic row are separate outputs that land one after the
    // other within a rebuild: wait for both.
    const home = await switchTo(
      { ...base, collections: { ...base.collections, source: 'folders' } },
      (html) => html.includes('/folder/travel-europe') && /<nav class="s-topics".*Old Europe.*<\/nav>/s.test(html),
    );
    const nav = /<nav class="s-topics".*?<\/nav>/s.exec(home)![0];
    // Folder note title wins; the `2|` sorting prefix never shows; hidden folder (index.md) is left out.
    expect(nav, nav).toContain('<span class="s-mark">⌘</span>Old Europe');
    expect(nav).not.toContain('2|');
    expect(nav).not.toContain('travel-asia');
    expect(nav).not.toContain('/topic/');
    expect((await blog.page('/folder/alpha-collection')).status).toBe(404);
    const europe = (await blog.page('/folder/travel-europe')).text;
    expect(europe).toContain('<p class="s-list-description">Cities of the old world.</p>');
    expect(linksWithClass(europe, 's-post-link')).toEqual([encodeURI('/Travel/2|Europe/Paris').replace('|', '%7C')]);
    expect((await blog.page('/folder/travel-asia')).status).toBe(404);
    // Tags still show on posts and topic pages still exist.
    expect((await blog.page('/Posts/First-post')).text).toContain('href="/topic/alpha"');
  });
});

describe('settings apply live', () => {
  it('a new site name reaches every page', async () => {
    await switchTo({ ...base, siteName: 'Renamed Site' }, (html) => html.includes('Renamed Site'));
    expect((await blog.page('/Posts/Second')).text).toContain('<span class="s-site-name">Renamed Site</span>');
    expect((await blog.page('/feed.xml')).text).toContain('<title>Renamed Site</title>');
  });

  it('spec D.3: in the default app layout `/` opens the home note, without the home rows', async () => {
    const home = await switchTo({ ...base, publishing: { layout: 'default' } }, (html) => html.includes('s-layout-default'));
    expect(home).toContain('<h1 class="s-title">Welcome home</h1>');
    expect(home).not.toContain('s-cards');
    expect(home).not.toContain('s-band');
  });
});

describe('spec D.1: SITE_LANG / settings language ar mirrors the frame', () => {
  it('the frame is right-to-left with Arabic labels; each article keeps its own direction; month names follow the interface language', async () => {
    const home = await switchTo({ ...base, language: 'ar' }, (html) => html.includes('<html lang="ar" dir="rtl"'));
    expect(home).toContain('>الرئيسية</a>');
    const english = (await blog.page('/Posts/First-post')).text;
    expect(english).toMatch(/<html lang="ar" dir="rtl"/);
    expect(english).toContain('<article class="s-article" lang="en" dir="ltr">');
    // BLOG_LOCALE is en here: Latin digits, Arabic month names.
    expect(english).toContain('<time datetime="2026-01-10T00:00:00.000Z">10 يناير 2026</time>');
  });
});
