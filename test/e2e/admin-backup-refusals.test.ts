// Backup & sync's remote URL and branch, refused by the git code, are said in the Arabic
// interface in Arabic (from the stable reason the server names, with its figures), beside
// the field; the English interface keeps the server's sentence. Real server, real Chromium.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ar } from '../../admin/ui/src/i18n-ar.ts';
import { adminForFile, clearToasts, openAdmin, screenshot } from '../helpers/browser.ts';
import { git } from '../helpers/git-remotes.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-backup-refusals-',
  prepare: async ({ vault }) => {
    await writeFiles(vault, { 'Home.md': '---\npublish: true\n---\nWelcome.\n' });
    git(vault, 'init', '-q', '--initial-branch=main');
    return {};
  },
});

/** Without the marks that keep a Latin fragment whole inside the Arabic sentence. */
const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '');

async function openBackup(page: Page): Promise<void> {
  await page.locator('.right-panel').waitFor();
  const toggle = page.locator('#panel-backup .section-toggle');
  if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  await page.getByTestId('sync-panel').waitFor();
}

/** Types `value` into the field, saves, and gives the 400's body and the sentence shown beside the field. */
async function refuse(page: Page, field: 'sync.remoteUrl' | 'sync.branch', value: string, save: string): Promise<{ body: Record<string, unknown>; shown: string; bar: string }> {
  const input = page.locator(`input[name="${field === 'sync.remoteUrl' ? 'remoteUrl' : 'branch'}"]`);
  // The branch is under the form's folded Advanced part.
  const advanced = page.getByTestId('sync-form').locator('details', { has: page.locator('input[name="branch"]') });
  if (field === 'sync.branch' && !(await advanced.evaluate((d) => (d as HTMLDetailsElement).open))) await advanced.locator('summary').click();
  await input.fill(value);
  const answer = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PATCH');
  await page.getByTestId('sync-save').getByRole('button', { name: save, exact: true }).click();
  const res = await answer;
  expect(res.status()).toBe(400);
  const error = page.getByTestId('sync-panel').locator(`[data-error-for="${field}"]`);
  await error.waitFor();
  return { body: await res.json(), shown: plain(await error.textContent()), bar: plain(await page.getByTestId('sync-save').getByRole('alert').textContent()) };
}

async function discard(page: Page, label: string): Promise<void> {
  await page.getByTestId('sync-save').getByRole('button', { name: label }).click();
  await page.getByTestId('sync-panel').locator('[data-error-for]').first().waitFor({ state: 'detached' });
}

describe("Backup & sync's refusals in the owner's language", () => {
  it('the server names why as a stable reason; English shows its sentence', async () => {
    const { page } = main;
    await openBackup(page);
    const { body, shown } = await refuse(page, 'sync.remoteUrl', 'file:///tmp/vault.git', 'Save');
    expect(body).toMatchObject({ code: 'bad_remote', field: 'sync.remoteUrl', reason: 'remote_scheme', scheme: 'file' });
    expect(shown).toBe('The file:// scheme is not allowed; use https:// or SSH.');
    await discard(page, 'Discard');
  });

  it('Arabic says each refusal in Arabic, beside the field and in the save bar', async () => {
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
    const { page, context } = await openAdmin(browser, server);
    try {
      await waitFor(async () => (await page.evaluate(() => document.documentElement.dir)) === 'rtl');
      await openBackup(page);
      const url = ar.remoteUrl;
      const branch = ar.branch;
      const cases: Array<['sync.remoteUrl' | 'sync.branch', string, string, string]> = [
        ['sync.remoteUrl', 'file:///tmp/vault.git', 'remote_scheme', `${url}: المخطط file:// غير مسموح به؛ استعمل https:// أو SSH.`],
        ['sync.remoteUrl', 'https://someone:secret@example.org/o/r.git', 'remote_credentials', `${url}: لا يجوز أن يحمل العنوان كلمة مرور أو رمز وصول؛ ضع الرمز في حقل رمز الوصول.`],
        ['sync.remoteUrl', '/srv/git/vault.git', 'remote_local_path', `${url}: استعمل عنوان https:// أو SSH (مثل git@host:owner/repo.git)، لا مسارًا محليًا.`],
        ['sync.branch', 'main..next', 'branch_dots', `${branch}: ليس اسم فرع صالحًا؛ «..» غير مسموح بها.`],
        ['sync.branch', 'HEAD', 'branch_reserved', `${branch}: ليس اسم فرع صالحًا؛ «HEAD» محجوز.`],
      ];
      for (const [field, value, reason, sentence] of cases) {
        const { body, shown, bar } = await refuse(page, field, value, 'احفظ');
        expect(body.reason, value).toBe(reason);
        // The server's English stays in the answer for API users.
        expect(body.error, value).toMatch(/^[A-Z"]/);
        expect(shown, value).toBe(sentence);
        expect(bar, value).toBe(sentence);
        if (reason === 'remote_scheme') {
          await clearToasts(page);
          await screenshot(page, 'sync-remote-refused-arabic');
        }
        await discard(page, 'تجاهل');
      }
    } finally {
      await context.close();
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
    }
  }, 90_000);
});

describe('screenshots of a refused remote URL', () => {
  it('light, dark and 360 px (Arabic above)', { timeout: 90_000 }, async () => {
    const shots: Array<[string, Parameters<typeof openAdmin>[2]]> = [
      ['light', {}],
      ['dark', { colorScheme: 'dark' }],
      ['360', { viewport: { width: 360, height: 780 } }],
    ];
    for (const [name, options] of shots) {
      const { page, context } = await openAdmin(browser, server, options);
      try {
        if (name === '360') {
          // On a phone the panel is a drawer, reached through the palette.
          await page.keyboard.press('Control+k');
          await page.locator('.palette input').fill('Backup');
          await page.keyboard.press('Enter');
          await page.getByTestId('sync-panel').waitFor();
        } else await openBackup(page);
        const { shown } = await refuse(page, 'sync.remoteUrl', 'file:///tmp/vault.git', 'Save');
        expect(shown).toBe('The file:// scheme is not allowed; use https:// or SSH.');
        await page.getByTestId('sync-panel').locator('[data-error-for="sync.remoteUrl"]').scrollIntoViewIfNeeded();
        await clearToasts(page);
        await screenshot(page, `sync-remote-refused-${name}`);
      } finally {
        await context.close();
      }
    }
  });
});
