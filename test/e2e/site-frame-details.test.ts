// Small things a visitor sees in a real browser: the footer's © stays at the start of its
// phrase on a right-to-left site; the dashboard's hero does not say the site's name again
// under the masthead; generated gradients are calm and darker in dark mode.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, releaseBrowser, screenshot } from '../helpers/browser.ts';
import { forFile, startServer, waitFor } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const server = forFile(async () => {
  const base = await tempDir('vs-frame-');
  const vault = path.join(base, 'vault');
  await writeFiles(vault, { 'Home.md': '---\npublish: true\n---\nأهلًا.\n', 'Post.md': '---\npublish: true\ndate: 2026-01-02\n---\nA post.\n' });
  return startServer({ vault, data: path.join(base, 'data'), env: { SITE_LANG: 'ar', SITE_NAME: 'My Garden', SITE_TAGLINE: 'Notes that grow', PUBLIC_LAYOUT: 'blog' } });
});

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await releaseBrowser(browser);
});

describe('the footer on an Arabic site with a Latin name', () => {
  it('shows © left of the year and the name (the phrase runs left to right, © first)', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(server.url + '/');
      const text = page.locator('.s-footer-text');
      await text.waitFor();
      expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
      const x = await text.evaluate((p) => {
        const node = p.querySelector('bdi')?.firstChild ?? p.firstChild!;
        const content = node.textContent ?? '';
        const at = (needle: string) => {
          const range = document.createRange();
          const i = content.indexOf(needle);
          range.setStart(node, i);
          range.setEnd(node, i + needle.length);
          return range.getBoundingClientRect().left;
        };
        return { copyright: at('©'), year: at(String(new Date().getUTCFullYear()).slice(0, 1)), name: at('My') };
      });
      expect(x.copyright).toBeLessThan(x.year);
      expect(x.year).toBeLessThan(x.name);
    } finally {
      await page.close();
    }
  });
});

/** The saturation (0–1) of a computed `rgb(r, g, b)`. */
function saturation(rgb: string): number {
  const [r, g, b] = rgb.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((v) => Number(v) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  return max === min ? 0 : (max - min) / (1 - Math.abs(2 * l - 1));
}

describe('the dashboard home', () => {
  beforeAll(async () => {
    expect((await server.admin('PATCH', '/api/settings', { home: { mode: 'dashboard' } })).status).toBe(200);
    await waitFor(async () => (await (await fetch(server.url + '/')).text()).includes('s-hero'), 15_000);
  });

  for (const scheme of ['light', 'dark'] as const) {
    it(`says the site's name once, and its gradient is calm (${scheme})`, async () => {
      const context = await browser.newContext({ colorScheme: scheme, viewport: { width: 1024, height: 700 } });
      try {
        const page = await context.newPage();
        await page.goto(server.url + '/');
        await page.locator('.s-hero').waitFor();
        const shown = await page.evaluate(() =>
          [...document.querySelectorAll('body *')].filter((el) => {
            const box = el.getBoundingClientRect();
            return el.childElementCount === 0 && el.textContent?.trim() === 'My Garden' && box.width > 1 && box.height > 1;
          }).length,
        );
        expect(shown).toBe(1);
        // The hero's name is still its heading for a screen reader.
        await expect(page.getByRole('heading', { level: 1, name: 'My Garden' }).count()).resolves.toBe(1);
        const taglines = await page.getByText('Notes that grow', { exact: true }).evaluateAll((els) => els.filter((el) => el.getBoundingClientRect().height > 0).length);
        expect(taglines).toBe(1);
        // The hero's and a card's generated gradients alike.
        for (const selector of ['.s-hero', '.s-card-thumb']) {
          const image = await page.locator(selector).first().evaluate((el) => getComputedStyle(el).backgroundImage);
          const colors = image.match(/rgba?\([^)]*\)/g)!;
          expect(colors, selector).toHaveLength(2);
          for (const c of colors) expect(saturation(c), `${selector} ${c}`).toBeLessThanOrEqual(0.36);
          const lightness = colors.map((c) => {
            const v = c.match(/\d+/g)!.slice(0, 3).map(Number);
            return (Math.max(...v) + Math.min(...v)) / 2 / 255;
          });
          if (scheme === 'dark') expect(Math.max(...lightness), selector).toBeLessThan(0.3);
          else expect(Math.max(...lightness), selector).toBeGreaterThan(0.35);
        }
        await screenshot(page, `dashboard-${scheme}`);
      } finally {
        await context.close();
      }
    });
  }
});
