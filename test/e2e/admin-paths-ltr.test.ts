// A vault path is left-to-right text wherever the admin shows it, in the Arabic (right to left)
// interface too: `ملاحظات/Note.md` reads folder first, on the left, as the vault writes it, in
// Site health (a note's heading and a warning's sentence), the search results, the trash and
// the note bar. One mechanism draws them all: ui/VaultPath.tsx, which Sentence uses for a path
// t() or a warning put in a left-to-right isolate. An owner saw Site health's paths in an Arabic
// sentence drawn folder last, on the right.
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminForFile, openAdmin, screenshot } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const post = (body: string) => `---\npublish: true\ndate: 2026-03-01\n---\n${body}\n`;

const { server, browser } = adminForFile({
  prefix: 'vs-e2e-paths-ltr-',
  prepare: async ({ vault }) => {
    await writeFiles(vault, {
      'Home.md': post('Welcome.'),
      'ملاحظات/Note.md': post('See [[Draft plan]] about gardens.'),
      'مسودات/Draft plan.md': 'Not out yet.\n',
      'مسودات/Old.md': 'To the trash.\n',
    });
    return {};
  },
});

const badge = (page: Page) => page.getByTestId('health-badge');

/**
 * How `path` is drawn inside `within`: the computed direction of the element holding its text,
 * and whether its folder comes first, on the left (the `/` before `next` left of `next`).
 */
async function drawn(within: Locator, path: string, next: string): Promise<{ direction: string; folderFirst: boolean }> {
  return within.evaluate(
    (el, [p, pair]) => {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
        const at = node.data.indexOf(p!);
        if (at < 0) continue;
        const slash = at + p!.indexOf(pair!);
        const x = (i: number) => {
          const range = document.createRange();
          range.setStart(node!, i);
          range.setEnd(node!, i + 1);
          return range.getBoundingClientRect().x;
        };
        return { direction: getComputedStyle(node.parentElement!).direction, folderFirst: x(slash) < x(slash + 1) };
      }
      throw new Error(`no "${p}" in ${el.outerHTML.slice(0, 300)}`);
    },
    [path, `/${next}`],
  );
}

const LTR = { direction: 'ltr', folderFirst: true };

async function arabicAdmin(options: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
  const { page } = await openAdmin(browser, server, { viewport: { width: options.width ?? 1280, height: 900 }, colorScheme: options.colorScheme });
  await waitFor(async () => (await page.evaluate(() => document.documentElement.dir)) === 'rtl');
  return page;
}

async function openHealth(page: Page): Promise<void> {
  await waitFor(async () => (await badge(page).count()) > 0, 30_000);
  await badge(page).click();
  await page.locator('.health-note[data-path="ملاحظات/Note.md"] .health-message').waitFor({ timeout: 20_000 });
}

describe('vault paths in the Arabic admin', () => {
  it("Site health draws each path left to right: a note's heading and the path in a warning's sentence", async () => {
    const page = await arabicAdmin();
    await openHealth(page);
    const note = page.locator('.health-note[data-path="ملاحظات/Note.md"]');
    expect(await drawn(note.locator('h2'), 'ملاحظات/Note.md', 'N')).toEqual(LTR);
    expect(await drawn(note.locator('.health-message'), 'مسودات/Draft plan.md', 'D')).toEqual(LTR);
    // A title stays in its own direction: only paths are made left to right.
    expect(await note.locator('.health-message bdi[dir="auto"]').first().textContent()).toBe('Draft plan');
    await screenshot(page, 'paths-ltr-health-arabic');
    await page.context().close();
  });

  it('a search result, the note bar and a trash entry draw their paths left to right', async () => {
    const page = await arabicAdmin();
    await page.keyboard.press('Control+Shift+F');
    const pane = page.getByTestId('search-pane');
    await pane.getByRole('combobox').fill('gardens');
    const result = pane.locator('.search-results li[data-path="ملاحظات/Note.md"]');
    await result.waitFor();
    expect(await drawn(result, 'ملاحظات/Note.md', 'N')).toEqual(LTR);
    await result.click();
    expect(await drawn(page.locator('.note-bar'), 'ملاحظات/Note.md', 'N')).toEqual(LTR);
    expect((await server.admin('DELETE', `/api/note?path=${encodeURIComponent('مسودات/Old.md')}`)).status).toBe(200);
    await page.locator('.top-bar nav.views button').nth(3).click();
    const entry = page.locator('.trash-list li[data-path="مسودات/Old.md"]');
    await entry.waitFor();
    expect(await drawn(entry.locator('small'), 'مسودات/Old.md', 'O')).toEqual(LTR);
    await screenshot(page, 'paths-ltr-trash-arabic');
    await page.context().close();
  });

  it('holds at 360 px and in the dark theme', async () => {
    for (const options of [{ width: 360 }, { colorScheme: 'dark' as const }]) {
      const page = await arabicAdmin(options);
      await openHealth(page);
      expect(await drawn(page.locator('.health-note[data-path="ملاحظات/Note.md"] .health-message'), 'مسودات/Draft plan.md', 'D')).toEqual(LTR);
      await screenshot(page, `paths-ltr-health-arabic-${options.width ? '360' : 'dark'}`);
      await page.context().close();
    }
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
  });
});
