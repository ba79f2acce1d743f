// Issue 16, defects 2–6: the admin app's first ten minutes as an Obsidian user lives
// them, in a real browser against the real server. Each test failed on the code
// before the issue was fixed.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { editorText, ensureUiBuilt, launchBrowser, openAdmin, openFromTree, shotIfFailed, type AdminPage } from '../helpers/browser.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let server: TestServer;
let browser: Browser;
let main: AdminPage;
let vault: string;

const ENGLISH = '---\ntitle: Safety nets\ntags: [backup]\n---\n## Two safety nets\n\nVersions and git.\n\nسطر عربي في ملاحظة إنجليزية.\n';
const ARABIC = '---\ntitle: ملاحظة\n---\n## شبكتا أمان\n\nالنسخ و git.\n\nAn English line.\n';

beforeAll(async () => {
  await ensureUiBuilt();
  const base = await tempDir('vs-e2e-first-');
  vault = path.join(base, 'vault');
  await writeFiles(vault, {
    'Writing in Markdown.md': '---\npublish: true\n---\n# Writing in Markdown\n',
    'Linker.md': 'Read [[Writing in Markdown]] and [[Writing in Markdown#Lists|lists]].\n',
    'Safety nets.md': ENGLISH,
    'عربي.md': ARABIC,
    'Templates/Default.md': '---\ntags: [draft]\n---\n# {{title}}\n\n',
  });
  server = await startServer({ vault, data: path.join(base, 'data') });
  browser = await launchBrowser();
  main = await openAdmin(browser, server);
});

afterEach(async (ctx) => shotIfFailed(main?.page, ctx));

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await cleanupTempDirs();
});

const disk = (p: string) => fs.readFile(path.join(vault, p), 'utf8');
const exists = (p: string) => fs.stat(path.join(vault, p)).then(() => true, () => false);

async function rowAction(page: Page, rowPath: string, action: string): Promise<void> {
  await page.locator(`.tree-line:has(.tree-row[data-path="${rowPath}"]) .row-actions`).click();
  await page.getByRole('menuitem', { name: action }).click();
}

/** Each editor line's text and computed direction. */
const lineDirections = (page: Page) =>
  page
    .locator('.editor-container:not([hidden]) .cm-content')
    .evaluate((el) => [...el.querySelectorAll('.cm-line')].map((l) => [(l as HTMLElement).textContent, getComputedStyle(l).direction]));

describe('defect 2: rename keeps the extension, and link rewrites never write .md', () => {
  it('the rename box holds the name without .md; the note stays a note and links follow it, both ways', async () => {
    const { page } = main;
    await openFromTree(page, 'Linker.md');
    const toasts: string[] = [];
    page.on('console', () => undefined);
    await page.exposeFunction('__toast', (t: string) => toasts.push(t)).catch(() => undefined);
    await page.evaluate(() => {
      new MutationObserver(() => {
        for (const el of document.querySelectorAll('.toast span')) (window as any).__toast(el.textContent);
      }).observe(document.body, { childList: true, subtree: true });
    });

    await rowAction(page, 'Writing in Markdown.md', 'Rename…');
    const box = page.locator('.modal input');
    expect(await box.inputValue()).toBe('Writing in Markdown');
    await box.fill('Markdown basics');
    await box.press('Enter');
    await page.locator('.tree-row[data-path="Markdown basics.md"]').waitFor();
    expect(await exists('Markdown basics.md')).toBe(true);
    await waitFor(async () => (await disk('Linker.md')) === 'Read [[Markdown basics]] and [[Markdown basics#Lists|lists]].\n');
    // The open note takes the app's own rewrite in quietly.
    await waitFor(async () => (await editorText(page)) === 'Read [[Markdown basics]] and [[Markdown basics#Lists|lists]].\n');

    await rowAction(page, 'Markdown basics.md', 'Rename…');
    await page.locator('.modal input').fill('Writing in Markdown');
    await page.locator('.modal input').press('Enter');
    await page.locator('.tree-row[data-path="Writing in Markdown.md"]').waitFor();
    await waitFor(async () => (await disk('Linker.md')) === 'Read [[Writing in Markdown]] and [[Writing in Markdown#Lists|lists]].\n');
    await waitFor(async () => (await editorText(page)).startsWith('Read [[Writing in Markdown]]'));
    await page.waitForTimeout(600);
    // Defect 6: the app's own link rewrite is not "changed elsewhere and reloaded".
    expect(toasts.filter((t) => /changed elsewhere/.test(t))).toEqual([]);
  });
});

describe('defect 3: each line takes its direction from its own text; frontmatter is left-to-right', () => {
  for (const ui of ['ar', 'en'] as const) {
    it(`in the ${ui === 'ar' ? 'Arabic' : 'English'} interface, an English note and an Arabic note each run their own way`, async () => {
      expect((await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: ui } })).status).toBe(200);
      const { context, page } = await openAdmin(browser, server);
      try {
        await waitFor(async () => (await page.evaluate(() => document.documentElement.dir)) === (ui === 'ar' ? 'rtl' : 'ltr'));
        await openFromTree(page, 'Safety nets.md');
        const english = Object.fromEntries((await lineDirections(page)) as [string, string][]);
        expect(english['---']).toBe('ltr');
        expect(english['title: Safety nets']).toBe('ltr');
        expect(english['tags: [backup]']).toBe('ltr');
        expect(english['## Two safety nets']).toBe('ltr');
        expect(english['سطر عربي في ملاحظة إنجليزية.']).toBe('rtl');

        await openFromTree(page, 'عربي.md');
        const arabic = Object.fromEntries((await lineDirections(page)) as [string, string][]);
        expect(arabic['title: ملاحظة']).toBe('ltr');
        expect(arabic['## شبكتا أمان']).toBe('rtl');
        expect(arabic['النسخ و git.']).toBe('rtl');
        expect(arabic['An English line.']).toBe('ltr');
      } finally {
        await context.close();
      }
    });
  }
  afterAll(async () => {
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
  });
});

describe('defect 4: a new note opens with the cursor in its body, from the default template', () => {
  it('typing right after creating a note lands in its body; the template from Templates/Default.md is filled in', async () => {
    const { page } = main;
    await page.locator('.tree .pane-head button[aria-label="New note"]').click();
    await page.locator('.modal input').fill('Fresh idea');
    await page.locator('.modal input').press('Enter');
    await page.locator('.tab.active [role="tab"][title="Fresh idea.md"]').waitFor();
    await page.keyboard.type('Typed at once, with spaces.');
    await waitFor(async () => (await disk('Fresh idea.md').catch(() => '')).includes('Typed at once'));
    expect(await disk('Fresh idea.md')).toBe('---\ntags: [draft]\n---\n# Fresh idea\n\nTyped at once, with spaces.');
    expect(await page.locator('.modal').count()).toBe(0);
  });
});
