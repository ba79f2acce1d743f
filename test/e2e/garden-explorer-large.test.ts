// CONTRACT §12 in a real browser, on a big vault: a page's explorer is its cut of the tree;
// a "more" link or a closed folder fetches the full explorer page once and fills the tree in,
// the page still marked and its folders open, focus on the first entry shown. Without
// scripts the link leads to the full explorer page. Screenshots (light, dark, 360 px,
// Arabic) land in test-artifacts/.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blogForFile, openSitePage, screenshot } from '../helpers/browser.ts';
import { FLAT_NOTES, largeGardenFiles } from '../fixtures/garden/large-vault.ts';

const settings = { siteName: 'Big garden', homeNote: 'Home' };

const { blog: garden, browser } = blogForFile({ fixture: false, files: largeGardenFiles(), env: { PUBLIC_LAYOUT: 'default' }, settings });

const open = (route: string, width: number, options?: Parameters<typeof openSitePage>[3]) => openSitePage(browser, garden.url + route, width, options);

const sidebar = (page: Page) => page.locator('.s-sidebar .s-explorer');
const flatLinks = (page: Page) => sidebar(page).locator('a[href^="/Flat/"]').count();

describe('CONTRACT §12: a big vault’s explorer in the browser', () => {
  it('a "more" link fills the tree in from the full explorer page, the page still marked, focus on the first entry shown', async () => {
    const page = await open('/Flat/N0700', 1280);
    expect(await flatLinks(page)).toBe(40);
    await screenshot(page, 'garden-large-desktop-light');
    await sidebar(page).locator('.s-explorer-more a', { hasText: '680 more' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'garden-large-desktop-light-more');
    const fetched: string[] = [];
    page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
    await sidebar(page).locator('.s-explorer-more a', { hasText: '780 more' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('.s-sidebar .s-explorer a[href^="/Flat/"]').length === n, FLAT_NOTES);
    expect(new URL(page.url()).pathname).toBe('/Flat/N0700');
    expect(await sidebar(page).locator('a[aria-current="page"]').getAttribute('href')).toBe('/Flat/N0700');
    expect(await sidebar(page).locator('.s-explorer-more').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('/Flat/N0720');
    expect(await page.locator('details[data-folder="Flat"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    // A closed folder now holds its own entries: no second fetch.
    await page.locator('details[data-folder="Deep"] > summary').click();
    expect(await sidebar(page).locator('details[data-folder="Deep%2FF0"]').isVisible()).toBe(true);
    expect(fetched.filter((p) => p === '/folder')).toHaveLength(1);
    await page.context().close();
  }, 120_000);

  it('a closed folder opened gets its entries, focus staying on it', async () => {
    const page = await open('/Flat/N0700', 1280);
    const deep = page.locator('.s-sidebar details[data-folder="Deep"] > summary');
    await deep.focus();
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelector('.s-sidebar details[data-folder="Deep%2FF1"]') !== null);
    expect(await page.evaluate(() => document.activeElement?.closest('details')?.dataset.folder)).toBe('Deep');
    expect(await page.locator('.s-sidebar details[data-folder="Deep"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await sidebar(page).locator('a[aria-current="page"]').getAttribute('href')).toBe('/Flat/N0700');
    await page.context().close();
  }, 120_000);

  it('a closed folder the reader opened stays open on the next page, its entries filled in', async () => {
    const page = await open('/Flat/N0700', 1280);
    const partial = () => page.locator('.s-sidebar details[data-folder="Deep"]').evaluate((d) => d.hasAttribute('data-partial'));
    expect(await partial()).toBe(true);
    await page.locator('.s-sidebar details[data-folder="Deep"] > summary').click();
    await page.waitForFunction(() => document.querySelector('.s-sidebar details[data-folder="Deep%2FF1"]') !== null);
    await page.goto(garden.url + '/Flat/N0701');
    await page.waitForFunction(() => document.querySelector('.s-sidebar details[data-folder="Deep%2FF1"]') !== null);
    expect(await page.locator('.s-sidebar details[data-folder="Deep"]').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    expect(await sidebar(page).locator('a[aria-current="page"]').getAttribute('href')).toBe('/Flat/N0701');
    await page.context().close();
  }, 120_000);

  it('without scripts, a "more" link leads to the full explorer page, its folder open there and in view', async () => {
    const page = await open('/Flat/N0700', 1280, { javaScriptEnabled: false });
    await sidebar(page).locator('.s-explorer-more a', { hasText: '780 more' }).click();
    await page.waitForURL(/\/folder#s-folder-Flat$/);
    expect(await page.locator('.s-explorer-all a[href^="/Flat/"]').count()).toBe(FLAT_NOTES);
    const flat = page.locator('.s-explorer-all details[data-folder="Flat"]');
    await page.waitForFunction(() => document.querySelector<HTMLDetailsElement>('.s-explorer-all details[data-folder="Flat"]')?.open === true);
    expect(await page.locator('.s-explorer-all details[open]').evaluateAll((all) => all.map((d) => (d as HTMLElement).dataset.folder))).toEqual(['Flat']);
    expect(await flat.locator('a[href="/Flat/N0000"]').isVisible()).toBe(true);
    await screenshot(page, 'garden-large-more-no-script');
    await page.context().close();
  }, 120_000);

  it('reads in dark mode, on a 360 px phone, and mirrored in Arabic', async () => {
    const dark = await open('/Deep/F1/G3/M0004', 1280, { colorScheme: 'dark' });
    await screenshot(dark, 'garden-large-desktop-dark');
    await dark.context().close();
    const phone = await open('/Flat/N0700', 360);
    await phone.locator('.s-explorer-toggle').click();
    await phone.locator('.s-sidebar a[aria-current="page"]').scrollIntoViewIfNeeded();
    expect(await phone.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
    await screenshot(phone, 'garden-large-phone-360');
    await phone.context().close();
    await garden.writeSettings({ ...settings, language: 'ar' });
    await garden.waitForPage('/Flat/N0700', (p) => p.text.includes('<html lang="ar" dir="rtl"') && p.text.includes('المزيد'), 120_000);
    const ar = await open('/Flat/N0700', 1280);
    const [side, main] = await Promise.all([ar.locator('.s-sidebar').boundingBox(), ar.locator('.s-main').boundingBox()]);
    expect(side!.x).toBeGreaterThanOrEqual(main!.x + main!.width - 1);
    expect(await sidebar(ar).locator('.s-explorer-more a').first().textContent()).toMatch(/^المزيد \(/);
    await sidebar(ar).locator('.s-explorer-more a').first().scrollIntoViewIfNeeded();
    await screenshot(ar, 'garden-large-desktop-ar');
    await ar.context().close();
  }, 240_000);
});
