// CONTRACT §12 in a real browser: a canvas pans with a drag and zooms with the wheel where
// scripts run (its frame scrolls where they do not); a base's table reads at 360 px without
// the page scrolling sideways. Screenshots (light, dark, 360 px, Arabic) of a base and a
// canvas land in test-artifacts/.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blogForFile, openSitePage, screenshot } from '../helpers/browser.ts';
import { DOCUMENT_FILES } from '../fixtures/documents/vault.ts';
import { layoutReadsOnOpen } from '../helpers/layout-reads.ts';

const settings = { siteName: 'Reading room', homeNote: 'Home' };

/** The fixture's base with what the site lacks, in one formula and one view: each costs only itself (Obsidian shows the rest). */
const UNSUPPORTED_BASE = 'formulas:\n  twice: "values.map(value * 2)"\nviews:\n  - type: table\n    name: Books\n    filters: file.hasTag("book")\n    order: [file.name, formula.twice]\n  - type: kanban\n    name: Board\n';
const { blog: site, browser } = blogForFile({ fixture: false, files: { ...DOCUMENT_FILES, 'Library/Unsupported.base': UNSUPPORTED_BASE }, env: { PUBLIC_LAYOUT: 'default' }, settings });

const open = (route: string, width: number, options?: Parameters<typeof openSitePage>[3]) => openSitePage(browser, site.url + route, width, options);

/** Scrolls the base's grouped view (its groups and summary rows) into the viewport. */
async function toGroups(page: Page): Promise<void> {
  await page.locator('.s-base-view').nth(2).evaluate((el) => el.scrollIntoView({ block: 'start' }));
}

/** The stage's place and scale as the canvas script set them: [x, y, scale]. */
const view = (page: Page) =>
  page.locator('.s-canvas-stage').evaluate((el) => {
    const m = new DOMMatrix(getComputedStyle(el).transform);
    return [m.e, m.f, m.a];
  });

describe('CONTRACT §12: a canvas pans and zooms where scripts run', () => {
  it('is fitted to its frame a frame after the script starts, which reads no layout while it runs', async () => {
    const { during, page } = await layoutReadsOnOpen(browser, site.url + '/Maps/Overview', 1280);
    expect(during).toEqual([]);
    // Fitted all the same: centred in its frame.
    const [x, y] = await view(page);
    expect(Math.abs(x) + Math.abs(y)).toBeGreaterThan(0);
    await page.context().close();
  });

  it('a drag moves the drawing and the wheel zooms it about the pointer', async () => {
    const page = await open('/Maps/Overview', 1280);
    const viewport = page.locator('.s-canvas-viewport');
    await page.waitForFunction(() => document.querySelector('.s-canvas-viewport')?.classList.contains('s-canvas-live'));
    await viewport.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = (await viewport.boundingBox())!;
    const [x0, y0, s0] = await view(page);
    // Drag from an empty spot of the frame (its bottom right corner, clear of the nodes) by (-120, -60).
    const from = { x: box.x + box.width - 30, y: box.y + box.height - 30 };
    expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.className, from)).toMatch(/s-canvas-(viewport|stage|edges)/);
    await page.mouse.move(from.x, from.y);
    await page.mouse.down();
    await page.mouse.move(from.x - 60, from.y - 30, { steps: 4 });
    await page.mouse.move(from.x - 120, from.y - 60, { steps: 4 });
    await page.mouse.up();
    const [x1, y1, s1] = await view(page);
    expect(Math.round(x1 - x0)).toBe(-120);
    expect(Math.round(y1 - y0)).toBe(-60);
    expect(s1).toBe(s0);
    await screenshot(page, 'canvas-desktop-light');
    // The wheel over the frame zooms in (up) and out (down); the page itself does not scroll.
    const scrollBefore = await page.evaluate(() => window.scrollY);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, -300);
    await page.waitForFunction((before) => new DOMMatrix(getComputedStyle(document.querySelector('.s-canvas-stage')!).transform).a > before, s1);
    const [, , s2] = await view(page);
    expect(s2).toBeGreaterThan(s1);
    expect(await page.evaluate(() => window.scrollY)).toBe(scrollBefore);
    await page.mouse.wheel(0, 600);
    await page.waitForFunction((before) => new DOMMatrix(getComputedStyle(document.querySelector('.s-canvas-stage')!).transform).a < before, s2);
    // The buttons and keys do the same: fit brings the first view back.
    await page.locator('.s-canvas-tools button[aria-label="Fit to view"]').click();
    expect(await view(page)).toEqual([x0, y0, s0]);
    await page.context().close();
  });

  it('without scripts, the drawing is there and its frame scrolls', async () => {
    const page = await open('/Maps/Overview', 1280, { javaScriptEnabled: false });
    expect(await page.locator('.s-canvas-node').count()).toBe(5);
    expect(await page.locator('.s-canvas-node[data-node="dune"] a').textContent()).toBe('Dune');
    expect(await page.locator('.s-canvas-viewport').evaluate((el) => getComputedStyle(el).overflow)).toBe('auto');
    // An edge's label keeps the lines its author wrote (JSON Canvas: the label is plain text, `\n` a line break).
    const lines = await page.locator('.s-canvas-edge-label').first().evaluate((el) => {
      const one = el.getBoundingClientRect().height;
      el.textContent = 'first line\nsecond line';
      return el.getBoundingClientRect().height / one;
    });
    expect(lines).toBeGreaterThan(1.6);
    await page.context().close();
  });

  it('reads in dark mode and on a 360 px phone', async () => {
    const dark = await open('/Maps/Overview', 1280, { colorScheme: 'dark' });
    const colors = await dark.locator('.s-canvas-node[data-node="plan"]').evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor]);
    expect(colors[0]).not.toBe(colors[1]);
    await screenshot(dark, 'canvas-desktop-dark', true);
    await dark.context().close();
    const phone = await open('/Maps/Overview', 360);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(phone, 'canvas-phone-360');
    await phone.context().close();
  });
});

describe('CONTRACT §12: a base page in the browser', () => {
  it('its table scrolls inside its frame on a phone, never the page', async () => {
    const light = await open('/Library/Reading', 1280);
    expect(await light.locator('.s-base-table').first().locator('tbody tr').count()).toBe(3);
    await screenshot(light, 'base-desktop-light', true);
    expect(await light.locator('.s-base-group').count()).toBe(2);
    expect(await light.locator('.s-base-summary').first().innerText()).toMatch(/AVERAGE\s+4\.5/);
    await toGroups(light);
    await screenshot(light, 'base-grouped-light');
    await light.context().close();
    const dark = await open('/Library/Reading', 1280, { colorScheme: 'dark' });
    await screenshot(dark, 'base-desktop-dark');
    await toGroups(dark);
    await screenshot(dark, 'base-grouped-dark');
    await dark.context().close();
    const block = await open('/Library/Library', 1280, { colorScheme: 'dark' });
    expect(await block.locator('.s-base-gap').textContent()).toBe('This base uses the function map(), which the site cannot show.');
    expect(await block.locator('.s-base-unsupported').count()).toBe(0);
    await screenshot(block, 'base-block-dark');
    await block.context().close();
    const phone = await open('/Library/Reading', 360);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(phone, 'base-phone-360');
    await toGroups(phone);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    await screenshot(phone, 'base-grouped-phone-360');
    await phone.context().close();
    const list = await open('/Library/Lengths', 1280, { colorScheme: 'dark' });
    expect(await list.locator('.s-base-group .s-base-summaries').count()).toBe(2);
    await screenshot(list, 'base-list-grouped-dark');
    await list.context().close();
  });
});

describe('CONTRACT §12: bases and canvases in Arabic', () => {
  it('the page mirrors; the drawing keeps its own left-to-right plan', async () => {
    await site.writeSettings({ ...settings, language: 'ar' });
    await site.waitForPage('/Library/Reading', (p) => p.text.includes('<html lang="ar" dir="rtl"'));
    const base = await open('/Library/Reading', 1280);
    expect(await base.locator('.s-base-count').first().textContent()).toBe('النتائج: 3');
    await screenshot(base, 'base-desktop-arabic');
    await toGroups(base);
    expect(await base.locator('.s-base-summary').first().innerText()).toContain('المتوسط');
    await screenshot(base, 'base-grouped-arabic');
    await base.context().close();
    await site.waitForPage('/Maps/Overview', (p) => p.text.includes('<html lang="ar" dir="rtl"'));
    const canvas = await open('/Maps/Overview', 1280);
    expect(await canvas.locator('.s-canvas-stage').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    expect(await canvas.locator('.s-canvas-node[data-node="draft"]').textContent()).toBe('ملاحظة غير منشورة');
    await screenshot(canvas, 'canvas-desktop-arabic');
    await canvas.context().close();
    await site.writeSettings(settings);
  });
});
