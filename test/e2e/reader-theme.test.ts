// The reader's light or dark, in a real browser: the masthead's button turns the page to
// the other scheme (callouts and diagrams with it), the choice holds on the next page before
// any of the page's scripts run (no flash of the other scheme), choosing the system's own
// scheme again forgets it, and without scripts the button is not offered.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blogForFile, pageProblems, screenshot } from '../helpers/browser.ts';

const VAULT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/obsidian/vault');
const LIGHT_BG = 'rgb(251, 250, 247)';
const DARK_BG = 'rgb(21, 20, 18)';


const { blog, browser } = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'default', SITE_NAME: 'Field Notes' },
  beforeStart: async (vault) => {
    await fs.cp(VAULT, vault, { recursive: true });
    // Dark rules as an Obsidian Publish theme writes them.
    await fs.appendFile(path.join(vault, 'publish.css'), '\n.theme-dark { --publish-dark: yes; }\nbody.theme-dark { --publish-body-dark: yes; }\n');
  },
}, (site) => site.waitForPage('/Rows/Callouts', (p) => p.status === 200, 60_000));

interface Opened {
  context: BrowserContext;
  page: Page;
  /** Content-Security-Policy refusals and script errors seen. */
  problems: string[];
}

async function open(route: string, colorScheme: 'light' | 'dark', options: { width?: number; javaScriptEnabled?: boolean } = {}): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1100, height: 800 }, colorScheme, javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  const problems = pageProblems(page);
  await page.goto(blog.url + route);
  if (options.javaScriptEnabled !== false) await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
  return { context, page, problems };
}

const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const calloutColour = (page: Page) => page.locator('.callout[data-callout="tip"]').first().evaluate((el) => getComputedStyle(el).getPropertyValue('--callout-color').trim());
const stored = (page: Page) => page.evaluate(() => localStorage.getItem('s-theme'));

describe("the reader's light or dark", () => {
  it('turns a light page dark with the masthead button, callouts too, and keeps it on the next page before its scripts run', async () => {
    const { context, page, problems } = await open('/Rows/Callouts', 'light');
    const button = page.locator('.s-masthead .s-theme');
    expect(await button.isVisible()).toBe(true);
    expect(await button.getAttribute('aria-label')).toBe('Dark theme');
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    expect(await background(page)).toBe(LIGHT_BG);
    const lightTip = await calloutColour(page);

    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    expect(await background(page)).toBe(DARK_BG);
    expect(await calloutColour(page)).not.toBe(lightTip);
    expect(await stored(page)).toBe('dark');
    await screenshot(page, 'reader-theme-chosen-dark');

    // The next page, its deferred script held back: the blocking one in <head> has already made it dark.
    await page.route(/\/_s\/blog\.[0-9a-f]+\.js$/, (route) => route.abort());
    await page.goto(blog.url + '/Rows/Diagrams');
    expect(await page.evaluate(() => document.documentElement.classList.contains('s-js'))).toBe(false);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await background(page)).toBe(DARK_BG);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('draws diagrams in the chosen scheme, and again when it changes', async () => {
    const { context, page, problems } = await open('/Rows/Diagrams', 'light');
    await page.waitForFunction(() => document.querySelector('pre.mermaid svg') !== null && document.documentElement.dataset.diagrams === 'light', null, { timeout: 30_000 });
    await page.locator('.s-theme').click();
    await page.waitForFunction(() => document.documentElement.dataset.diagrams === 'dark' && document.querySelector('pre.mermaid svg') !== null, null, { timeout: 30_000 });
    expect(await page.locator('pre.mermaid svg').count()).toBe(1);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("on a dark system, chooses light; choosing dark again forgets the choice and follows the system", async () => {
    const { context, page } = await open('/Rows/Callouts', 'dark', { width: 360 });
    const button = page.locator('.s-theme');
    expect(await background(page)).toBe(DARK_BG);
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    const darkTip = await calloutColour(page);
    await button.click();
    expect(await background(page)).toBe(LIGHT_BG);
    expect(await calloutColour(page)).not.toBe(darkTip);
    expect(await stored(page)).toBe('light');
    // Kept on a reload; the system turning light changes nothing, and turning dark again neither.
    await page.reload();
    expect(await background(page)).toBe(LIGHT_BG);
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await background(page)).toBe(LIGHT_BG);
    await page.emulateMedia({ colorScheme: 'dark' });
    expect(await background(page)).toBe(LIGHT_BG);
    await screenshot(page, 'reader-theme-chosen-light-360');

    await button.click();
    expect(await background(page)).toBe(DARK_BG);
    expect(await stored(page)).toBeNull();
    expect(await page.evaluate(() => document.documentElement.hasAttribute('data-theme'))).toBe(false);
    // Now the system's scheme is followed again.
    await page.emulateMedia({ colorScheme: 'light' });
    expect(await background(page)).toBe(LIGHT_BG);
    await expect.poll(() => button.getAttribute('aria-pressed')).toBe('false');
    await context.close();
  });

  it('a choice made in another tab reaches this one', async () => {
    const { context, page } = await open('/Rows/Callouts', 'light');
    const other = await context.newPage();
    await other.goto(blog.url + '/Rows/Diagrams');
    await other.waitForFunction(() => document.documentElement.classList.contains('s-js'));
    await other.locator('.s-theme').click();
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await background(page)).toBe(DARK_BG);
    expect(await page.locator('.s-theme').getAttribute('aria-pressed')).toBe('true');
    await context.close();
  });

  it('prints light, whatever the screen shows, with the article alone', async () => {
    const { context, page } = await open('/Rows/Callouts', 'dark');
    await page.locator('.s-theme').click();
    await page.locator('.s-theme').click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme ?? 'system dark')).toBe('system dark');
    const themeAsked = await context.newPage();
    await themeAsked.goto(blog.url + '/Rows/Callouts');
    await themeAsked.evaluate(() => localStorage.setItem('s-theme', 'dark'));
    await themeAsked.close();
    const chrome = ['.s-theme', '.s-sidebar', '.s-masthead-search', '.s-share', '.s-graph-box'];
    for (const chosen of [false, true]) {
      if (chosen) await page.reload();
      for (const part of chrome) expect(await page.locator(part).first().isVisible(), part).toBe(true);
      await page.emulateMedia({ media: 'print' });
      expect(await page.evaluate(() => [getComputedStyle(document.body).color, getComputedStyle(document.body).backgroundColor])).toEqual(['rgb(0, 0, 0)', 'rgb(255, 255, 255)']);
      // A callout's text is the light scheme's, not the pale one meant for a dark screen.
      expect(await page.locator('.callout').first().evaluate((el) => getComputedStyle(el).color)).toBe('rgb(29, 27, 24)');
      for (const part of chrome) expect(await page.locator(part).first().isVisible(), part).toBe(false);
      expect(await page.locator('.s-article-body').isVisible()).toBe(true);
      await page.emulateMedia({ media: 'screen' });
      expect(await background(page)).toBe(DARK_BG);
    }
    await context.close();
  });

  it("gives a vault's publish.css Obsidian Publish's scheme classes, before the page is drawn and as they change", async () => {
    const { context, page } = await open('/Rows/Callouts', 'light');
    const publishVar = (name: string, on: 'html' | 'body') => page.evaluate(([name, on]) => getComputedStyle(on === 'html' ? document.documentElement : document.body).getPropertyValue(name).trim(), [name, on] as const);
    expect(await page.evaluate(() => [document.documentElement.className.includes('theme-light'), document.body.classList.contains('theme-light')])).toEqual([true, true]);
    expect(await publishVar('--publish-dark', 'html')).toBe('');
    await page.locator('.s-theme').click();
    expect(await page.evaluate(() => [document.documentElement.classList.contains('theme-dark'), document.body.classList.contains('theme-dark'), document.body.classList.contains('theme-light')])).toEqual([true, true, false]);
    expect([await publishVar('--publish-dark', 'html'), await publishVar('--publish-body-dark', 'body')]).toEqual(['yes', 'yes']);
    // The next page, its deferred script held back: the root has its class before anything is drawn.
    await page.route(/\/_s\/blog\.[0-9a-f]+\.js$/, (route) => route.abort());
    await page.goto(blog.url + '/Rows/Diagrams');
    expect(await publishVar('--publish-dark', 'html')).toBe('yes');
    await context.close();
  });

  it('offers no button without scripts, and the page follows the system', async () => {
    const { context, page } = await open('/Rows/Callouts', 'dark', { javaScriptEnabled: false });
    await page.locator('.s-masthead').waitFor();
    expect(await page.locator('.s-theme').isVisible()).toBe(false);
    expect(await background(page)).toBe(DARK_BG);
    await context.close();
  });
});
