// CONTRACT §12 in a real browser: the garden's explorer beside the note at desktop widths
// and folded behind its button on a 360 px phone; the table of contents in the margin
// marking the section read as the page scrolls; headings' own links. Screenshots (light,
// dark, 360 px, Arabic) land in test-artifacts/.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blogForFile, drawnOrder, openSitePage, screenshot } from '../helpers/browser.ts';
import { GARDEN_FILES } from '../fixtures/garden/vault.ts';
import { layoutReadsOnOpen } from '../helpers/layout-reads.ts';

const settings = { siteName: 'Garden', homeNote: 'Home' };

const filler = (part: string) => Array.from({ length: 12 }, (_, i) => `${part}, paragraph ${i}: long enough to fill the screen with text a reader scrolls through.`).join('\n\n');
const LONG = `---\npublish: true\ntitle: Long read\n---\n\n${filler('Opening')}\n\n## Part one\n\n${filler('One')}\n\n## Part two\n\n${filler('Two')}\n\n### A detail\n\n${filler('Detail')}\n\n## Part three\n\n${filler('Three')}\n`;

const WHAT_IS_GIT = `---\npublish: true\n---\n\nGit keeps every version.\n`;

const { blog: garden, browser } = blogForFile({ fixture: false, files: { ...GARDEN_FILES, 'Guide/Long read.md': LONG, 'Guide/(Draft) What is Git?.md': WHAT_IS_GIT }, env: { PUBLIC_LAYOUT: 'default' }, settings });

const open = (route: string, width: number, options?: Parameters<typeof openSitePage>[3]) => openSitePage(browser, garden.url + route, width, options);

const current = (page: Page) => page.locator('.s-explorer a[aria-current="page"]');

describe('CONTRACT §12: the explorer at desktop widths', () => {
  it('is shown beside the note without a button, the current note visible in its open folders', async () => {
    const page = await open('/Guide/Advanced/Configure', 1280);
    expect(await page.locator('.s-explorer-toggle').isVisible()).toBe(false);
    expect(await current(page).isVisible()).toBe(true);
    expect(await current(page).textContent()).toBe('Configure');
    const [side, main] = await Promise.all([page.locator('.s-sidebar').boundingBox(), page.locator('.s-main').boundingBox()]);
    expect(side!.x + side!.width).toBeLessThanOrEqual(main!.x + 1);
    // A closed folder opens with a click; its notes lead to their pages.
    expect(await page.locator('.s-explorer a[href="/Reference/API"]').isVisible()).toBe(false);
    await page.locator('details[data-folder="Reference"] > summary').click({ position: { x: 200, y: 8 } });
    await page.locator('.s-explorer a[href="/Reference/API"]').click();
    await page.waitForURL(/\/Reference\/API$/);
    expect(await current(page).textContent()).toBe('API');
    await screenshot(page, 'garden-desktop-light');
    await page.context().close();
  });

  it('keeps the folders the reader opened or closed on the next page; the current note\'s folders stay open', async () => {
    const page = await open('/Guide/Advanced/Configure', 1280);
    // A folder's key is its path, each part encoded as in its anchor.
    const folder = (key: string) => page.locator(`.s-sidebar details[data-folder="${key.replace('/', '%2F')}"]`);
    const isOpen = (key: string) => folder(key).evaluate((d) => (d as HTMLDetailsElement).open);
    expect([await isOpen('Reference'), await isOpen('Loose'), await isOpen('Guide/Advanced')]).toEqual([false, false, true]);
    // Opened with a click beside its name, and with the keyboard; Guide/Advanced closed.
    await folder('Reference').locator(':scope > summary').click({ position: { x: 200, y: 8 } });
    await folder('Loose').locator(':scope > summary').focus();
    await page.keyboard.press('Enter');
    await folder('Guide/Advanced').locator(':scope > summary').click({ position: { x: 200, y: 8 } });
    expect([await isOpen('Reference'), await isOpen('Loose'), await isOpen('Guide/Advanced')]).toEqual([true, true, false]);

    // The next page, in another folder: as the reader left them.
    await page.locator('.s-explorer a[href="/Loose/Stray"]').click();
    await page.waitForURL(/\/Loose\/Stray$/);
    await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
    expect([await isOpen('Reference'), await isOpen('Loose'), await isOpen('Guide/Advanced')]).toEqual([true, true, false]);
    // A note inside the closed folder opens it, whatever was kept.
    await page.goto(garden.url + '/Guide/Advanced/Tuning');
    await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
    expect(await isOpen('Guide/Advanced')).toBe(true);
    expect(await current(page).isVisible()).toBe(true);
    await page.context().close();
  });

  it('works without scripts', async () => {
    const page = await open('/Guide/Install', 1280, { javaScriptEnabled: false });
    expect(await current(page).isVisible()).toBe(true);
    await page.context().close();
  });

  it('reads well in dark mode', async () => {
    const page = await open('/Guide/Install', 1280, { colorScheme: 'dark' });
    const colors = await current(page).evaluate((a) => [getComputedStyle(a).color, getComputedStyle(document.body).backgroundColor]);
    expect(colors[0]).not.toBe(colors[1]);
    await screenshot(page, 'garden-desktop-dark');
    await page.context().close();
  });
});

describe('CONTRACT §12: the explorer on a 360 px phone', () => {
  it('folds behind its button, opens with it, and the page does not scroll sideways', async () => {
    const page = await open('/Guide/Advanced/Configure', 360);
    const toggle = page.locator('.s-explorer-toggle');
    expect(await toggle.isVisible()).toBe(true);
    expect(await current(page).isVisible()).toBe(false);
    await screenshot(page, 'garden-phone-360-closed');
    await toggle.click();
    expect(await current(page).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await screenshot(page, 'garden-phone-360-open');
    await page.context().close();
  });

  it("a breadcrumb of a folder without a folder note leads to the folder's page: its notes listed, the explorer open on it", async () => {
    const page = await open('/Guide/Advanced/Configure', 360);
    await page.locator('.s-breadcrumbs a', { hasText: 'Advanced' }).click();
    await page.waitForURL(/\/Guide\/Advanced$/);
    expect(await page.locator('h1').textContent()).toBe('Advanced');
    expect(await page.locator('.s-folder-page .s-folder-entry a').allTextContents()).toEqual(['Configure', 'Tuning']);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await screenshot(page, 'garden-folder-page-360');
    await page.locator('.s-explorer-toggle').click();
    expect(await current(page).textContent()).toBe('Advanced');
    expect(await current(page).isVisible()).toBe(true);
    await page.context().close();
    for (const colorScheme of ['light', 'dark'] as const) {
      const wide = await open('/Guide/Advanced', 1280, { colorScheme });
      expect(await current(wide).isVisible()).toBe(true);
      await screenshot(wide, `garden-folder-page-desktop-${colorScheme}`);
      await wide.context().close();
    }
  });
});

describe('CONTRACT §12: the table of contents and the headings\' links', () => {
  const active = (page: Page) => page.locator('.s-toc a[aria-current="location"]').textContent();

  it('sits in the margin at desktop widths and marks the section read as the page scrolls', async () => {
    const page = await open('/Guide/Long-read', 1280);
    const toc = page.locator('.s-toc');
    expect(await toc.isVisible()).toBe(true);
    expect(await page.locator('.s-toc-toggle').isVisible()).toBe(false);
    const [nav, body] = await Promise.all([toc.boundingBox(), page.locator('.s-article-body').boundingBox()]);
    expect(nav!.x).toBeGreaterThanOrEqual(body!.x + body!.width);
    for (const [id, text] of [['part-two', 'Part two'], ['a-detail', 'A detail'], ['part-one', 'Part one']] as const) {
      await page.evaluate((id) => window.scrollTo(0, document.getElementById(id)!.getBoundingClientRect().top + window.scrollY - 40), id);
      await page.waitForFunction((text) => document.querySelector('.s-toc a[aria-current="location"]')?.textContent === text, text);
      expect(await active(page)).toBe(text);
      // The contents stay in view beside the text as it scrolls.
      const box = (await toc.boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(0);
      expect(box.y + box.height).toBeLessThanOrEqual(800);
    }
    expect(await page.locator('.s-toc a[aria-current]').count()).toBe(1);
    await page.evaluate(() => window.scrollTo(0, document.getElementById('part-two')!.getBoundingClientRect().top + window.scrollY - 40));
    await page.waitForFunction(() => document.querySelector('.s-toc a[aria-current="location"]')?.textContent === 'Part two');
    await screenshot(page, 'garden-toc-desktop');
    await page.context().close();
  });

  it('a heading\'s link to itself shows on keyboard focus, named for its section', async () => {
    const page = await open('/Guide/Long-read', 1280);
    const anchor = page.getByRole('link', { name: 'Link to this section Part two', exact: true });
    expect(await anchor.count()).toBe(1);
    expect(await anchor.evaluate((a) => getComputedStyle(a).opacity)).toBe('0');
    // Reached with the keyboard: Tab from the link before it.
    await page.locator('.s-toc a[href="#a-detail"]').focus();
    await page.locator('h2#part-two a.s-anchor').focus();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#part-two');
    expect(await anchor.evaluate((a) => getComputedStyle(a).opacity)).toBe('1');
    await anchor.click();
    expect(new URL(page.url()).hash).toBe('#part-two');
    await page.context().close();
  });

  it('is folded at the top on a 360 px phone and opens with its button', async () => {
    const page = await open('/Guide/Long-read', 360);
    expect(await page.locator('.s-toc').isVisible()).toBe(false);
    await page.locator('.s-toc-toggle').click();
    expect(await page.locator('.s-toc').isVisible()).toBe(true);
    const [toc, body] = await Promise.all([page.locator('.s-toc').boundingBox(), page.locator('.s-article-body').boundingBox()]);
    expect(toc!.y + toc!.height).toBeLessThanOrEqual(body!.y);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await screenshot(page, 'garden-toc-phone-360');
    await page.context().close();
  });
});

describe('CONTRACT §12: backlinks', () => {
  it('list the notes linking here with their sentences, readable light and dark', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await open('/Guide/Install', 1280, { colorScheme });
      const section = page.locator('.s-backlinks');
      await section.scrollIntoViewIfNeeded();
      expect(await section.locator('a.s-backlink').allTextContents()).toEqual(['API', 'Configure', 'The Guide']);
      const [fg, bg] = await section.locator('.s-backlink-snippet').first().evaluate((p) => [getComputedStyle(p).color, getComputedStyle(p.closest('li')!).backgroundColor]);
      expect(fg).not.toBe(bg);
      await screenshot(page, `garden-backlinks-${colorScheme}`);
      await page.context().close();
    }
  });
});

describe('CONTRACT §12: the local graph', () => {
  it('reads light and dark: labels drawn in the text colour over the surface; a click follows a node', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const page = await open('/Guide/Install', 1280, { colorScheme });
      const graph = page.locator('svg.s-graph');
      await graph.scrollIntoViewIfNeeded();
      const [label, surface] = await graph.evaluate((svg) => [getComputedStyle(svg.querySelector('text')!).fill, getComputedStyle(svg).backgroundColor]);
      const bodyText = await page.evaluate(() => getComputedStyle(document.body).color);
      expect(label).toBe(bodyText);
      expect(label).not.toBe(surface);
      await screenshot(page, `garden-graph-${colorScheme}`);
      if (colorScheme === 'dark') {
        await graph.locator('a.s-graph-node', { hasText: 'Configure' }).click();
        await page.waitForURL(/\/Guide\/Advanced\/Configure$/);
      }
      await page.context().close();
    }
  });
});

/**
 * The graph as a phone shows it: its labels' drawn height, and where the note's own node
 * sits in its box (true when the box shows it whole).
 */
async function graphOnPhone(page: Page): Promise<{ labelPx: number; headingWhole: boolean; hereInView: boolean; centred: boolean; scrolls: boolean; more: string }> {
  const box = page.locator('.s-graph-scroll');
  await box.scrollIntoViewIfNeeded();
  return box.evaluate((el) => {
    const view = el.getBoundingClientRect();
    const here = el.querySelector('.s-graph-here circle')!.getBoundingClientRect();
    return {
      labelPx: el.querySelector('.s-graph-node text')!.getBoundingClientRect().height,
      // The heading stays put above the scrolling drawing.
      headingWhole: (() => {
        const h = el.closest('.s-graph-box')!.querySelector('h2')!;
        return h.scrollWidth <= h.clientWidth && h.getBoundingClientRect().left >= 0;
      })(),
      hereInView: here.left >= view.left && here.right <= view.right,
      centred: Math.abs((here.left + here.right) / 2 - (view.left + view.right) / 2) < 12,
      scrolls: el.scrollWidth > el.clientWidth,
      // The sides with more of the drawing beyond them, which fade (a cut label reads as an edge that scrolls).
      more: el.dataset.more ?? '',
    };
  });
}

describe('the local graph on a phone', () => {
  it('keeps its labels readable, the box scrolling sideways and starting at the note', async () => {
    const page = await open('/Guide/Install', 360);
    const shown = await graphOnPhone(page);
    // Scaled to the 330 px column, 13 px labels were drawn 7 px tall.
    expect(shown.labelPx).toBeGreaterThanOrEqual(11);
    expect(shown.scrolls).toBe(true);
    expect(shown.hereInView).toBe(true);
    expect(shown.centred).toBe(true);
    expect(shown.headingWhole).toBe(true);
    expect(shown.more).toBe('both');
    expect(await page.locator('.s-graph-scroll').evaluate((el) => getComputedStyle(el).maskImage)).toContain('linear-gradient');
    await screenshot(page, 'garden-graph-360');
    // Scrolled to an end, only the other side fades.
    await page.locator('.s-graph-scroll').evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
    await page.waitForFunction(() => document.querySelector<HTMLElement>('.s-graph-scroll')!.dataset.more === 'left');
    await page.context().close();
  });
});

describe('the garden\'s scripts start without laying the page out', () => {
  it('explorer, table of contents and local graph, on a phone and a desktop: no reading of the layout while the script runs', async () => {
    for (const route of ['/Guide/Long-read', '/Guide/Install']) {
      for (const width of [360, 1280]) {
        const { during, page } = await layoutReadsOnOpen(browser, garden.url + route, width);
        expect(during, `${route} at ${width} px`).toEqual([]);
        // Measured a frame later all the same: the graph's box starts at the note.
        if (route === '/Guide/Install' && width === 360) expect(await page.locator('.s-graph-scroll').evaluate((el) => el.dataset.more)).toBe('both');
        await page.context().close();
      }
    }
  });
});

describe('CONTRACT §12: the garden in Arabic', () => {
  it('mirrors: the explorer on the right, breadcrumbs right to left', async () => {
    await garden.writeSettings({ ...settings, language: 'ar' });
    await garden.waitForPage('/Guide/Install', (p) => p.text.includes('<html lang="ar" dir="rtl"'));
    const page = await open('/Guide/Advanced/Configure', 1280);
    const [side, main] = await Promise.all([page.locator('.s-sidebar').boundingBox(), page.locator('.s-main').boundingBox()]);
    expect(side!.x).toBeGreaterThanOrEqual(main!.x + main!.width - 1);
    expect(await page.locator('.s-explorer-fold').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await screenshot(page, 'garden-desktop-arabic');
    await page.context().close();
    const long = await open('/Guide/Long-read', 1280);
    const [toc, body] = await Promise.all([long.locator('.s-toc').boundingBox(), long.locator('.s-article-body').boundingBox()]);
    expect(toc!.x + toc!.width).toBeLessThanOrEqual(body!.x);
    await screenshot(long, 'garden-toc-arabic');
    await long.context().close();
    const install = await open('/Guide/Install', 1280);
    await install.locator('svg.s-graph').scrollIntoViewIfNeeded();
    await screenshot(install, 'garden-graph-arabic');
    await install.context().close();
    // An English title in the Arabic explorer is drawn as written and stays on the explorer's side.
    const git = await open('/Guide/Install', 1280);
    const entry = git.locator('.s-explorer a', { hasText: 'What is Git' }).first();
    expect(await drawnOrder(entry, '(D')).toBe('before');
    expect(await drawnOrder(entry, 't?')).toBe('before');
    const [item, list] = await Promise.all([entry.evaluate((a) => { const r = document.createRange(); r.selectNodeContents(a); return r.getBoundingClientRect().right; }), entry.evaluate((a) => a.getBoundingClientRect().right)]);
    expect(list - item).toBeLessThan(12);
    await git.context().close();
    const folder = await open('/Guide/Advanced', 1280);
    expect(await folder.locator('.s-list-label').textContent()).toBe('مجلد');
    expect(await folder.locator('.s-folder-page').evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await screenshot(folder, 'garden-folder-page-arabic');
    await folder.context().close();
    const phone = await open('/Guide/Advanced/Configure', 360);
    await phone.locator('.s-explorer-toggle').click();
    await screenshot(phone, 'garden-phone-360-arabic');
    await phone.context().close();
    // Right to left, the graph's box starts at the note too (its scroll runs the other way).
    const graph = await open('/Guide/Install', 360);
    expect(await graphOnPhone(graph)).toMatchObject({ scrolls: true, hereInView: true, centred: true, headingWhole: true, more: 'both' });
    await graph.locator('.s-graph-scroll').evaluate((el) => el.scrollTo({ left: -el.scrollWidth }));
    await graph.waitForFunction(() => document.querySelector<HTMLElement>('.s-graph-scroll')!.dataset.more === 'right');
    await screenshot(graph, 'garden-graph-360-arabic');
    await graph.context().close();
    await garden.writeSettings(settings);
    await garden.waitForPage('/Guide/Install', (p) => p.text.includes('<html lang="en" dir="ltr"'));
  });
});
