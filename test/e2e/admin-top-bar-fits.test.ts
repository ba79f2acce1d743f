// The admin's top bar and the open note's toolbar fit the window from 1,000 px up, left to
// right and in Arabic: every control inside the viewport, none over another, each with a
// name a screen reader says; the right-hand panel is not clipped. Real server, real Chromium.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminForFile, clearToasts, openAdmin, openFromTree, screenshot } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const { server, browser } = adminForFile({
  prefix: 'vs-e2e-top-bar-',
  prepare: async ({ vault }) => {
    await writeFiles(vault, {
      'Home.md': '---\npublish: true\n---\nWelcome. See [[Nowhere]].\n',
      'Garden/Seasons/A note with a rather long name about the spring garden.md': '---\npublish: true\n---\nSpring.\n',
    });
    return {};
  },
});

interface Control {
  name: string;
  box: { x: number; y: number; width: number; height: number };
}

/** Every visible control of the top bar and the note bar, with its accessible name and box. */
async function controls(page: Page): Promise<Control[]> {
  return page.evaluate(() => {
    const out: { name: string; box: { x: number; y: number; width: number; height: number } }[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('.top-bar button, .top-bar a, .note-bar button, .note-bar select, .note-bar input:not([type="file"]), .note-bar .save-state')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || getComputedStyle(el).visibility === 'hidden') continue;
      const labelled = el.getAttribute('aria-labelledby');
      const name = (el.getAttribute('aria-label') ?? (labelled ? document.getElementById(labelled)?.textContent : null) ?? el.textContent ?? el.getAttribute('title') ?? '').trim();
      out.push({ name: name || el.outerHTML.slice(0, 80), box: { x: r.x, y: r.y, width: r.width, height: r.height } });
    }
    return out;
  });
}

const overlap = (a: Control['box'], b: Control['box']) => a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

async function checkFits(page: Page, width: number, label: string): Promise<void> {
  const list = await controls(page);
  // Positive first: the bars are there, with the note's own controls.
  expect(list.length, label).toBeGreaterThan(8);
  for (const c of list) {
    expect(c.box.x, `${label}: ${c.name} starts inside the window`).toBeGreaterThanOrEqual(0);
    expect(c.box.x + c.box.width, `${label}: ${c.name} ends inside the window`).toBeLessThanOrEqual(width + 0.5);
    expect(c.name.length, `${label}: a control without a name`).toBeGreaterThan(0);
  }
  for (let i = 0; i < list.length; i++) for (let j = i + 1; j < list.length; j++) expect(overlap(list[i]!.box, list[j]!.box), `${label}: ${list[i]!.name} over ${list[j]!.name}`).toBe(false);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${label}: the page scrolls sideways`).toBeLessThanOrEqual(width);
  const panel = (await page.locator('.right-panel').count()) > 0 ? await page.locator('.right-panel').boundingBox() : null;
  if (panel) {
    expect(panel.x, `${label}: the right panel`).toBeGreaterThanOrEqual(0);
    expect(panel.x + panel.width, `${label}: the right panel`).toBeLessThanOrEqual(width + 0.5);
  }
}

/** The right-hand panel shown (a phone-width visit closes it, and the choice is kept). */
async function showPanel(page: Page): Promise<void> {
  const toggle = page.locator('.top-bar button[aria-pressed]').nth(1);
  await toggle.waitFor();
  if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
  await page.locator('.right-panel').waitFor();
}

/** The note open, each bar drawn; on a phone the tree drawer closed, elsewhere the right panel shown. */
async function openNote(page: Page, language: 'en' | 'ar', phone: boolean): Promise<void> {
  if (language === 'ar') await waitFor(async () => (await page.evaluate(() => document.documentElement.dir)) === 'rtl');
  if (phone) {
    // The phone layout: the views fold into one menu; the tree is a drawer, closed once a note opens.
    await page.locator('.top-bar .views-menu').waitFor();
    await page.locator('.top-bar [aria-label]').first().click();
  }
  await openFromTree(page, 'Garden/Seasons/A note with a rather long name about the spring garden.md');
  await page.locator('.note-bar').waitFor();
  if (phone && (await page.locator('.tree').count()) > 0) await page.locator('.scrim').click();
  if (!phone) await showPanel(page);
  await waitFor(async () => (await page.getByTestId('health-badge').count()) > 0, 20_000);
}

/** Two frames after a resize: whatever the app lays out on a resize has been laid out. */
const settled = (page: Page) => page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));

describe('the top bar and the note toolbar fit the window', () => {
  for (const language of ['en', 'ar'] as const) {
    it(`at 1000, 1280 and 1440 px, and the phone layout at 360 px${language === 'ar' ? ', in Arabic (right to left)' : ''}`, { timeout: 120_000 }, async () => {
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: language } });
      try {
        // Opened at the widest and narrowed: a layout made only at load would spill at 1000 px.
        const desktop = await openAdmin(browser, server, { viewport: { width: 1440, height: 800 } });
        try {
          await openNote(desktop.page, language, false);
          for (const width of [1440, 1280, 1000]) {
            await desktop.page.setViewportSize({ width, height: 800 });
            await settled(desktop.page);
            await checkFits(desktop.page, width, `${language} ${width}px`);
            await clearToasts(desktop.page);
            await screenshot(desktop.page, `top-bar-${language}-${width}`);
            if (width === 1280) {
              await desktop.page.emulateMedia({ colorScheme: 'dark' });
              await checkFits(desktop.page, width, `${language} ${width}px dark`);
              await screenshot(desktop.page, `top-bar-${language}-${width}-dark`);
              await desktop.page.emulateMedia({ colorScheme: 'light' });
            }
          }
        } finally {
          await desktop.context.close();
        }
        // The phone layout is chosen at load: its own visit.
        const phone = await openAdmin(browser, server, { viewport: { width: 360, height: 800 } });
        try {
          await openNote(phone.page, language, true);
          await checkFits(phone.page, 360, `${language} 360px`);
          await clearToasts(phone.page);
          await screenshot(phone.page, `top-bar-${language}-360`);
        } finally {
          await phone.context.close();
        }
      } finally {
        await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
      }
    });
  }
});
