// CONTRACT §12 in a real browser: the garden's explorer beside the note at desktop widths
// and folded behind its button on a 360 px phone. Screenshots (light, dark, 360 px,
// Arabic) land in test-artifacts/.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, screenshot } from '../helpers/browser.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';
import { startBlog, type BlogServer } from '../fixtures/blog/helpers.ts';
import { GARDEN_FILES } from '../fixtures/garden/vault.ts';

let garden: BlogServer;
let browser: Browser;
const settings = { siteName: 'Garden', homeNote: 'Home' };

beforeAll(async () => {
  garden = await startBlog({ fixture: false, files: GARDEN_FILES, env: { PUBLIC_LAYOUT: 'default' }, settings });
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await garden?.stop();
  await cleanupTempDirs();
});

async function open(route: string, width: number, options: { colorScheme?: 'light' | 'dark'; javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: options.colorScheme ?? 'light', javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[browser error] ${err.message}\n`));
  await page.goto(garden.url + route);
  if (options.javaScriptEnabled !== false) await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
  return page;
}

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
    const phone = await open('/Guide/Advanced/Configure', 360);
    await phone.locator('.s-explorer-toggle').click();
    await screenshot(phone, 'garden-phone-360-arabic');
    await phone.context().close();
    await garden.writeSettings(settings);
    await garden.waitForPage('/Guide/Install', (p) => p.text.includes('<html lang="en" dir="ltr"'));
  });
});
