// The admin's preview is the site: a note previewed in the editor is rendered by the site's
// renderer and shown with the site's own stylesheet in the sandboxed frame, so a callout and
// a highlighted code block there have the public page's computed styles, light and dark.
import type { FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminForFile, openAdmin, openFromTree, screenshot } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const SAMPLE = `---
title: Code and callouts
publish: true
date: 2026-04-03
---
A note with a callout and some code.

> [!warning] Mind the gap
> Trains stop *here*.

\`\`\`js
// Greets a reader
function greet(name) {
  return \`Hello, \${name}!\` + 42;
}
\`\`\`
`;

const ARABIC = `---
title: شيفرة وتنبيهات
lang: ar
publish: true
date: 2026-04-04
---
ملاحظة فيها تنبيه وشيفرة.

> [!tip] نصيحة
> اقرأ الشيفرة من اليسار إلى اليمين.

\`\`\`python
def greet(name):
    return f"Hello, {name}" * 2  # تحية
\`\`\`
`;

const { server, browser } = adminForFile({
  prefix: 'vs-e2e-preview-',
  prepare: async ({ vault }) => {
    await writeFiles(vault, { 'Posts/Code and callouts.md': SAMPLE, 'Posts/Arabic code.md': ARABIC });
    return { env: { PUBLIC_LAYOUT: 'blog', SITE_NAME: 'Preview check' } };
  },
});

/** What a reader sees of each element: colours, borders, backgrounds and type. */
const PROPS = ['color', 'background-color', 'border-inline-start-color', 'border-inline-start-width', 'border-inline-start-style', 'border-top-right-radius', 'padding-top', 'font-family', 'font-size', 'font-style', 'mask-image'];
const ELEMENTS = ['.callout', '.callout-title', '.callout-icon', 'pre', 'pre code', 'pre .token.keyword', 'pre .token.comment', 'pre .token.function', 'pre .token.number', 'pre .token.string'];

type Styles = Record<string, Record<string, string>>;

/** Resolves once the server's first build has published the page. */
async function published(address: string): Promise<void> {
  await waitFor(async () => (await fetch(server.url + address)).status === 200, 60_000, 100);
}

async function stylesOf(root: Page | FrameLocator): Promise<Styles> {
  const out: Styles = {};
  for (const selector of ELEMENTS) {
    out[selector] = await root
      .locator(selector)
      .first()
      .evaluate((el, props) => {
        const style = getComputedStyle(el);
        return Object.fromEntries(props.map((p) => [p, style.getPropertyValue(p)]));
      }, PROPS);
  }
  return out;
}

async function publicStyles(page: Page, address: string): Promise<Styles> {
  await published(address);
  await page.goto(server.url + address);
  await page.locator('.s-article-body .callout').waitFor();
  return stylesOf(page);
}

async function previewIn(page: Page, notePath: string): Promise<FrameLocator> {
  await page.goto(`${server.url}/admin/`);
  await page.locator('.app').waitFor();
  await openFromTree(page, notePath);
  await page.locator('.main').getByRole('button', { name: /^(Preview|معاينة)$/ }).click();
  const frame = page.frameLocator('[data-testid="rendered-note"]');
  await frame.locator('pre .token.keyword').first().waitFor();
  return frame;
}

describe("the article's Copy button, added by the blog's script", () => {
  it('copies the code as written, says so, and is not in the page a script-less reader gets', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      const page = await context.newPage();
      await published('/Posts/Code-and-callouts');
      await page.goto(server.url + '/Posts/Code-and-callouts');
      const button = page.locator('.s-code .s-copy');
      await expect(button.textContent()).resolves.toBe('Copy');
      await button.click();
      await page.waitForFunction(() => document.querySelector('.s-copy')?.textContent === 'Copied');
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('// Greets a reader\nfunction greet(name) {\n  return `Hello, ${name}!` + 42;\n}\n');
      const served = await (await fetch(server.url + '/Posts/Code-and-callouts')).text();
      expect(served).toContain('<span class="token keyword">function</span>');
      expect(served).not.toContain('s-copy');
    } finally {
      await context.close();
    }
  }, 90_000);

  it('at 360 px it covers no code: the block keeps a strip above its first line', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 800 }, hasTouch: true, isMobile: true });
    try {
      const page = await context.newPage();
      await page.goto(server.url + '/Posts/Code-and-callouts');
      const button = page.locator('.s-code .s-copy').first();
      await button.waitFor();
      const overlap = await button.evaluate((b) => {
        const code = b.parentElement!.querySelector('pre code')!;
        const range = document.createRange();
        range.selectNodeContents(code);
        const first = range.getClientRects()[0]!;
        const box = b.getBoundingClientRect();
        return box.bottom > first.top && box.top < first.bottom;
      });
      expect(overlap).toBe(false);
      await screenshot(page, 'code-copy-360');
    } finally {
      await context.close();
    }
  });
});

describe('a callout and a code block in the preview are styled as on the public page', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`${scheme}: every compared style is equal, and the code is highlighted in both`, async () => {
      const { context, page } = await openAdmin(browser, server, { colorScheme: scheme });
      try {
        const site = await publicStyles(page, '/Posts/Code-and-callouts');
        await screenshot(page, `code-article-${scheme}`);
        const frame = await previewIn(page, 'Posts/Code and callouts.md');
        const preview = await stylesOf(frame);
        expect(preview).toEqual(site);
        // Positive signals: the callout has the warning's colour, and the scheme changed it.
        expect(site['.callout']!['border-inline-start-color']).toBe(scheme === 'light' ? 'rgb(200, 100, 0)' : 'rgb(233, 151, 63)');
        expect(site['pre .token.keyword']!.color).not.toBe(site['pre code']!.color);
        await screenshot(page, `code-preview-${scheme}`);
      } finally {
        await context.close();
      }
    });
  }

  // The site follows a reader's choice of light or dark as well as the system, and the preview
  // follows the admin's: an admin who chose the dark theme on a light system sees the site dark.
  for (const [theme, system, border, background] of [
    ['dark', 'light', 'rgb(233, 151, 63)', 'rgb(21, 20, 18)'],
    ['light', 'dark', 'rgb(200, 100, 0)', 'rgb(251, 250, 247)'],
  ] as const) {
    it(`with the admin's ${theme} theme on a ${system} system, the preview shows the site ${theme}`, async () => {
      await server.admin('PUT', '/api/prefs', { keys: { theme } });
      const { context, page } = await openAdmin(browser, server, { colorScheme: system });
      try {
        await page.waitForFunction((theme) => document.documentElement.dataset.theme === theme, theme);
        const frame = await previewIn(page, 'Posts/Code and callouts.md');
        await expect(frame.locator('.callout').evaluate((el) => getComputedStyle(el).borderInlineStartColor)).resolves.toBe(border);
        await expect(frame.locator('body').evaluate((el) => getComputedStyle(el).backgroundColor)).resolves.toBe(background);
        await screenshot(page, `admin-preview-${theme}-on-${system}`);
      } finally {
        await context.close();
        await server.admin('PUT', '/api/prefs', { keys: { theme: 'auto' } });
      }
    });
  }

  it('360 px wide and in Arabic: the article and the preview', async () => {
    const narrow = await openAdmin(browser, server, { viewport: { width: 360, height: 780 } });
    try {
      await publicStyles(narrow.page, '/Posts/Code-and-callouts');
      await screenshot(narrow.page, 'code-article-360');
      // The note is opened from the tree at full width; the narrow frame then shows the preview alone.
      await narrow.page.setViewportSize({ width: 1280, height: 800 });
      const frame = await previewIn(narrow.page, 'Posts/Code and callouts.md');
      await narrow.page.setViewportSize({ width: 360, height: 780 });
      await frame.locator('pre').first().scrollIntoViewIfNeeded();
      await screenshot(narrow.page, 'code-preview-360');
    } finally {
      await narrow.context.close();
    }
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
    const arabic = await openAdmin(browser, server);
    try {
      const site = await publicStyles(arabic.page, '/Posts/Arabic-code');
      expect(await arabic.page.locator('article.s-article').getAttribute('dir')).toBe('rtl');
      await screenshot(arabic.page, 'code-article-arabic');
      const frame = await previewIn(arabic.page, 'Posts/Arabic code.md');
      expect(await frame.locator('article.s-article').getAttribute('dir')).toBe('rtl');
      expect(await stylesOf(frame)).toEqual(site);
      await screenshot(arabic.page, 'code-preview-arabic');
    } finally {
      await arabic.context.close();
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
    }
  }, 120_000);
});
