// In the Arabic interface a vault's own names keep their direction, in a real browser: the
// tree, a tab, the note bar's path, a search result's path and the trash show `_Inbox` and
// `(Draft) Plan` as written, not `Inbox_` and `Draft) Plan)` as a right-to-left line puts
// their leading punctuation; an Arabic name stays right to left.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminForFile, drawnOrder, openAdmin, openFromTree, screenshot } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const { server, browser } = adminForFile({
  prefix: 'vs-e2e-names-dir-',
  prepare: async ({ vault }) => {
    await writeFiles(vault, {
      'Home.md': '---\npublish: true\n---\nWelcome.\n',
      '_Inbox/(Draft) Plan.md': 'A plan about gardens.\n',
      'ملاحظات/مقالة.md': 'نص عن الحدائق.\n',
      '_Old/(Copy) Gone.md': 'To the trash.\n',
    });
    return {};
  },
});

async function arabicAdmin(): Promise<Page> {
  await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
  const { page } = await openAdmin(browser, server, { viewport: { width: 1280, height: 900 } });
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dir)) === 'rtl');
  return page;
}

describe('vault names in the Arabic interface', () => {
  it('the tree, a tab and the note bar draw a name with leading punctuation as written', async () => {
    const page = await arabicAdmin();
    await openFromTree(page, '_Inbox/(Draft) Plan.md');
    const row = (p: string) => page.locator(`.tree-row[data-path="${p}"] .name`);
    expect(await drawnOrder(row('_Inbox'), '_I')).toBe('before');
    expect(await drawnOrder(row('_Inbox/(Draft) Plan.md'), '(D')).toBe('before');
    expect(await drawnOrder(page.locator('.tab.active [role="tab"]'), '(D')).toBe('before');
    expect(await drawnOrder(page.locator('.note-bar .note-path'), '_I')).toBe('before');
    // An Arabic name is drawn right to left: its first letter on the right.
    await page.locator('.tree-row[data-path="ملاحظات"]').click();
    expect(await drawnOrder(row('ملاحظات/مقالة.md'), 'مق')).toBe('after');
    await screenshot(page, 'names-direction-arabic');
  });

  it('a search result and a trash entry draw their paths as written', async () => {
    const page = await arabicAdmin();
    await page.keyboard.press('Control+Shift+F');
    const pane = page.getByTestId('search-pane');
    await pane.getByRole('combobox').fill('gardens');
    const result = pane.locator('.search-results li[data-path="_Inbox/(Draft) Plan.md"] .search-path');
    await result.waitFor();
    expect(await drawnOrder(result, '_I')).toBe('before');
    expect((await server.admin('DELETE', `/api/note?path=${encodeURIComponent('_Old/(Copy) Gone.md')}`)).status).toBe(200);
    await page.locator('.top-bar nav.views button').nth(3).click();
    const entry = page.locator('.trash-list li', { hasText: 'Gone' });
    await entry.waitFor();
    expect(await drawnOrder(entry.locator('strong'), '(C')).toBe('before');
    expect(await drawnOrder(entry.locator('small'), '_O')).toBe('before');
  });
});
