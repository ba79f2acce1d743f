// Text not yet on disk is never thrown away without asking (spec 3.6, 4.4): closing a tab
// whose saves fail or whose note is in conflict asks first, and reloading or closing the
// window while a note is unsaved raises the browser's leave-page question. A note whose file
// is read-only on disk opens read-only, and text typed before it became so stays.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AUTOSAVE_DELAY_MS } from '../../admin/ui/src/editor/session.ts';
import { adminForFile, clearToasts, editorText, openAdmin, openFromTree, openQuietAdmin, pageClockPassed, recordFetches, screenshot, type AdminPage } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

let vault: string;

const { server, browser } = adminForFile({
  prefix: 'vs-e2e-unsaved-',
  prepare: async (dirs) => {
    vault = dirs.vault;
    await writeFiles(vault, {
      'Notes/Offline.md': 'Offline: original line.\n',
      'Notes/Clash.md': 'Clash: original line.\n',
      'Notes/Fine.md': 'Fine: original line.\n',
      'Notes/Leave.md': 'Leave: original line.\n',
      'Notes/Arabic.md': 'Arabic: original line.\n',
      'Notes/Locked.md': '---\npublish: false\n---\nLocked: original line.\n',
      'Notes/Later.md': 'Later: original line.\n',
    });
  },
});

const disk = (p: string) => fs.readFile(path.join(vault, p), 'utf8');

async function typeAtEnd(page: Page, text: string): Promise<void> {
  await page.locator('.editor-container:not([hidden]) .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

const tab = (page: Page, p: string) => page.locator(`.tab [role="tab"][title="${p}"]`);
const closeButton = (page: Page, p: string) => page.locator(`.tab:has([role="tab"][title="${p}"]) button.icon`);
const saveState = (page: Page) => page.locator('.note-bar .save-state').getAttribute('data-state');
const dialog = (page: Page) => page.getByRole('dialog');
const readOnlyStrip = (page: Page) => page.getByTestId('read-only-strip');
/** The answer to the next save of `note` from this page. */
const nextPut = (page: Page, note: string) => page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(encodeURIComponent(note)));

/** A window no `changed` event reaches: the server's event for a chmod would re-check it before the test does. */
const quietWindow = (): Promise<AdminPage> => openQuietAdmin(browser, server);

/** Every save of a note fails as if the server could not be reached. */
async function failSaves(page: Page): Promise<void> {
  await page.route(
    (url) => url.pathname === '/api/note',
    (route) => (route.request().method() === 'PUT' ? route.abort('internetdisconnected') : route.continue()),
  );
}

/** A note open with text typed that the server never took. */
async function unsavedNote(page: Page, p: string, typed: string): Promise<void> {
  await openFromTree(page, p);
  await failSaves(page);
  await typeAtEnd(page, typed);
  await waitFor(async () => (await saveState(page)) === 'error');
  await expect(page.locator('.note-bar .save-state').textContent()).resolves.toContain('Could not save: The server cannot be reached.');
}

describe('closing a tab whose text is not on disk asks first', () => {
  it('failing saves: × asks; Keep editing keeps the tab and the text; Close without saving closes it', async () => {
    const { context, page } = await openAdmin(browser, server);
    try {
      await unsavedNote(page, 'Notes/Offline.md', ' typed offline');
      await closeButton(page, 'Notes/Offline.md').click();
      await dialog(page).waitFor({ timeout: 5000 });
      await expect(dialog(page).locator('h2').textContent()).resolves.toBe('Offline has changes that are not saved. Close it and lose them?');
      // The focus starts on the answer that loses nothing.
      await waitFor(async () => (await page.evaluate(() => document.activeElement?.textContent)) === 'Keep editing');
      await clearToasts(page);
      await screenshot(page, 'unsaved-close-light');
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'unsaved-close-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 360, height: 740 });
      await screenshot(page, 'unsaved-close-360');
      await page.setViewportSize({ width: 1280, height: 800 });

      await page.getByRole('button', { name: 'Keep editing' }).click();
      await dialog(page).waitFor({ state: 'detached' });
      await expect(tab(page, 'Notes/Offline.md').count()).resolves.toBe(1);
      expect(await editorText(page)).toBe('Offline: original line.\n typed offline');

      await closeButton(page, 'Notes/Offline.md').click();
      await page.getByRole('button', { name: 'Close without saving' }).click();
      await tab(page, 'Notes/Offline.md').waitFor({ state: 'detached' });
      expect(await disk('Notes/Offline.md')).toBe('Offline: original line.\n');
    } finally {
      await context.close();
    }
  });

  it('a note in conflict (the strip shows): × asks, and Keep editing leaves the strip and my text', async () => {
    const { context, page } = await openAdmin(browser, server);
    try {
      await openFromTree(page, 'Notes/Clash.md');
      await typeAtEnd(page, 'MINE');
      await fs.writeFile(path.join(vault, 'Notes/Clash.md'), 'Clash: THEIRS from another program.\n');
      await page.getByTestId('conflict-strip').waitFor();
      await closeButton(page, 'Notes/Clash.md').click();
      await dialog(page).waitFor({ timeout: 5000 });
      await page.getByRole('button', { name: 'Keep editing' }).click();
      await dialog(page).waitFor({ state: 'detached' });
      await page.getByTestId('conflict-strip').waitFor();
      expect(await editorText(page)).toBe('Clash: original line.\nMINE');
      await closeButton(page, 'Notes/Clash.md').click();
      await page.getByRole('button', { name: 'Close without saving' }).click();
      await tab(page, 'Notes/Clash.md').waitFor({ state: 'detached' });
      expect(await disk('Notes/Clash.md')).toBe('Clash: THEIRS from another program.\n');
    } finally {
      await context.close();
    }
  });

  it('a note whose text reaches the disk closes at once, without a question (pending typing is saved first)', async () => {
    const { context, page } = await openAdmin(browser, server);
    try {
      await openFromTree(page, 'Notes/Fine.md');
      await typeAtEnd(page, ' typed and closed');
      // Within the autosave delay: the close saves what is pending, then closes.
      await closeButton(page, 'Notes/Fine.md').click();
      await tab(page, 'Notes/Fine.md').waitFor({ state: 'detached' });
      expect(await dialog(page).count()).toBe(0);
      expect(await disk('Notes/Fine.md')).toBe('Fine: original line.\n typed and closed');
    } finally {
      await context.close();
    }
  });
});

describe('reloading or closing the window while a note is unsaved', () => {
  it('asks the browser’s leave-page question only while some note is not saved', async () => {
    const { context, page } = await openAdmin(browser, server);
    try {
      const asked: string[] = [];
      page.on('dialog', (d) => {
        asked.push(d.type());
        void d.dismiss();
      });
      await unsavedNote(page, 'Notes/Leave.md', ' typed before leaving');
      // Dismissed: the page stays, so this reload never finishes.
      void page.reload({ timeout: 5000 }).catch(() => undefined);
      await waitFor(async () => asked.length > 0);
      expect(asked).toEqual(['beforeunload']);
      expect(await editorText(page)).toBe('Leave: original line.\n typed before leaving');

      // The server is reachable again: the retry saves the text, and nothing is asked any more.
      await page.unrouteAll();
      await waitFor(async () => (await disk('Notes/Leave.md')) === 'Leave: original line.\n typed before leaving', 15_000);
      await waitFor(async () => (await saveState(page)) === 'saved');
      await page.reload();
      await page.locator('.app').waitFor();
      await pageClockPassed(page, 200);
      expect(asked).toEqual(['beforeunload']);
    } finally {
      await context.close();
    }
  });
});

describe('the question in the Arabic admin', () => {
  it('is asked in Arabic', async () => {
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
    const { context, page } = await openAdmin(browser, server);
    try {
      await openFromTree(page, 'Notes/Arabic.md');
      await failSaves(page);
      await typeAtEnd(page, ' typed');
      await waitFor(async () => (await saveState(page)) === 'error');
      // The reason the save failed is said in Arabic too, not in the browser's words or ours in English.
      await expect(page.locator('.note-bar .save-state').textContent()).resolves.toContain('تعذّر الوصول إلى الخادم.');
      await closeButton(page, 'Notes/Arabic.md').click();
      await dialog(page).waitFor({ timeout: 5000 });
      expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
      await expect(page.getByRole('button', { name: 'تابع التحرير' }).count()).resolves.toBe(1);
      await expect(page.getByRole('button', { name: 'أغلق دون حفظ' }).count()).resolves.toBe(1);
      await clearToasts(page);
      await screenshot(page, 'unsaved-close-arabic');
    } finally {
      await context.close();
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
    }
  });
});

describe('a note whose file is read-only on disk (no write permission, as Obsidian refuses to save it)', () => {
  const readOnlyStrip = (page: Page) => page.getByTestId('read-only-strip');

  it('opens read-only: the strip says so, typing changes nothing and no save is sent, Publish is off; made writable, Check again opens it and typing saves', async () => {
    const quiet = await quietWindow();
    try {
      const { page } = quiet;
      const file = path.join(vault, 'Notes/Locked.md');
      await fs.chmod(file, 0o444);
      const fetches = await recordFetches(page);
      await openFromTree(page, 'Notes/Locked.md');
      await readOnlyStrip(page).waitFor();
      expect(await page.locator('.editor-container:not([hidden]) .cm-content').getAttribute('aria-readonly')).toBe('true');
      expect(await page.getByTestId('publish-toggle').isDisabled()).toBe(true);
      await typeAtEnd(page, 'TYPED');
      await pageClockPassed(page, AUTOSAVE_DELAY_MS + 200);
      expect(await editorText(page)).toBe('---\npublish: false\n---\nLocked: original line.\n');
      expect((await fetches.calls()).filter((c) => c.startsWith('PUT '))).toEqual([]);

      await fs.chmod(file, 0o644);
      await readOnlyStrip(page).getByRole('button', { name: 'Check again' }).click();
      await waitFor(async () => (await readOnlyStrip(page).count()) === 0);
      const saved = nextPut(page, 'Notes/Locked.md');
      await typeAtEnd(page, 'Typed once writable.');
      expect((await saved).status()).toBe(200);
      await waitFor(async () => (await disk('Notes/Locked.md')).endsWith('Locked: original line.\nTyped once writable.'));
    } finally {
      await quiet.context.close();
    }
  });

  it('made read-only while open: the save is refused (409 read_only), the typed text stays in the editor and the strip shows; made writable, the next re-check saves it', async () => {
    const quiet = await quietWindow();
    try {
      const { page } = quiet;
      const file = path.join(vault, 'Notes/Later.md');
      await openFromTree(page, 'Notes/Later.md');
      await fs.chmod(file, 0o444);
      const refused = nextPut(page, 'Notes/Later.md');
      await typeAtEnd(page, 'Typed before anyone knew.');
      const answer = await refused;
      expect({ status: answer.status(), code: ((await answer.json()) as { code: string }).code }).toEqual({ status: 409, code: 'read_only' });
      await readOnlyStrip(page).waitFor();
      expect(await page.locator('.note-bar .save-state').getAttribute('data-state')).toBe('error');
      expect(await editorText(page)).toBe('Later: original line.\nTyped before anyone knew.');
      expect(await disk('Notes/Later.md')).toBe('Later: original line.\n');

      await fs.chmod(file, 0o644);
      const saved = nextPut(page, 'Notes/Later.md');
      // A window coming back into view re-checks its notes (spec 6), their permission with them.
      await page.evaluate(() => {
        Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
      });
      expect((await saved).status()).toBe(200);
      await waitFor(async () => (await disk('Notes/Later.md')) === 'Later: original line.\nTyped before anyone knew.');
      expect(await readOnlyStrip(page).count()).toBe(0);
    } finally {
      await quiet.context.close();
    }
  });
});
