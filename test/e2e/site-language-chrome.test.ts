// Spec D.1, "each on its own": an article in one language on a site in another keeps the
// site's words (labels, dates, counts, headings of the sections around it) in the site's
// language and direction, and its own text in its own. A date or label that took the
// article's direction was drawn out of order ("1 نوفمبر 2026" read as "نوفمبر 2026 1").
// Checked over every text node of the page, so a new label anywhere falls under it.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { blogForFile, screenshot } from '../helpers/browser.ts';
import type { BlogServer } from '../fixtures/blog/helpers.ts';

const en = (title: string, date: string, tags: string, body: string, extra = '') => `---\ntitle: ${title}\npublish: true\ndate: ${date}\ntags: [${tags}]\n${extra}---\n${body}\n`;
const sections = '## First part\n\nWords.\n\n## Second part\n\nMore words.\n\n## Third part\n\nThe end.';

const files = {
  'Posts/Gardens.md': en('Notes on gardens', '2026-11-01', 'gardens, writing', `Gardens grow. See [[Paths]].\n\n${sections}`, 'twin: "[[ملاحظات عن الحدائق]]"\n'),
  'Posts/Paths.md': en('Garden paths', '2026-11-02', 'gardens', 'A path through [[Gardens]] and its beds.'),
  'Posts/Older.md': en('An older post', '2026-10-01', 'writing', 'Before [[Gardens]] there was this.'),
  'Posts/ملاحظات عن الحدائق.md': en('ملاحظات عن الحدائق', '2026-11-01', 'حدائق, كتابة', `تنمو الحدائق. انظر [[ممرات]].\n\n## الجزء الأول\n\nكلمات.\n\n## الجزء الثاني\n\nكلمات أخرى.\n\n## الجزء الثالث\n\nالنهاية.`, 'twin: "[[Gardens]]"\n'),
  'Posts/ممرات.md': en('ممرات الحديقة', '2026-11-02', 'حدائق', 'ممر عبر [[ملاحظات عن الحدائق]] وأحواضها.'),
  'Posts/أقدم.md': en('تدوينة أقدم', '2026-10-01', 'كتابة', 'قبل [[ملاحظات عن الحدائق]] كانت هذه.'),
};

const arabicSite = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', SITE_LANG: 'ar', SITE_NAME: 'حديقتي' }, files });
const englishSite = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'default', SITE_NAME: 'My garden' }, files });

/**
 * Text nodes in only the site's script whose drawn direction or language is not the site's:
 * `[text, direction, lang]`. The notes hold no word of the other script, so every such node
 * is the site's own words (or a title in the site's language, which takes it too).
 */
async function strayLabels(page: Page, site: 'ar' | 'en'): Promise<[string, string, string][]> {
  return page.evaluate((lang) => {
    const arabic = /[\u0600-\u06ff]/;
    const latin = /[A-Za-z]/;
    const out: [string, string, string][] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent!.trim();
      const parent = node.parentElement!;
      // Folder names in the breadcrumbs are the vault's words, as titles are, not the site's.
      if (!text || parent.closest('script, style, noscript, template, code, pre, .s-breadcrumbs')) continue;
      const ours = lang === 'ar' ? arabic.test(text) && !latin.test(text) : latin.test(text) && !arabic.test(text);
      if (!ours) continue;
      const direction = getComputedStyle(parent).direction;
      const tagged = parent.closest('[lang]')?.getAttribute('lang') ?? '';
      if (direction !== (lang === 'ar' ? 'rtl' : 'ltr') || tagged !== lang) out.push([text, direction, tagged]);
    }
    return out;
  }, site);
}

async function open(site: { blog: BlogServer; browser: Browser }, route: string, width = 1000, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const page = await site.browser.newPage({ viewport: { width, height: 900 }, colorScheme });
  await page.goto(site.blog.url + route);
  return page;
}

describe("the site's words around an article in another language", () => {
  it("an English article and cards on an Arabic site: the twin's line, the dates, the sections' headings are Arabic, right to left", async () => {
    for (const route of ['/', '/Posts/Gardens', '/topic/gardens']) {
      const page = await open(arabicSite, route);
      expect(await page.locator('.s-article, .s-cards').count(), route).toBeGreaterThan(0);
      expect(await strayLabels(page, 'ar'), route).toEqual([]);
      await page.close();
    }
  });

  it("an Arabic article on an English site: the twin's line, Linked from, Related, Contents and the graph's heading are English, left to right", async () => {
    for (const route of ['/', '/Posts/' + encodeURIComponent('ملاحظات عن الحدائق')]) {
      const page = await open(englishSite, route);
      expect(await strayLabels(page, 'en'), route).toEqual([]);
      await page.close();
    }
  });

  it('the article keeps its own language and direction for its own text', async () => {
    const page = await open(arabicSite, '/Posts/Gardens');
    expect(await page.locator('article.s-article').getAttribute('dir')).toBe('ltr');
    expect(await page.locator('.s-article-body p').first().evaluate((p) => getComputedStyle(p).direction)).toBe('ltr');
    // The head's lines in the site's language sit on the article's side, as its title does.
    const left = async (selector: string) => page.locator(selector).evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return Math.round(range.getBoundingClientRect().left);
    });
    expect(await left('.s-twin')).toBe(await left('.s-title'));
    expect(await left('.s-meta')).toBe(await left('.s-title'));
    for (const [name, width, scheme] of [['light', 1000, 'light'], ['dark', 1000, 'dark'], ['360', 360, 'light']] as const) {
      const shot = await open(arabicSite, '/Posts/Gardens', width, scheme);
      await screenshot(shot, `site-language-chrome-ar-site-en-article-${name}`);
      await shot.close();
    }
    await page.close();
  });
});
