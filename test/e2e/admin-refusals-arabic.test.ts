// The Arabic admin says what the server refused, and why a sync failed, in Arabic: the app
// words the refusal's code and figures (and the pass's words) itself, git's own line kept as
// git wrote it; the answer keeps the server's English for API users, and the English admin
// shows that same sentence. Real server, real git, real Chromium.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminForFile, clearToasts, openAdmin, screenshot, SHOTS_WANTED } from '../helpers/browser.ts';
import { git } from '../helpers/git-remotes.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-refusals-arabic-',
  prepare: async ({ vault }) => {
    await writeFiles(vault, { 'Plan.md': 'The plan.\n', 'Ideas.md': 'Some ideas.\n' });
    git(vault, 'init', '-q', '--initial-branch=main');
    return {};
  },
});

/** Without the marks that keep a name whole inside the sentence. */
const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '');

/** Shows the file tree (a preference may fold it; at 360 px it is a drawer) until `row` shows. */
async function showRow(page: Page, rowPath: string): Promise<void> {
  const toggle = page.locator('.top-bar button.icon[aria-pressed]').first();
  await toggle.waitFor();
  const row = page.locator(`.tree-row[data-path="${rowPath}"]`);
  for (let tries = 0; tries < 10 && !(await row.isVisible()); tries++) {
    if ((await toggle.getAttribute('aria-pressed')) !== 'true') await toggle.click();
    await row.waitFor({ timeout: 1000 }).catch(() => {});
  }
  await row.waitFor();
}

/** Renames Plan.md onto Ideas.md through the row's menu: the server's answer and the toast the app shows. */
async function renameOntoIdeas(page: Page, menuItem: string): Promise<{ status: number; body: Record<string, unknown>; toast: string }> {
  await clearToasts(page);
  await showRow(page, 'Plan.md');
  await page.locator('.tree-line:has(.tree-row[data-path="Plan.md"]) .row-actions').click();
  await page.getByRole('menuitem', { name: menuItem }).click();
  const input = page.locator('.modal input');
  await input.fill('Ideas');
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/note/rename'));
  await input.press('Enter');
  const res = await answer;
  const toast = page.locator('.toast.error').first();
  await toast.waitFor();
  return { status: res.status(), body: await res.json(), toast: plain(await toast.locator('span').first().textContent()) };
}

async function inArabic<T>(work: (page: Page) => Promise<T>, options: Parameters<typeof openAdmin>[2] = {}): Promise<T> {
  await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
  const { page, context } = await openAdmin(browser, server, options);
  try {
    await waitFor(async () => (await page.evaluate(() => document.documentElement.dir)) === 'rtl');
    return await work(page);
  } finally {
    await context.close();
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
  }
}

describe("a refusal in the admin's language", () => {
  it('English shows the server’s sentence', async () => {
    const { status, body, toast } = await renameOntoIdeas(main.page, 'Rename…');
    expect(status).toBe(409);
    expect(body).toMatchObject({ code: 'exists', reason: 'taken', path: 'Ideas.md', error: 'Ideas.md already exists: choose another name.' });
    expect(toast).toBe(body.error);
    await clearToasts(main.page);
  });

  it('Arabic says it in Arabic, from the code and the name the answer carries', async () => {
    await inArabic(async (page) => {
      const { status, body, toast } = await renameOntoIdeas(page, 'إعادة تسمية…');
      expect(status).toBe(409);
      // The server's English stays in the answer for API users.
      expect(body.error).toBe('Ideas.md already exists: choose another name.');
      expect(toast).toBe('«Ideas.md» موجود من قبل: اختر اسمًا آخر.');
    });
  }, 60_000);

  it('screenshots: the Arabic refusal toast at 360 px, light and dark', { timeout: 90_000 }, async () => {
    for (const colorScheme of SHOTS_WANTED ? (['light', 'dark'] as const) : (['light'] as const)) {
      await inArabic(
        async (page) => {
          const { toast } = await renameOntoIdeas(page, 'إعادة تسمية…');
          expect(toast).toBe('«Ideas.md» موجود من قبل: اختر اسمًا آخر.');
          // The toast whole inside the narrow window.
          const box = (await page.locator('.toast.error').first().boundingBox())!;
          expect(box.x).toBeGreaterThanOrEqual(0);
          expect(box.x + box.width).toBeLessThanOrEqual(360);
          await screenshot(page, `refusal-toast-arabic-360-${colorScheme}`);
        },
        { viewport: { width: 360, height: 760 }, colorScheme },
      );
    }
  });
});

describe("a failed sync in the admin's language", () => {
  it('Arabic says why the pass failed and what to check; git’s own line stays as git wrote it', async () => {
    // Nothing listens on port 9: git cannot connect.
    expect((await server.admin('PATCH', '/api/settings', { sync: { enabled: true, remoteUrl: 'https://127.0.0.1:9/vault.git' } })).status).toBe(200);
    await inArabic(async (page) => {
      await page.keyboard.press('Control+k');
      await page.locator('.palette input').fill('النسخ');
      await page.keyboard.press('Enter');
      const panel = page.getByTestId('sync-panel');
      await panel.waitFor();
      // Opening the app with backup on starts a pass (spec 8): its result shows in the panel first.
      const last = panel.locator('[data-field="last"]');
      await waitFor(async () => plain(await last.textContent()).includes('فشلت المزامنة.'), 30_000);
      await waitFor(async () => (await page.getByTestId('sync-indicator').getAttribute('data-state')) !== 'running', 30_000);
      await clearToasts(page);
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/sync/now'));
      await panel.getByRole('button', { name: 'زامن الآن' }).click();
      const body = await (await answer).json();
      // The answer keeps the English sentence for API users.
      expect(body.message).toMatch(/^Sync failed\. The remote did not answer: .* Git said: /);
      const line = String(body.error);
      expect(line).toMatch(/127\.0\.0\.1/);
      const said = `فشلت المزامنة. لم يُجب المستودع البعيد: تحقّق من عنوانه، ومن أن هذا الخادم يصل إليه. قال git: ${line}`;
      const toast = page.locator('.toast.error').first();
      await toast.waitFor();
      expect(plain(await toast.locator('span').first().textContent())).toBe(said);
      await waitFor(async () => plain(await last.textContent()).endsWith(said));
      expect(plain(await panel.locator('[data-field="git-error"]').textContent())).toBe(line);
    });
  }, 90_000);
});
