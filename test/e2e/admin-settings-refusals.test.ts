// In a real browser against the real server: settings refuse nonsense (the site language
// is a list, a refusal is shown beside its field, labels speak the owner's words), and a
// vault that asks for backup is shown in the status bar and in Backup & sync, where only
// Allow applies it (CONTRACT §14), against a real git remote on loopback.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { adminForFile, clearToasts, openAdmin, screenshot, SHOTS_WANTED } from '../helpers/browser.ts';
import { bareRepo, git, startHttpsGitServer, type HttpsGitServer } from '../helpers/git-remotes.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

let remotes: string;
let https: HttpsGitServer;

const languageField = (page: Page) => page.locator('label[data-field="language"]');
const branchesOf = (repo: string) => git(path.join(remotes, repo), 'for-each-ref', '--format=%(refname)').split('\n').filter(Boolean);

async function openSettings(page: Page): Promise<void> {
  await page.locator('.top-bar nav.views button').first().waitFor();
  if ((await page.locator('.top-bar .views-menu').count()) > 0) {
    // At 360 px the views fold into one menu (Settings is its third item).
    await page.locator('.top-bar .views-menu').click();
    await page.getByRole('menuitem').nth(2).click();
  } else {
    await page.locator('.top-bar nav.views button').nth(2).click();
  }
  await page.getByTestId('settings-view').waitFor();
  await page.locator('[data-group="site"]').waitFor();
}

async function openBackupSection(page: Page): Promise<void> {
  // The right-hand panel belongs to the editor: from Settings, back to the editor first.
  if ((await page.getByTestId('settings-view').count()) > 0 && (await page.locator('.top-bar .views-menu').count()) === 0) {
    await page.locator('.top-bar nav.views button').first().click();
    await page.locator('.right-panel').waitFor();
  }
  const toggle = page.locator('#panel-backup .section-toggle');
  if (await toggle.isVisible()) {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  } else {
    await page.keyboard.press('Control+k');
    await page.locator('.palette input').fill('Backup');
    await page.keyboard.press('Enter');
  }
  await page.getByTestId('sync-panel').waitFor();
}

const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-settings-refusals-',
  prepare: async ({ base, vault }) => {
    remotes = path.join(base, 'remotes');
    await bareRepo(path.join(remotes, 'vault.git'));
    await fs.mkdir(path.join(base, 'certs'));
    https = await startHttpsGitServer({ root: remotes, certDir: path.join(base, 'certs'), username: 'anyone', token: null });
    await writeFiles(vault, {
      'Home.md': '---\npublish: true\n---\n# Home\n',
      'Private/Diary.md': 'Not for anyone else.\n',
      '.service/settings.json': JSON.stringify({ sync: { enabled: true, remoteUrl: https.url('vault.git'), branch: 'main' } }),
    });
    git(vault, 'init', '-q', '--initial-branch=main');
    git(vault, '-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
    git(vault, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'first');
    // A folder that is a repository of its own: Backup & sync says its notes are not backed up.
    await writeFiles(path.join(vault, 'Nested'), { 'Kept apart.md': 'apart\n' });
    git(path.join(vault, 'Nested'), 'init', '-q');
    return { env: { GIT_SSL_CAINFO: https.caFile } };
  },
  ready: (admin) => openSettings(admin.page),
});
afterAll(async () => {
  await https?.close();
});

describe('the site language is a list of languages (BCP 47)', () => {
  it('lists languages by their own names, and says where the default comes from in words', async () => {
    const select = languageField(main.page).locator('select[name="language"]');
    await select.locator('option[value="ja"]').waitFor({ state: 'attached' });
    const options = await select.locator('option').allTextContents();
    expect(options).toEqual(expect.arrayContaining(['English (en)', 'العربية (ar)', 'Français (fr)', '日本語 (ja)']));
    await expect(select.inputValue()).resolves.toBe('en');
    await expect(languageField(main.page).locator('.field-source').textContent()).resolves.toBe('Default: English (en), from the server’s configuration');
    expect(await languageField(main.page).textContent()).not.toContain('SITE_LANG');
  });

  it('every text field\'s refusal is a 400 whose sentence shows beside that field, and nothing is saved', async () => {
    const { page } = main;
    const before = (await server.admin('GET', '/api/settings')).body;
    const cases: Array<[string, string, RegExp]> = [
      ['siteName', 'x'.repeat(201), /^Site name must be at most 200 characters\.$/],
      ['tagline', 'y'.repeat(501), /^Tagline must be at most 500 characters\.$/],
      ['logo', 'http://example.org/logo.png', /^Logo must be an https:\/\/ address or a file in the vault\.$/],
      ['homeNote', '../outside.md', /^Home note: /],
      ['home.banner', 'ftp://example.org/b.png', /^Banner must be an https:\/\/ address or a file in the vault\.$/],
    ];
    for (const [field, value, sentence] of cases) {
      const label = page.locator(`label[data-field="${field}"]`);
      await label.locator('input').fill(value);
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PATCH');
      await page.getByTestId('settings-save').getByRole('button', { name: 'Save', exact: true }).click();
      const res = await answer;
      expect(res.status(), field).toBe(400);
      expect((await res.json()).field, field).toBe(field);
      const error = label.locator(`[data-error-for="${field}"]`);
      await error.waitFor();
      await expect(page.getByTestId('settings-save').getByRole('status').textContent()).resolves.toBe('1 unsaved change');
      await expect(error.textContent()).resolves.toMatch(sentence);
      // Only the refused field says so.
      expect(await page.getByTestId('settings-view').locator('[data-error-for]').count(), field).toBe(1);
      if (field === 'logo') {
        await error.scrollIntoViewIfNeeded();
        await screenshot(page, 'settings-logo-refused');
      }
      await page.getByTestId('settings-save').getByRole('button', { name: 'Discard' }).click();
      await error.waitFor({ state: 'detached' });
    }
    expect((await server.admin('GET', '/api/settings')).body).toEqual(before);
  });

  it('no label or hint in Settings names an environment variable, in English or in Arabic', async () => {
    const variable = /\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/;
    const view = main.page.getByTestId('settings-view');
    // Positive first: the hints that once named variables are there, in words.
    await expect(view.textContent()).resolves.toContain('Comments stay on this server, in its data folder');
    expect(await view.textContent()).not.toMatch(variable);
    // Preferences are said to be what they are: the owner's, travelling with the vault.
    await expect(view.locator('#group-device').textContent()).resolves.toBe('Your preferences (they travel with the vault when settings do)');
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
    const arabic = await openAdmin(browser, server);
    try {
      await openSettings(arabic.page);
      const text = await arabic.page.getByTestId('settings-view').textContent();
      expect(text).toContain('في مجلد بياناته');
      expect(text).not.toMatch(variable);
      // A refusal is said in Arabic too, beside its field, from the reason the server names.
      for (const [field, value, sentence] of [
        ['logo', 'http://example.org/logo.png', 'الشعار: يجب أن يكون عنوانًا يبدأ بـ https:// أو ملفًّا في الخزنة.'],
        ['siteName', 'x'.repeat(201), 'اسم الموقع: يجب ألّا يزيد على 200 حرفًا.'],
      ] as const) {
        const label = arabic.page.locator(`label[data-field="${field}"]`);
        await label.locator('input').fill(value);
        await arabic.page.getByTestId('settings-save').getByRole('button', { name: 'احفظ', exact: true }).click();
        const error = label.locator(`[data-error-for="${field}"]`);
        await error.waitFor();
        // (Without the marks that keep a Latin address whole inside the Arabic sentence.)
        const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '');
        expect(plain(await error.textContent())).toBe(sentence);
        expect(plain(await arabic.page.getByTestId('settings-save').getByRole('alert').textContent())).toBe(sentence);
        if (field === 'logo') {
          await error.scrollIntoViewIfNeeded();
          await screenshot(arabic.page, 'settings-logo-refused-arabic');
        }
        await arabic.page.getByTestId('settings-save').getByRole('button', { name: 'تجاهل' }).click();
        await error.waitFor({ state: 'detached' });
      }
    } finally {
      await arabic.context.close();
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
    }
  });

  it('"arabic" is refused with a 400, the sentence is shown beside the field, and nothing is saved', async () => {
    const { page } = main;
    // What an old or hostile client sends: a value the list does not hold.
    await page.locator('select[name="language"]').evaluate((el) => {
      const option = document.createElement('option');
      option.value = 'arabic';
      option.textContent = 'arabic';
      el.append(option);
    });
    await page.locator('select[name="language"]').selectOption('arabic');
    const answer = page.waitForResponse((r) => r.url().endsWith('/api/settings') && r.request().method() === 'PATCH');
    await page.getByTestId('settings-save').getByRole('button', { name: 'Save', exact: true }).click();
    const res = await answer;
    expect(res.status()).toBe(400);
    const body = await res.json();
    expect(body.field).toBe('language');
    const error = languageField(page).locator('[data-error-for="language"]');
    await error.waitFor();
    await expect(error.textContent()).resolves.toBe(body.error);
    expect(body.error).toMatch(/^Site language: “arabic” is not a language this site offers/);
    // Where the value in effect comes from still describes it, not the refused draft.
    await expect(languageField(page).locator('.field-source').textContent()).resolves.toContain('Default: English (en), from the server’s configuration');
    await error.scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-language-refused');
    expect((await server.admin('GET', '/api/settings')).body.language).toBeNull();
  });

  it('a language from the list saves, and the public site speaks it', async () => {
    const { page } = main;
    await page.locator('select[name="language"]').selectOption('ar');
    await page.getByTestId('settings-save').getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor(async () => (await server.admin('GET', '/api/settings')).body.language === 'ar');
    expect(await languageField(page).locator('[data-error-for]').count()).toBe(0);
    await waitFor(async () => (await (await fetch(server.url + '/')).text()).includes('lang="ar"'), 15_000);
  });

  it("the server's default can be chosen again: the saved language is cleared", async () => {
    const { page } = main;
    const status = page.getByTestId('settings-save').getByRole('status');
    // Each step waits for what the bar says (polled with a bound, so a failure names what it
    // said instead): it once ran out the test's 30 s in a clean-clone run, at a step unknown.
    const says = (text: string) => expect.poll(() => status.textContent({ timeout: 2_000 }), { timeout: 10_000 }).toBe(text);
    // The save before settles first, so that the status read below is this test's.
    await says('Everything is saved.');
    await page.locator('select[name="language"]').selectOption('');
    await says('1 unsaved change');
    await page.getByTestId('settings-save').getByRole('button', { name: 'Save', exact: true }).click({ timeout: 10_000 });
    await waitFor(async () => (await server.admin('GET', '/api/settings')).body.language === null);
    await says('Everything is saved.');
    await page.locator('select[name="language"]').selectOption('ar', { timeout: 10_000 });
    await says('1 unsaved change');
    await page.getByTestId('settings-save').getByRole('button', { name: 'Save', exact: true }).click({ timeout: 10_000 });
    await waitFor(async () => (await server.admin('GET', '/api/settings')).body.language === 'ar');
  });

  it('a choice made while a save is on its way stays unsaved, not dropped when the answer comes', async () => {
    const { page } = main;
    const status = page.getByTestId('settings-save').getByRole('status');
    const saveButton = page.getByTestId('settings-save').getByRole('button', { name: 'Save', exact: true });
    const language = page.locator('select[name="language"]');
    await waitFor(async () => (await status.textContent()) === 'Everything is saved.');
    // The save is held in the browser until the second choice is made, then sent on to the server.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    let patched = false;
    await page.route('**/api/settings', async (route) => {
      if (route.request().method() === 'PATCH' && !patched) {
        patched = true;
        await held;
      }
      await route.continue();
    });
    try {
      await language.selectOption('fr');
      await saveButton.click();
      await waitFor(() => patched);
      await language.selectOption('de');
      release();
      await waitFor(async () => (await server.admin('GET', '/api/settings')).body.language === 'fr');
      // The answer for French came back after German was chosen: German is still there, unsaved.
      await waitFor(async () => (await saveButton.isEnabled()) && (await status.textContent()) === '1 unsaved change');
      await expect(language.inputValue()).resolves.toBe('de');
      await saveButton.click();
      await waitFor(async () => (await server.admin('GET', '/api/settings')).body.language === 'de');
      await waitFor(async () => (await status.textContent()) === 'Everything is saved.');
      // Back to the language the tests before left.
      await language.selectOption('ar');
      await saveButton.click();
      await waitFor(async () => (await server.admin('GET', '/api/settings')).body.language === 'ar');
      await waitFor(async () => (await status.textContent()) === 'Everything is saved.');
    } finally {
      release();
      await page.unroute('**/api/settings');
    }
  });
});

describe('a vault that asks for backup (CONTRACT §14)', () => {
  it('the status bar shows the request while nothing has been sent', async () => {
    const bar = main.page.getByTestId('vault-request-bar');
    await bar.waitFor();
    await expect(bar.textContent()).resolves.toContain('This vault asks to back up to 127.0.0.1');
    expect(https.requests).toEqual([]);
  });

  it('screenshots: Settings, and Backup & sync with the request (light, dark, 360 px, Arabic)', { timeout: 120_000 }, async () => {
    const shots: Array<[string, Parameters<typeof openAdmin>[2], boolean]> = [
      ['light', { viewport: { width: 1280, height: 900 } }, false],
      ['dark', { viewport: { width: 1280, height: 900 }, colorScheme: 'dark' }, false],
      ['360', { viewport: { width: 360, height: 780 } }, false],
      ['arabic', { viewport: { width: 1280, height: 900 } }, true],
    ];
    // Dark draws the light one's boxes: opened only for its pictures.
    for (const [name, options, arabic] of shots.filter(([name]) => SHOTS_WANTED || name !== 'dark')) {
      if (arabic) await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
      const { context, page } = await openAdmin(browser, server, options);
      try {
        if (arabic) await waitFor(async () => (await page.evaluate(() => document.documentElement.dir)) === 'rtl');
        await openSettings(page);
        await clearToasts(page);
        await screenshot(page, `settings-${name}`);
        await openBackupSection(page);
        const notice = page.getByTestId('vault-request');
        await notice.waitFor();
        await page.getByTestId('nested-repositories').waitFor();
        await notice.scrollIntoViewIfNeeded();
        // The server's own configuration is said in words here too (the SSH hint, folded).
        expect(await page.getByTestId('sync-panel').textContent()).toContain(arabic ? 'أمر SSH الذي تسمّيه إعدادات الخادم' : 'the SSH command the server’s configuration names');
        expect(await page.getByTestId('sync-panel').textContent()).not.toMatch(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b/);
        // What is in effect is shown, not what the vault asks for.
        expect(await page.getByTestId('backup-switch').isChecked()).toBe(false);
        await expect(page.locator('input[name="remoteUrl"]').inputValue()).resolves.toBe('');
        await clearToasts(page);
        await screenshot(page, `sync-vault-request-${name}`);
        // Nothing spills sideways: the status bar's notice shortens instead.
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
        const ignore = (await page.getByTestId('vault-ignore-bar').boundingBox())!;
        expect(ignore.x + ignore.width).toBeLessThanOrEqual(options!.viewport!.width + 1);
        if (arabic) await expect(notice.textContent()).resolves.toContain('تطلب هذه الخزنة النسخ الاحتياطي إلى 127.0.0.1');
      } catch (err) {
        await screenshot(page, `failed-shot-${name}`);
        throw err;
      } finally {
        await context.close();
        if (arabic) await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
      }
    }
    expect(https.requests).toEqual([]);
  });

  it('Backup & sync names the nested repository plainly', async () => {
    await openBackupSection(main.page);
    await expect(main.page.getByTestId('nested-repositories').textContent()).resolves.toBe('Nested/ is its own git repository: its notes are not in this backup');
    await expect(main.page.getByTestId('nested-repositories').locator('.vault-path').textContent()).resolves.toBe('Nested');
  });

  it('Allow in the panel applies it: the request goes and the vault reaches the remote', async () => {
    const { page } = main;
    await page.getByTestId('vault-allow').click();
    await waitFor(() => branchesOf('vault.git').includes('refs/heads/main'), 20_000);
    await page.getByTestId('vault-request').waitFor({ state: 'detached' });
    await page.getByTestId('vault-request-bar').waitFor({ state: 'detached' });
    const status = (await server.admin('GET', '/api/sync/status')).body;
    expect(status.enabled).toBe(true);
    expect(status.vaultRequest).toBeNull();
    // The form shows what is now in force, with no save or reload: the remote, the branch, the switch.
    await waitFor(async () => (await page.locator('input[name="remoteUrl"]').inputValue()) === https.url('vault.git'));
    expect(await page.getByTestId('backup-switch').isChecked()).toBe(true);
    await expect(page.locator('input[name="branch"]').inputValue()).resolves.toBe('main');
    await expect(page.getByTestId('sync-save').textContent()).resolves.not.toMatch(/unsaved/);
  });
});
