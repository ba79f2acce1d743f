// CONTRACT §7 in a real browser (Debian chromium): callouts carry their type's colour
// and icon in light and dark, fold and open, read right to left in Arabic; math is
// typeset with KaTeX's own fonts from the server's HTML; mermaid draws the diagram
// under the page's Content-Security-Policy, in the reader's colour scheme; a hover
// preview of a math page brings KaTeX's stylesheet along. The README's screenshots of
// a callout-rich, math and mermaid article come from here (UPDATE_SCREENSHOTS=1). An
// embedded PDF loads in its frame under the page's policy.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blogForFile, pageProblems, screenshot } from '../helpers/browser.ts';

const VAULT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/obsidian/vault');


const { blog, browser } = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog', SITE_NAME: 'Field Notes', EXCLUDE_TAGS: 'hidden-inline' },
  beforeStart: async (vault) => {
    await fs.cp(VAULT, vault, { recursive: true });
    // A page without math that links to one, for the hover preview.
    await fs.writeFile(path.join(vault, 'Rows', 'Links to math.md'), '---\npublish: true\ndate: 2026-01-01\n---\nSee [[Math]] for the formulas.\n');
    // Math in an Arabic sentence, and a note whose "Linked from" quotes it.
    await fs.writeFile(path.join(vault, 'Rows', 'Energy.md'), '---\npublish: true\ndate: 2026-01-02\nlang: ar\n---\nالطاقة $E=mc^2$ تأتي من [[Mass]] عند السكون.\n');
    await fs.writeFile(path.join(vault, 'Rows', 'Mass.md'), '---\npublish: true\ndate: 2026-01-03\n---\nWhat resists a push.\n');
  },
}, (site) => site.waitForPage('/Showcase', (p) => p.status === 200, 60_000));

interface Opened {
  page: Page;
  /** Content-Security-Policy refusals and script errors seen so far. */
  problems: string[];
}

async function open(
  route: string,
  colorScheme: 'light' | 'dark' = 'light',
  viewport = { width: 1000, height: 900 },
  reducedMotion: 'reduce' | 'no-preference' = 'reduce',
): Promise<Opened> {
  const context = await browser.newContext({ viewport, colorScheme, reducedMotion });
  const page = await context.newPage();
  const problems = pageProblems(page);
  await page.goto(blog.url + route);
  await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
  return { page, problems };
}

/** Each callout's type, border colour and icon as the browser computed them. */
async function calloutLooks(page: Page): Promise<{ type: string; border: string; icon: string; inlineStart: number }[]> {
  return page.$$eval('.callout', (els) =>
    els.map((el) => {
      const style = getComputedStyle(el);
      const icon = getComputedStyle(el.querySelector('.callout-icon')!);
      const rtl = style.direction === 'rtl';
      return {
        type: el.getAttribute('data-callout')!,
        border: rtl ? style.borderRightColor : style.borderLeftColor,
        icon: icon.maskImage || icon.webkitMaskImage,
        inlineStart: parseFloat(rtl ? style.borderRightWidth : style.borderLeftWidth),
      };
    }),
  );
}

describe('callouts', () => {
  it('each type has its colour and icon; aliases share their type’s; unknown types look like a note', async () => {
    const { page } = await open('/Rows/Callouts');
    const looks = new Map((await calloutLooks(page)).map((l) => [l.type, l]));
    const same = (a: string, b: string) => expect(looks.get(a)!.border, `${a} ~ ${b}`).toBe(looks.get(b)!.border);
    same('faq', 'question');
    same('caution', 'warning');
    same('error', 'danger');
    same('tldr', 'abstract');
    same('custom-kind', 'note');
    const kinds = ['note', 'abstract', 'success', 'question', 'failure', 'example', 'quote'];
    expect(new Set(kinds.map((k) => looks.get(k)!.border)).size).toBe(kinds.length);
    expect(new Set(['note', 'warning', 'bug', 'quote'].map((k) => looks.get(k)!.icon)).size).toBe(4);
    for (const look of looks.values()) expect(look.icon, look.type).toMatch(/^url\("data:image\/svg\+xml/);
  });

  it('dark mode gives them colours of their own', async () => {
    const light = new Map((await calloutLooks((await open('/Rows/Callouts')).page)).map((l) => [l.type, l.border]));
    const dark = new Map((await calloutLooks((await open('/Rows/Callouts', 'dark')).page)).map((l) => [l.type, l.border]));
    expect(dark.get('warning')).not.toBe(light.get('warning'));
    expect(dark.get('note')).not.toBe(light.get('note'));
    // Unknown types look like a note in dark mode too.
    expect(dark.get('custom-kind')).toBe(dark.get('note'));
  });

  it('every title reads at 4.5:1 on its own background, light and dark (WCAG AA, as Lighthouse checks)', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page } = await open('/Rows/Callouts', scheme);
      const ratios = await page.$$eval('.callout', (els) => {
        // The computed colours: rgb()/rgba(), or color(srgb …) for a color-mix().
        const parse = (c: string): number[] => {
          const srgb = /^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)(?: \/ ([\d.]+))?\)$/.exec(c);
          if (srgb) return [+srgb[1]! * 255, +srgb[2]! * 255, +srgb[3]! * 255, srgb[4] === undefined ? 1 : +srgb[4]];
          const [r, g, b, a = 1] = c.match(/[\d.]+/g)!.map(Number);
          return [r!, g!, b!, a];
        };
        const over = (top: number[], under: number[]) => top.slice(0, 3).map((v, i) => v * top[3]! + under[i]! * (1 - top[3]!));
        const luminance = (rgb: number[]) => {
          const [r, g, b] = rgb.map((v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4));
          return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
        };
        const page = parse(getComputedStyle(document.body).backgroundColor);
        return els.map((el) => {
          const background = over(parse(getComputedStyle(el).backgroundColor), page);
          const text = over(parse(getComputedStyle(el.querySelector('.callout-title')!).color), background);
          const [hi, lo] = [luminance(text), luminance(background)].sort((a, b) => b - a);
          return [el.getAttribute('data-callout'), Math.round(((hi! + 0.05) / (lo! + 0.05)) * 100) / 100] as const;
        });
      });
      expect(ratios.length).toBeGreaterThan(20);
      for (const [type, ratio] of ratios) expect(ratio, `${scheme} ${type}`).toBeGreaterThanOrEqual(4.5);
    }
  });

  it('- folds closed, a click opens it; + starts open', async () => {
    const { page } = await open('/Rows/Callouts');
    const folded = page.locator('details.callout[data-callout="question"]');
    expect(await folded.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await folded.locator('.callout-content').isVisible()).toBe(false);
    await folded.locator('summary').click();
    expect(await folded.locator('.callout-content').isVisible()).toBe(true);
    expect(await page.locator('details.callout[data-callout="faq"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
  });

  it('an Arabic callout reads right to left, its border on the right', async () => {
    const { page } = await open('/Rows/Callouts-in-Arabic');
    const looks = await calloutLooks(page);
    expect(looks.length).toBe(2);
    for (const look of looks) expect(look.inlineStart).toBeGreaterThan(0);
    const box = await page.locator('.callout').first().evaluate((el) => ({ right: getComputedStyle(el).borderRightWidth, left: getComputedStyle(el).borderLeftWidth }));
    expect(parseFloat(box.right)).toBeGreaterThan(0);
    expect(parseFloat(box.left)).toBe(0);
  });
});

describe('task lists', () => {
  it('each box is named by its task, so a screen reader says which task is done', async () => {
    const { page } = await open('/Rows/Tasks');
    const done = page.getByRole('checkbox', { name: 'a done task' });
    expect(await done.isChecked()).toBe(true);
    expect(await done.isDisabled()).toBe(true);
    expect(await page.getByRole('checkbox', { name: 'an open task' }).isChecked()).toBe(false);
    // A plain item among tasks keeps its bullet (a meeting note's "- note" between "- [ ] action"s); a task shows its box alone.
    const markers = await page.locator('.s-article-body li').evaluateAll((items) => items.map((li) => [li.textContent?.trim(), getComputedStyle(li).listStyleType]));
    expect(markers).toEqual([['an open task', 'none'], ['a done task', 'none'], ['a question', 'none'], ['a plain note between tasks', 'disc']]);
    // Only `[x]` reads as done (struck through, muted); `[?]` keeps its words as an open task's.
    const looks = await page.locator('.s-article-body li.task-list-item').evaluateAll((items) => items.map((li) => [getComputedStyle(li).textDecorationLine, getComputedStyle(li).color]));
    expect(looks[1]![0]).toBe('line-through');
    expect(looks[2]![0]).toBe('none');
    expect(looks[2]![1]).toBe(looks[0]![1]);
    expect(looks[1]![1]).not.toBe(looks[0]![1]);
  });
});

describe('math and diagrams', () => {
  it('math is typeset from the server’s HTML with KaTeX’s fonts; nothing of TeX shows', async () => {
    const { page, problems } = await open('/Rows/Math');
    await page.evaluate(() => document.fonts.ready);
    const state = await page.evaluate(() => ({
      fonts: document.fonts.check('16px KaTeX_Main'),
      mathmlHidden: getComputedStyle(document.querySelector('.katex-mathml')!).position === 'absolute',
      text: (document.querySelector('.s-article-body') as HTMLElement).innerText,
    }));
    expect(state.fonts).toBe(true);
    expect(state.mathmlHidden).toBe(true);
    expect(state.text).not.toContain('\\frac');
    expect(state.text).not.toContain('$');
    expect(problems).toEqual([]);
  });

  it('mermaid draws the diagram under the page’s CSP, and again in the other colour scheme', async () => {
    const { page, problems } = await open('/Rows/Diagrams');
    await page.waitForFunction(() => document.querySelector('pre.mermaid svg') !== null && document.documentElement.dataset.diagrams === 'light', null, { timeout: 30_000 });
    const lightFill = await page.locator('pre.mermaid svg .node rect, pre.mermaid svg .node polygon').first().evaluate((n) => getComputedStyle(n).fill);
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.diagrams === 'dark' && document.querySelector('pre.mermaid svg') !== null, null, { timeout: 30_000 });
    const darkFill = await page.locator('pre.mermaid svg .node rect, pre.mermaid svg .node polygon').first().evaluate((n) => getComputedStyle(n).fill);
    expect(darkFill).not.toBe(lightFill);
    expect(await page.locator('pre.mermaid svg').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('code reads as in Obsidian: a tab four columns wide, a long line wrapped, on a phone too', async () => {
    for (const width of [1280, 360]) {
      const { page } = await open('/Rows/Code-lines', 'light', { width, height: 900 });
      // Where each `fmt` of the two lines is drawn: the tab's line and the four spaces' line.
      const [tab, four] = await page.locator('.s-article-body pre code.language-go').evaluate((code) => {
        const xs: number[] = [];
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode() as Text | null; n; n = walker.nextNode() as Text | null) {
          for (let i = n.data.indexOf('fmt'); i >= 0; i = n.data.indexOf('fmt', i + 1)) {
            const range = document.createRange();
            range.setStart(n, i);
            range.setEnd(n, i + 1);
            xs.push(range.getBoundingClientRect().x);
          }
        }
        return xs;
      });
      expect(tab).toBeGreaterThan(0);
      // Within half a column (a tab of eight columns was four columns, about 38 px, further in).
      expect(Math.abs(tab - four)).toBeLessThan(5);
      const long = await page.locator('.s-article-body pre:has(code.language-sh)').evaluate((pre) => [pre.scrollWidth, pre.clientWidth]);
      expect(long[0]).toBeLessThanOrEqual(long[1]);
      await page.context().close();
    }
  });

  it('a mermaid node given the class internal-link leads to the note its text names, as in Obsidian; an unpublished one leads nowhere', async () => {
    const { page, problems } = await open('/Rows/Linked-diagram');
    await page.waitForFunction(() => document.querySelector('pre.mermaid svg') !== null && document.documentElement.dataset.diagrams === 'light', null, { timeout: 30_000 });
    const nodes = await page.locator('pre.mermaid svg g.node').evaluateAll((all) => all.map((n) => [n.textContent?.trim(), n.parentElement?.tagName === 'a' ? n.parentElement.getAttribute('href') : null]));
    expect(nodes.sort()).toEqual([['Math', '/Rows/Math'], ['Nowhere at all', null], ['Secret draft', null]]);
    await page.locator('pre.mermaid svg a g.node').click();
    await page.waitForURL(/\/Rows\/Math$/);
    expect(problems).toEqual([]);
  });

  it('math reads left to right in a right-to-left sentence: the article and a backlink quoting it draw E = mc² as written', async () => {
    /** Whether `E` is drawn left of `=` in each piece of math `selector` finds. */
    const written = (page: Page, selector: string) =>
      page.locator(selector).evaluateAll((all) =>
        all.map((k) => {
          const [e, eq] = [k.querySelector('.katex-html .mord.mathnormal')!, k.querySelector('.katex-html .mrel')!];
          return { direction: getComputedStyle(k).direction, leftToRight: e.getBoundingClientRect().x < eq.getBoundingClientRect().x };
        }),
      );
    const article = await open('/Rows/Energy');
    expect(await written(article.page, '.s-article-body .katex')).toEqual([{ direction: 'ltr', leftToRight: true }]);
    const backlinked = await open('/Rows/Mass');
    expect(await written(backlinked.page, '.s-backlink-snippet .katex')).toEqual([{ direction: 'ltr', leftToRight: true }]);
    expect(await backlinked.page.locator('link[data-katex]').count()).toBe(1);
    await screenshot(backlinked.page, 'backlink-math-arabic');
  });

  it('a hover preview of a page with math brings KaTeX’s stylesheet to a page without it', async () => {
    // (Previews are off under reduced motion.)
    const { page } = await open('/Rows/Links-to-math', 'light', undefined, 'no-preference');
    expect(await page.locator('link[data-katex]').count()).toBe(0);
    // A slow stylesheet: the preview waits for it rather than show the math unstyled, doubled by its MathML.
    await page.route(/katex[^/]*\.css$/, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.continue();
    });
    // Text set in a late font moves: the link could leave the pointer, and the preview with it.
    await page.evaluate(() => document.fonts.ready);
    await page.locator('.s-article-body a.s-wikilink').hover();
    await page.locator('.s-preview .katex').first().waitFor({ timeout: 10_000 });
    expect(await page.locator('link[data-katex]').count()).toBe(1);
    expect(await page.locator('.s-preview .katex-mathml').first().evaluate((el) => getComputedStyle(el).position)).toBe('absolute');
  });
});

describe('PDF embeds', () => {
  it('![[manual.pdf]] loads the file in its frame under the page’s CSP (an http site frames its own origin), a screen high at most', async () => {
    // Listening before the page loads: a lazy frame near the top loads with the page itself.
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 }, colorScheme: 'light', reducedMotion: 'reduce' });
    const page = await context.newPage();
    const problems = pageProblems(page);
    const loaded = page.waitForResponse((r) => new URL(r.url()).pathname === '/Files/manual.pdf' && r.request().frame() !== page.mainFrame(), { timeout: 15_000 });
    await page.goto(blog.url + '/Rows/Pdf-embeds');
    const frame = page.locator('iframe.s-pdf-frame').first();
    await frame.scrollIntoViewIfNeeded();
    const response = await loaded;
    expect(response.status()).toBe(200);
    // The frame asked for it (a frame-src the CSP refused would ask nothing). What shows it is the
    // browser's: a PDF viewer, or a download in the headless build; its headers are the integration test's.
    expect(response.request().frame().parentFrame()).toBe(page.mainFrame());
    // 80vh of a 900 px window, under the 900 px cap.
    expect(Math.round((await frame.boundingBox())!.height)).toBe(720);
    expect(problems).toEqual([]);
  });
});

describe('README screenshots', () => {
  it('a callout-rich article with math and a diagram, light and dark', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const { page, problems } = await open('/Showcase', scheme, { width: 1000, height: 1900 });
      await page.waitForFunction((s) => document.querySelector('pre.mermaid svg') !== null && document.documentElement.dataset.diagrams === s, scheme, { timeout: 30_000 });
      await page.evaluate(() => document.fonts.ready);
      await page.locator('.s-article').scrollIntoViewIfNeeded();
      await screenshot(page, `obsidian-article-${scheme}`, true);
      expect(problems).toEqual([]);
    }
  });
});
