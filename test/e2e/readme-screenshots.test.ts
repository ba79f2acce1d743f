// The README's two pictures, taken from a copy of the example vault as a first run shows it:
// the public site's home page and the admin app with a post open. A plain run checks what
// they show; `UPDATE_SCREENSHOTS=1` also writes them to docs/screenshots/ after a visible change.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminForFile, openFromTree, screenshot } from '../helpers/browser.ts';
import { PROJECT_DIR, waitFor } from '../helpers/server.ts';

const SITE_FRAME = { width: 1000, height: 640 };
// A common laptop's width: the top bar, the note bar and the right panel all fit in it.
const ADMIN_FRAME = { width: 1280, height: 760 };
const POST = 'Posts/Notes-on-publishing.md';

const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-readme-',
  prepare: async ({ vault }) => {
    await fs.cp(path.join(PROJECT_DIR, 'example-vault'), vault, { recursive: true });
  },
});

describe("the README's screenshots", () => {
  it("the public site: the example vault's home page, its name, search and newest post", { timeout: 60_000 }, async () => {
    await waitFor(async () => ((await (await fetch(server.url + '/')).text()).includes('href="/Posts/Notes-on-publishing"') ? true : null), 30_000, 200);
    const context = await browser.newContext({ viewport: SITE_FRAME, colorScheme: 'light', reducedMotion: 'reduce' });
    try {
      const page = await context.newPage();
      await page.goto(server.url + '/');
      await page.evaluate(() => document.fonts.ready);
      expect(await page.locator('.s-masthead .s-site-name').textContent()).toBe('Notes from the vault');
      expect(await page.locator('.s-masthead .s-search-input').isVisible()).toBe(true);
      expect(await page.locator('.s-post-link', { hasText: 'Notes on publishing' }).first().isVisible()).toBe(true);
      await screenshot(page, 'site', true);
    } finally {
      await context.close();
    }
  });

  it('the admin app: the file tree, a published post open in the editor, the right panel', async () => {
    const { page } = main;
    await page.setViewportSize(ADMIN_FRAME);
    await openFromTree(page, POST);
    await page.locator('.editor-container:not([hidden]) .cm-content', { hasText: 'title: Notes on publishing' }).waitFor();
    await expect(page.getByText('Published', { exact: true }).first().isVisible()).resolves.toBe(true);
    await expect(page.getByRole('heading', { name: 'Backlinks' }).or(page.getByText('Backlinks', { exact: true })).first().isVisible()).resolves.toBe(true);
    await page.evaluate(() => document.fonts.ready);
    await screenshot(page, 'admin', true);
  });
});
