// CONTRACT §9's search dialog in a real browser, in both layouts: `/` (outside a text field)
// and Ctrl+K open it over the page, results come as one types from the same index as the
// search page, arrow keys and Enter open a note, Esc closes it and focus goes back; it keeps
// Tab inside, and never shows a draft. Screenshots (light, dark, 360 px, Arabic) land in
// test-artifacts/.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blogForFile, screenshot } from '../helpers/browser.ts';
import { GARDEN_FILES } from '../fixtures/garden/vault.ts';

const settings = { siteName: 'Garden', homeNote: 'Home' };

const note = (title: string, body: string) => `---\npublish: true\ntitle: ${title}\n---\n\n${body}\n`;

const { blog: site, browser } = blogForFile({
  fixture: false,
  files: {
    ...GARDEN_FILES,
    'Guide/Planning.md': note('Planning ahead', 'A zebraplan for the season: sow, water, wait.'),
    'Guide/Planting.md': note('Planting out', 'The zebraplan again, second: seedlings go out in May.'),
    'Drafts/Plan draft.md': '---\npublish: false\ntitle: Draft zebraplan notes\n---\n\nThe zebraplan nobody may read.\n',
    'عربي/حديقة.md': note('حديقة المدينة', 'تزرع الحديقة zebraplan في الربيع.'),
    'Notes/知识.md': note('Obsidian知识图谱', '我的个人知识库搭建，整理完善想法。'),
  },
  env: { PUBLIC_LAYOUT: 'default' },
  settings,
});

async function open(route: string, options: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1100, height: 800 }, colorScheme: options.colorScheme ?? 'light' });
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[browser error] ${err.message}\n`));
  await page.goto(site.url + route);
  await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
  return page;
}

const dialogOpen = (page: Page) => page.evaluate(() => document.querySelector<HTMLDialogElement>('dialog.s-search-dialog')?.open ?? false);
const focusInDialog = (page: Page) => page.evaluate(() => document.activeElement?.closest('dialog.s-search-dialog') !== null);
const focused = (page: Page) => page.evaluate(() => document.activeElement?.matches('dialog.s-search-dialog input[name="q"]') ?? false);

/** The dialog's result titles once it has answered the query in its field. */
async function results(page: Page): Promise<string[]> {
  await page.waitForFunction(() => document.querySelector<HTMLElement>('dialog.s-search-dialog')?.dataset.state === 'done');
  return page.evaluate(() => [...document.querySelectorAll('dialog.s-search-dialog .s-result-title a')].map((a) => a.textContent!));
}

describe('CONTRACT §9: the search dialog, garden layout', () => {
  it('`/` opens it with the cursor in its field; typing shows results; ArrowDown then Enter lands on the note', async () => {
    const fetched: string[] = [];
    const page = await open('/Guide/Install');
    page.on('request', (req) => fetched.push(new URL(req.url()).pathname));
    await page.mouse.wheel(0, 300);
    expect(await dialogOpen(page)).toBe(false);
    // A page read without searching downloads nothing of search: MiniSearch and the index come with the dialog.
    expect(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname).filter((p) => /search/.test(p)))).toEqual([]);
    await page.keyboard.press('/');
    expect(await dialogOpen(page)).toBe(true);
    expect(await focused(page)).toBe(true);
    // Typed at once: search.js may still be loading; what was typed is searched when it is in.
    await page.keyboard.type('tuning');
    expect(await results(page)).toEqual(['Tuning', 'Install']);
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Tuning');
    await page.keyboard.press('ArrowDown');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Install');
    // The search page's script and index files, nothing else: its manifest, field lengths, the word's shard, the rows.
    expect(fetched.filter((p) => /search/.test(p)).every((p) => /^\/_s\/search[./]|^\/search\.json$/.test(p))).toBe(true);
    expect(fetched.filter((p) => p === '/search.json')).toHaveLength(1);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/Guide\/Advanced\/Tuning$/);
    expect(await page.locator('h1.s-title').textContent()).toBe('Tuning');
    await page.context().close();
  });

  it('Ctrl+K opens it even from a text field, Esc closes it and focus goes back there; `/` typed in a field stays text', async () => {
    const page = await open('/Guide/Install');
    const masthead = page.locator('.s-masthead-search input[name="q"]');
    await masthead.focus();
    await page.keyboard.type('a/b');
    expect(await masthead.inputValue()).toBe('a/b');
    expect(await dialogOpen(page)).toBe(false);
    await page.keyboard.press('Control+k');
    expect(await dialogOpen(page)).toBe(true);
    expect(await focused(page)).toBe(true);
    await page.keyboard.type('zebraplan');
    expect((await results(page)).length).toBeGreaterThan(0);
    await page.keyboard.press('Escape');
    expect(await dialogOpen(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.matches('.s-masthead-search input[name="q"]'))).toBe(true);
    // Reopened, it keeps the query, selected, and its results.
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => {
      const input = document.activeElement as HTMLInputElement;
      return [input.value, input.selectionStart, input.selectionEnd];
    })).toEqual(['zebraplan', 0, 9]);
    await page.context().close();
  });

  it('keeps Tab inside while open; a click on the backdrop or its close button closes it', async () => {
    const page = await open('/Guide/Install');
    await page.keyboard.press('/');
    await page.keyboard.type('zebraplan');
    await results(page);
    for (let i = 0; i < 8; i++) {
      await page.keyboard.press(i % 3 === 2 ? 'Shift+Tab' : 'Tab');
      expect(await focusInDialog(page), `after Tab ${i}`).toBe(true);
    }
    await page.mouse.click(5, 790);
    expect(await dialogOpen(page)).toBe(false);
    await page.keyboard.press('/');
    await page.locator('.s-search-close').click();
    expect(await dialogOpen(page)).toBe(false);
    await page.context().close();
  });

  it('a draft never appears in its results', async () => {
    const page = await open('/');
    await page.keyboard.press('/');
    await page.keyboard.type('zebraplan');
    // The published notes holding the word are found: the draft holding it too is not.
    expect((await results(page)).sort()).toEqual(['Planning ahead', 'Planting out', 'حديقة المدينة']);
    expect(await page.locator('dialog.s-search-dialog').textContent()).not.toContain('Draft zebraplan');
    await page.context().close();
  });

  it('finds a Chinese word inside a clause written without spaces, and marks it in the passage', async () => {
    const page = await open('/');
    await page.keyboard.press('/');
    await page.keyboard.type('知识库');
    expect(await results(page)).toEqual(['Obsidian知识图谱']);
    await page.waitForFunction(() => document.querySelector('dialog.s-search-dialog .s-result-passage mark') !== null);
    expect(await page.evaluate(() => [...document.querySelectorAll('dialog.s-search-dialog .s-result-passage mark')].map((m) => m.textContent))).toEqual(['知识库']);
    await page.context().close();
  });

  it('Enter in the field opens the first result; the form button leads to the search page', async () => {
    const page = await open('/');
    await page.keyboard.press('/');
    await page.keyboard.type('seedlings');
    expect(await results(page)).toEqual(['Planting out']);
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/Guide\/Planting$/);
    await page.keyboard.press('/');
    await page.locator('dialog.s-search-dialog input[name="q"]').fill('zebraplan');
    await results(page);
    await page.locator('dialog.s-search-dialog .s-search-go').click();
    await page.waitForURL(/\/search\?q=zebraplan$/);
    // On the search page, `/` and Ctrl+K put the cursor in its own field: no dialog there.
    expect(await page.locator('dialog.s-search-dialog').count()).toBe(0);
    await page.locator('h1').click();
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => document.activeElement?.matches('.s-search-page-form input[name="q"]'))).toBe(true);
    await page.context().close();
  });

  it('screenshots: light, dark, 360 px', async () => {
    for (const [name, options] of [
      ['search-dialog-garden-light', {}],
      ['search-dialog-garden-dark', { colorScheme: 'dark' }],
      ['search-dialog-garden-360', { width: 360 }],
    ] as const) {
      const page = await open('/Guide/Install', options);
      await page.keyboard.press('/');
      await page.keyboard.type('zebraplan');
      await results(page);
      await page.waitForFunction(() => [...document.querySelectorAll('dialog .s-result')].every((r) => r.querySelector('.s-result-passage')?.hasChildNodes() ?? true));
      const box = await page.locator('dialog.s-search-dialog').boundingBox();
      const width = options.width ?? 1100;
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(width);
      await screenshot(page, name);
      await page.context().close();
    }
  });
});

describe('the search dialog in the blog layout, and in Arabic', () => {
  it('opens with `/` and leads to a note by keyboard in the blog layout', async () => {
    await site.writeSettings({ ...settings, publishing: { layout: 'blog' } });
    await site.waitForPage('/Guide/Install', (p) => p.text.includes('class="s-layout-blog"'));
    const page = await open('/Guide/Install');
    await page.keyboard.press('/');
    await page.keyboard.type('seedlings');
    expect(await results(page)).toEqual(['Planting out']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/Guide\/Planting$/);
    await page.context().close();
  });

  it('mirrors in an Arabic site: the field on the right, each result in its own direction', async () => {
    await site.writeSettings({ ...settings, language: 'ar' });
    await site.waitForPage('/Guide/Install', (p) => p.text.includes('<html lang="ar" dir="rtl"'));
    const page = await open('/Guide/Install');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('zebraplan');
    expect((await results(page)).length).toBe(3);
    // The Latin query is isolated in the Arabic sentence, so it keeps its place in it.
    expect(await page.locator('dialog .s-search-status').textContent()).toBe('النتائج لـ«zebraplan»: 3');
    expect(await page.locator('dialog .s-search-status bdi').textContent()).toBe('zebraplan');
    const layout = await page.evaluate(() => {
      const dialog = document.querySelector('dialog.s-search-dialog')!;
      const field = dialog.querySelector('input[name="q"]')!.getBoundingClientRect();
      const close = dialog.querySelector('.s-search-close')!.getBoundingClientRect();
      const arabic = [...dialog.querySelectorAll<HTMLElement>('.s-result')].find((r) => r.lang === 'ar');
      return { direction: getComputedStyle(dialog).direction, closeLeftOfField: close.right <= field.left, arabicDir: arabic?.dir };
    });
    expect(layout).toEqual({ direction: 'rtl', closeLeftOfField: true, arabicDir: 'rtl' });
    await page.waitForFunction(() => [...document.querySelectorAll('dialog .s-result')].every((r) => r.querySelector('.s-result-passage')?.hasChildNodes() ?? true));
    await screenshot(page, 'search-dialog-arabic');
    await page.context().close();
  });
});
