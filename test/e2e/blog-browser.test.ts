// spec D.1, D.4, D.6 in a real browser (Debian chromium via playwright-core):
// the topic row folds and collapses, hover previews show the target's opening,
// the ✦ button appears and scrolls to the top, an Arabic article is RTL inside
// an English frame. Screenshots land in test-artifacts/.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blogForFile, screenshot } from '../helpers/browser.ts';
import { layoutReadsOnOpen } from '../helpers/layout-reads.ts';
import { TOPIC_ROW_MAX } from '../../site/plan/plan-outputs.ts';


// Thirty topics: far more than one line holds at 1000 px.
const topicNotes: Record<string, string> = {};
for (let i = 0; i < 30; i++) {
  topicNotes[`Topics-demo/Topic note ${i}.md`] = `---\ntitle: Topic note ${i}\npublish: true\ndate: 2024-01-${String((i % 28) + 1).padStart(2, '0')}\ntags: [subject-number-${i}]\n---\nFiller ${i}.\n`;
}
const longBody = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} of a long article, long enough to scroll well past one screen of text.`).join('\n\n');

const { blog, browser } = blogForFile({
  env: { PUBLIC_LAYOUT: 'blog', SITE_NAME: 'Browser Blog' },
  files: {
    ...topicNotes,
    'Posts/Long read.md': `---\ntitle: Long read\npublish: true\ndate: 2026-12-01\n---\n${longBody}\n`,
    // A note that gives a link to an attachment the classes previews look for (a reviewer's find).
    'Posts/Forged.md': `---\ntitle: Forged\npublish: true\ndate: 2026-11-30\n---\nSee [[readme.txt]] and [[Second]].\n\n<a class="s-wikilink" href="/att/readme.txt">forged link</a>\n`,
    // An English post quoting Arabic (shared/note/block-direction.ts).
    'Posts/Mixed.md': `---\ntitle: Mixed\npublish: true\ndate: 2026-11-29\n---\nWhat the meetup in Cairo asked for, in the words people used, with a few notes of our own on each point and what we plan to do about it next spring:\n\nالنشر من المخزن مباشرة يوفر الوقت، ولا حاجة لنسخ الملاحظات إلى مكان آخر.\n\n- Search that understands Arabic, its letters and its definite article\n- دعم الكتابة من اليمين إلى اليسار في كل مكان، حتى في القوائم الطويلة\n\n$x$ هي القيمة التي نبحث عنها.\n\n$$x^2 + y^2 = z^2$$ وهذه معادلة فيثاغورس.\n\n1. ابعت العنوان (\`int **\`).\n\n2. البند الثاني\n\n> [!note] ملاحظة مهمة\n> نص الملاحظة\n\nWe closed the evening with a long discussion in English about themes, fonts and the way right-to-left pages should look on small phones, and agreed to meet again.\n`,
    // Links to a heading's section and to a block (Obsidian's page preview shows that part).
    'Posts/Parts.md': `---\ntitle: Parts\npublish: true\ndate: 2026-11-28\n---\nThe opening of Parts.\n\n## Why it matters\n\nBecause of the section.\n\n### A detail\n\nStill the section.\n\n## Later\n\nNot in the section.\n\n- first item\n- the defined item ^def\n`,
    'Posts/Pointer.md': `---\ntitle: Pointer\npublish: true\ndate: 2026-11-27\n---\nSee [[Parts#Why it matters|why]] and [[Parts#^def|the definition]] and [[Parts#Nowhere|nowhere]].\n`,
    'att/readme.txt': '<article class="s-article"><div class="s-article-body"><p>PHISH text</p><meta http-equiv="refresh" content="0;url=/phished"><img src="/nothing.png" onerror="window.ran=1"></div></article>',
  },
});

async function open(route: string, width: number, height = 800, options: { reducedMotion?: 'reduce' | 'no-preference' } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, reducedMotion: options.reducedMotion ?? 'no-preference' });
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[browser error] ${err.message}\n`));
  await page.goto(blog.url + route);
  await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
  return page;
}

describe('spec D.4: the topic row', () => {
  it('at 1000 px keeps what fits on one line and folds the rest into More', async () => {
    const page = await open('/', 1000);
    const state = await page.evaluate(() => {
      const row = document.querySelector<HTMLElement>('.s-topics-row')!;
      const more = document.querySelector<HTMLDetailsElement>('.s-more')!;
      return {
        inRow: row.querySelectorAll('.s-topic-list li').length,
        inMore: more.querySelectorAll('.s-more-list li').length,
        lastInMore: more.querySelector('.s-more-list li:last-child a')?.getAttribute('href'),
        moreHidden: more.hidden,
        fits: row.scrollWidth <= row.clientWidth && document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        oneLine: new Set([...row.querySelectorAll('.s-chip')].map((c) => Math.round(c.getBoundingClientRect().top))).size === 1,
      };
    });
    expect(state.inRow).toBeGreaterThan(2);
    expect(state.inMore).toBeGreaterThan(5);
    // 36 topics: the busiest TOPIC_ROW_MAX, then the link to all of them, folded first.
    expect(state.inRow + state.inMore).toBe(TOPIC_ROW_MAX + 1);
    expect(state.lastInMore).toBe('/search#s-browse-topics');
    expect(state.moreHidden).toBe(false);
    expect(state.fits).toBe(true);
    expect(state.oneLine).toBe(true);
    await page.locator('.s-more > summary').click();
    await expect.poll(() => page.locator('.s-more-list').isVisible()).toBe(true);
    await screenshot(page, 'blog-topic-row-1000');
    await page.context().close();
  });

  it('below about 840 px every topic moves into the collapsed menu', async () => {
    const page = await open('/', 800);
    const state = await page.evaluate(() => ({
      inRow: document.querySelectorAll('.s-topics-row .s-topic-list li').length,
      inMore: document.querySelectorAll('.s-more-list li').length,
      homeVisible: !!document.querySelector('.s-topics-row .s-home'),
    }));
    expect(state).toEqual({ inRow: 0, inMore: TOPIC_ROW_MAX + 1, homeVisible: true });
    await screenshot(page, 'blog-topic-row-800');
    // Growing the window brings topics back into the row.
    await page.setViewportSize({ width: 1200, height: 800 });
    await expect.poll(() => page.evaluate(() => document.querySelectorAll('.s-topics-row .s-topic-list li').length)).toBeGreaterThan(2);
    await page.context().close();
  });

  it('folded on a phone, it stays put: a resize within the narrow range moves no topic', async () => {
    const page = await open('/', 412);
    await page.evaluate(() => {
      const w = window as unknown as { moves: number; settled: Promise<void> };
      w.moves = 0;
      const observer = new MutationObserver((records) => records.forEach((r) => (w.moves += r.addedNodes.length)));
      document.querySelectorAll('.s-topic-list, .s-more-list').forEach((list) => observer.observe(list, { childList: true }));
      // The row answers a resize in the frame after its observer fires: three frames on, it has.
      const frames = (n: number, done: () => void): void => void requestAnimationFrame(() => (n > 1 ? frames(n - 1, done) : done()));
      w.settled = new Promise((resolve) => window.addEventListener('resize', () => frames(3, resolve), { once: true }));
    });
    await page.setViewportSize({ width: 360, height: 800 });
    const after = await page.evaluate(async () => {
      const w = window as unknown as { moves: number; settled: Promise<void> };
      await w.settled;
      return { moves: w.moves, inMore: document.querySelectorAll('.s-more-list li').length };
    });
    expect(after).toEqual({ moves: 0, inMore: TOPIC_ROW_MAX + 1 });
    await page.context().close();
  });
});

describe('spec D.6: hover previews', () => {
  it('resting on a post link shows a card with the note’s opening as its article renders it', async () => {
    const page = await open('/', 1200, 900);
    const link = page.locator('.s-cards a.s-post-link', { hasText: 'First post' });
    await link.scrollIntoViewIfNeeded();
    await link.hover();
    const card = page.locator('.s-preview');
    await card.waitFor({ state: 'visible' });
    await expect.poll(() => card.textContent()).toContain('The first post opens with this paragraph');
    // Rendered as the article renders it: the wikilink is a link, the heading a heading.
    expect(await card.locator('a.s-wikilink').getAttribute('href')).toBe('/Posts/Second');
    expect(await card.locator('h2').textContent()).toBe('A heading');
    await screenshot(page, 'blog-preview');
    // The card stays while the pointer moves into it.
    await card.hover();
    await page.waitForTimeout(500);
    expect(await card.isVisible()).toBe(true);
    // …and goes when the pointer leaves both.
    await page.mouse.move(5, 5);
    await card.waitFor({ state: 'detached' });
    await page.context().close();
  });

  it("a link to a heading or a block shows that part, as Obsidian's page preview does; a heading not there shows the opening", async () => {
    const page = await open('/Posts/Pointer', 1200, 900);
    const card = page.locator('.s-preview');
    const previewOf = async (text: string) => {
      await page.mouse.move(5, 5);
      await card.waitFor({ state: 'detached' }).catch(() => {});
      await page.locator('.s-article-body a.s-wikilink', { hasText: text }).hover();
      await card.waitFor({ state: 'visible' });
      return card.locator('.s-article-body').innerText();
    };
    const section = await previewOf('why');
    expect(section).toMatch(/^Why it matters\s+Because of the section\.\s+A detail\s+Still the section\.$/);
    expect(await previewOf('the definition')).toBe('the defined item');
    expect(await card.locator('ul > li').count()).toBe(1);
    expect(await previewOf('nowhere')).toMatch(/^The opening of Parts\./);
    await page.context().close();
  });

  it('a link a note dressed as a wikilink to an attachment gets no preview; nothing of the attachment joins the page', async () => {
    const page = await open('/Posts/Forged', 1200, 900);
    // The positive signal: the preview asked for the attachment (it answered 200).
    const fetched = page.waitForResponse((r) => r.url().endsWith('/att/readme.txt'));
    await page.locator('a', { hasText: 'forged link' }).hover();
    expect((await fetched).status()).toBe(200);
    await page.waitForTimeout(500);
    expect(await page.locator('.s-preview', { hasText: 'PHISH' }).count()).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('meta[http-equiv], img[onerror]').length)).toBe(0);
    expect(new URL(page.url()).pathname).toBe('/Posts/Forged');
    // A real wikilink on the same page still shows its card.
    await page.locator('.s-article-body a.s-wikilink[href="/Posts/Second"]').first().hover();
    const card = page.locator('.s-preview');
    await card.waitFor({ state: 'visible' });
    expect(await card.textContent()).not.toContain('PHISH');
    await page.context().close();
  });

  it('near the bottom of the window the card flips above the link', async () => {
    const page = await open('/', 1200, 700);
    const link = page.locator('.s-cards a.s-post-link', { hasText: 'Paris in spring' });
    await link.evaluate((el) => {
      const r = el.getBoundingClientRect();
      window.scrollBy(0, r.bottom - window.innerHeight + 30);
    });
    await link.hover();
    const card = page.locator('.s-preview');
    await card.waitFor({ state: 'visible' });
    const [cardBox, linkBox] = [await card.boundingBox(), await link.boundingBox()];
    expect(cardBox!.y + cardBox!.height).toBeLessThanOrEqual(linkBox!.y + 1);
    expect(await card.getAttribute('class')).toContain('s-above');
    await page.context().close();
  });

  it('keyboard focus shows it too; reduced motion shows none', async () => {
    const page = await open('/Posts/First-post', 1200);
    await page.locator('.s-related a.s-post-link').focus();
    await page.locator('.s-preview').waitFor({ state: 'visible' });
    await page.context().close();
    const calm = await open('/', 1200, 900, { reducedMotion: 'reduce' });
    await calm.locator('.s-cards a.s-post-link').first().hover();
    await calm.waitForTimeout(800);
    expect(await calm.locator('.s-preview').count()).toBe(0);
    await calm.context().close();
  });
});

describe('spec D.6: back to top', () => {
  it('appears after a screen of scrolling at the line-end corner and scrolls to the top', async () => {
    const page = await open('/Posts/Long-read', 1000, 700);
    const button = page.locator('.s-top');
    expect(await button.evaluate((b) => b.classList.contains('s-visible'))).toBe(false);
    await page.mouse.wheel(0, 1400);
    await expect.poll(() => button.evaluate((b) => b.classList.contains('s-visible'))).toBe(true);
    const box = (await button.boundingBox())!;
    expect(box.x).toBeGreaterThan(1000 / 2); // bottom-right in an English frame
    await screenshot(page, 'blog-back-to-top');
    await button.click();
    await expect.poll(() => page.evaluate(() => window.scrollY), { timeout: 5000 }).toBe(0);
    await page.context().close();
  });

  it('lifts itself clear of the footer', async () => {
    const page = await open('/Posts/Long-read', 1000, 700);
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    const button = page.locator('.s-top');
    await expect.poll(() => button.evaluate((b) => b.classList.contains('s-visible'))).toBe(true);
    await expect
      .poll(async () => {
        const [b, f] = [await button.boundingBox(), await page.locator('.s-footer').boundingBox()];
        return b!.y + b!.height <= f!.y;
      })
      .toBe(true);
    await page.context().close();
  });
});

describe('the page\'s scripts start without laying the page out', () => {
  it('the home page, a long article and one with a table of contents, on a phone and a desktop: no reading of the layout while the script runs', async () => {
    for (const route of ['/', '/Posts/Long-read', '/Posts/Parts']) {
      for (const width of [360, 1280]) {
        const { during, page } = await layoutReadsOnOpen(browser, blog.url + route, width);
        expect(during, `${route} at ${width} px`).toEqual([]);
        await page.context().close();
      }
    }
  });
});

describe('spec D.1: direction', () => {
  it('an Arabic article is right-to-left inside an English frame', async () => {
    const page = await open('/Twins/' + encodeURIComponent('مرحبا'), 1000);
    const dirs = await page.evaluate(() => ({
      frame: getComputedStyle(document.documentElement).direction,
      article: getComputedStyle(document.querySelector('.s-article')!).direction,
      bodyAlign: getComputedStyle(document.querySelector('.s-article-body p')!).direction,
      masthead: getComputedStyle(document.querySelector('.s-masthead')!).direction,
    }));
    expect(dirs).toEqual({ frame: 'ltr', article: 'rtl', bodyAlign: 'rtl', masthead: 'ltr' });
    await screenshot(page, 'blog-arabic-article');
    await page.context().close();
  });

  it('an Arabic paragraph and list item in an English article read right to left, their markers on the page at 360 px', async () => {
    const page = await open('/Posts/Mixed', 360);
    const seen = await page.evaluate(() => {
      const dir = (el: Element | null) => (el ? getComputedStyle(el).direction : null);
      const [english, arabic, inlineMath, displayMath] = document.querySelectorAll('.s-article-body > p');
      const items = document.querySelectorAll('.s-article-body > ul > li');
      const loose = document.querySelectorAll('.s-article-body > ol > li');
      return {
        article: dir(document.querySelector('.s-article')),
        english: dir(english!),
        arabic: dir(arabic!),
        items: [...items].map(dir),
        math: [dir(inlineMath!), dir(displayMath!)],
        loose: [...loose].map(dir),
        code: dir(document.querySelector('.s-article-body ol code')),
        calloutTitle: dir(document.querySelector('.s-article-body .callout-title-inner')),
        overflow: document.documentElement.scrollWidth - window.innerWidth,
      };
    });
    // A paragraph opening with a formula takes its direction from its words, not the formula's letters;
    // a loose list's items, not their paragraphs, take theirs (the numbers on the right); code stays left to right.
    expect(seen).toEqual({ article: 'ltr', english: 'ltr', arabic: 'rtl', items: ['ltr', 'rtl'], math: ['rtl', 'rtl'], loose: ['rtl', 'rtl'], code: 'ltr', calloutTitle: 'rtl', overflow: 0 });
    await screenshot(page, 'blog-mixed-directions-360');
    await page.context().close();
  });
});
