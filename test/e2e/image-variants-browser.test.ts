// In Chromium: an article's image is taken from its WebP copies, the smallest that fills
// the column (a phone gets a narrow one), with its box reserved before it loads (no layout
// shift); screenshots light, dark, 360 px and an Arabic article (test-artifacts/).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, releaseBrowser, screenshot } from '../helpers/browser.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

/** A drawn landscape, 1600×1000: something to look at in the screenshots. */
const DRAWING = `<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000">
<defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#5b8cc9"/><stop offset="1" stop-color="#f3d9a4"/></linearGradient></defs>
<rect width="1600" height="1000" fill="url(#sky)"/><circle cx="1200" cy="300" r="120" fill="#fff3c4"/>
<path d="M0 700 L400 420 L760 700 L1100 380 L1600 720 L1600 1000 L0 1000 Z" fill="#3d6b4f"/>
<path d="M0 820 Q800 700 1600 860 L1600 1000 L0 1000 Z" fill="#2a4a38"/></svg>`;

const note = (title: string, lang: string, text: string) => `---\ntitle: ${title}\npublish: true\ndate: 2026-01-10\nlang: ${lang}\n---\n${text}\n\n![[hills.png]]\n\n${text}\n`;

describe('an article with an image, in Chromium', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    const root = await tempDir('vs-img-browser-');
    const vault = path.join(root, 'vault');
    await writeFiles(vault, {
      'Hills.md': note('Hills at dusk', 'en', 'A walk above the valley, written down the evening after.'),
      'Tilal.md': note('تلال عند الغروب', 'ar', 'نزهة فوق الوادي، كُتبت في مساء اليوم التالي.'),
    });
    await fs.writeFile(path.join(vault, 'hills.png'), await sharp(Buffer.from(DRAWING)).png().toBuffer());
    server = await startServer({ vault, data: path.join(root, 'data'), env: { PUBLIC_LAYOUT: 'blog' } });
    await waitFor(async () => (await (await fetch(`${server.url}/Hills`)).text()).includes('<picture>'), 60_000);
    await waitFor(async () => (await (await fetch(`${server.url}/Tilal`)).text()).includes('<picture>'), 60_000);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
  });

  async function open(address: string, width: number, colorScheme: 'light' | 'dark'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme, deviceScaleFactor: 1 });
    const page = await context.newPage();
    await page.goto(server.url + address);
    await page.locator('.s-article-body img').evaluate((img: HTMLImageElement) => img.decode());
    return page;
  }

  /** The image as the browser shows it: the file it chose and its box. */
  const shown = (page: Page) =>
    page.locator('.s-article-body img').evaluate((img: HTMLImageElement) => ({ src: img.currentSrc, width: img.getBoundingClientRect().width, height: img.getBoundingClientRect().height }));

  it('takes the WebP copy that fills the column, its box in proportion (light, dark)', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      const page = await open('/Hills', 1000, scheme);
      const img = await shown(page);
      expect(img.src).toMatch(/\/_img\/[0-9a-f-]+\/(960|1280)\.webp$/);
      expect(Math.abs(img.height - (img.width * 1000) / 1600)).toBeLessThan(1);
      await screenshot(page, `image-article-${scheme}`);
      await page.context().close();
    }
  });

  it('on a 360 px phone takes a narrow copy', async () => {
    const page = await open('/Hills', 360, 'light');
    const img = await shown(page);
    expect(img.src).toMatch(/\/(320|640)\.webp$/);
    expect(img.width).toBeLessThanOrEqual(360);
    await screenshot(page, 'image-article-360');
    await page.context().close();
  });

  it('reserves the image box before the image loads (no layout shift)', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    const page = await context.newPage();
    // The copies never arrive: the box must already have the image's proportions.
    await page.route('**/_img/**', () => {});
    await page.route('**/hills.png', () => {});
    await page.goto(server.url + '/Hills', { waitUntil: 'domcontentloaded' });
    const img = await shown(page);
    expect(img.width).toBeGreaterThan(300);
    expect(Math.abs(img.height - (img.width * 1000) / 1600)).toBeLessThan(1);
    await context.close();
  });

  it('in an Arabic article, right to left', async () => {
    const page = await open('/Tilal', 1000, 'light');
    expect(await page.locator('.s-article').getAttribute('dir')).toBe('rtl');
    expect((await shown(page)).src).toMatch(/\.webp$/);
    await screenshot(page, 'image-article-arabic');
    await page.context().close();
  });
});
