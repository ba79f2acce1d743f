// The properties panel in a real browser: key beside value at desktop widths, mirrored in
// an Arabic site, within a 360 px phone's width. Screenshots (light, dark, 360 px, Arabic)
// land in test-artifacts/.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blogForFile, screenshot } from '../helpers/browser.ts';
import { GARDEN_FILES } from '../fixtures/garden/vault.ts';

const NOTE = `---
publish: true
title: Seed catalogue
tags: [garden]
status: growing
planted: 2024-05-06
related: "[[Install]]"
sources: ["[[API]]", "[[Hidden]]", "https://example.org/a-rather-long-address/that-goes-on"]
hostile: "<script>alert(1)</script>"
---

The catalogue of seeds, with its properties above.
`;
const ARABIC = `---
publish: true
title: دفتر البذور
الحالة: نامية
المصادر: ["[[Install]]", "كتاب الحدائق"]
---

نص الملاحظة عن البذور.
`;

const settings = { siteName: 'Garden', homeNote: 'Home', publishing: { properties: 'shown' } };

const { blog: site, browser } = blogForFile({ fixture: false, files: { ...GARDEN_FILES, 'Seeds/Catalogue.md': NOTE, 'Seeds/دفتر.md': ARABIC }, env: { PUBLIC_LAYOUT: 'default' }, settings });

async function open(route: string, width: number, colorScheme: 'light' | 'dark' = 'light'): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme });
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[browser error] ${err.message}\n`));
  await page.goto(site.url + route);
  await page.locator('.s-properties').waitFor();
  return page;
}

/** Where each key sits against its value, and whether the page is wider than its window. */
const layoutOf = (page: Page) =>
  page.evaluate(() => {
    const dt = document.querySelector('.s-properties dt')!.getBoundingClientRect();
    const dd = document.querySelector('.s-properties dd')!.getBoundingClientRect();
    return { keyLeftOfValue: dt.right <= dd.left, keyRightOfValue: dt.left >= dd.right, keyAboveValue: dt.bottom <= dd.top, overflows: document.documentElement.scrollWidth > window.innerWidth };
  });

describe('the properties panel in a browser', () => {
  it('puts each key beside its value, light and dark, and keys above values on a phone', async () => {
    let page = await open('/Seeds/Catalogue', 1100);
    expect(await layoutOf(page)).toMatchObject({ keyLeftOfValue: true, overflows: false });
    expect(await page.locator('.s-properties').textContent()).toContain('<script>alert(1)</script>');
    await screenshot(page, 'properties-light');
    await page.context().close();
    page = await open('/Seeds/Catalogue', 1100, 'dark');
    await screenshot(page, 'properties-dark');
    await page.context().close();
    page = await open('/Seeds/Catalogue', 360);
    expect(await layoutOf(page)).toMatchObject({ keyAboveValue: true, overflows: false });
    await screenshot(page, 'properties-360');
    await page.context().close();
  });

  it('mirrors in an Arabic site: the key on the right of its value', async () => {
    await site.writeSettings({ ...settings, language: 'ar' });
    await site.waitForPage('/Seeds/%D8%AF%D9%81%D8%AA%D8%B1', (p) => p.text.includes('<html lang="ar" dir="rtl"'));
    const page = await open('/Seeds/%D8%AF%D9%81%D8%AA%D8%B1', 1100);
    expect(await layoutOf(page)).toMatchObject({ keyRightOfValue: true, overflows: false });
    await screenshot(page, 'properties-arabic');
    await page.context().close();
  });
});
