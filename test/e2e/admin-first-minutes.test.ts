// The admin app's first ten minutes as an Obsidian user lives
// them, in a real browser against the real server. Each test failed on the code
// before the issue was fixed.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { editorText, openAdmin, openFromTree, screenshot, adminForFile, signIn } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

let vault: string;

const ENGLISH = '---\ntitle: Safety nets\ntags: [backup]\n---\n## Two safety nets\n\nVersions and git.\n\nسطر عربي في ملاحظة إنجليزية.\n';
const ARABIC = '---\ntitle: ملاحظة\naliases:\n  - شبكة\n---\n## شبكتا أمان\n\nالنسخ و git.\n\nAn English line.\n';

const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-first-',
  prepare: async (dirs) => {
    vault = dirs.vault;
    await writeFiles(vault, {
      'Writing in Markdown.md': '---\npublish: true\n---\n# Writing in Markdown\n',
      'Linker.md': 'Read [[Writing in Markdown]] and [[Writing in Markdown#Lists|lists]].\n',
      'Safety nets.md': ENGLISH,
      'عربي.md': ARABIC,
      'Templates/Default.md': '---\ntags: [draft]\n---\n# {{title}}\n\n',
    });
    // A vault backed up by the service once: its commit subject is `service sync: <ISO>`.
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=service', '-c', 'user.email=service@localhost', ...args], { cwd: vault, stdio: 'ignore', env: { PATH: process.env.PATH, HOME: process.env.HOME } });
    git('init', '-q', '--initial-branch=main');
    git('add', '-A');
    git('commit', '-q', '-m', 'service sync: 2026-01-02T10:00:00.000Z');
    return { env: { SITE_TAGLINE: 'A tagline from the environment' } };
  },
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

/** The directions once the editor shows `line` (the note's lines are drawn). */
async function directionsOnceShown(page: Page, line: string): Promise<Record<string, string>> {
  return waitFor(async () => {
    const found: Record<string, string> = Object.fromEntries((await lineDirections(page)) as [string, string][]);
    return found[line] ? found : null;
  }) as Promise<Record<string, string>>;
}

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
    // The extension typed as well is not a second one.
    await box.fill('Markdown basics.md');
    await box.press('Enter');
    const renamed = page.locator('.tree-row[data-path^="Markdown basics"]');
    await renamed.waitFor();
    expect(await renamed.getAttribute('data-path')).toBe('Markdown basics.md');
    expect(await exists('Markdown basics.md')).toBe(true);
    expect(await exists('Markdown basics.md.md')).toBe(false);
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
        const english = await directionsOnceShown(page, '## Two safety nets');
        expect(english['---']).toBe('ltr');
        expect(english['title: Safety nets']).toBe('ltr');
        expect(english['tags: [backup]']).toBe('ltr');
        expect(english['## Two safety nets']).toBe('ltr');
        expect(english['سطر عربي في ملاحظة إنجليزية.']).toBe('rtl');

        await openFromTree(page, 'عربي.md');
        const arabic = await directionsOnceShown(page, '## شبكتا أمان');
        expect(arabic['title: ملاحظة']).toBe('ltr');
        // A frontmatter line whose first letter is Arabic still runs left-to-right.
        expect(arabic['  - شبكة']).toBe('ltr');
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

describe('defect 5: Backup & sync and Settings share one form model', () => {
  const panel = (page: Page) => page.getByTestId('sync-panel');

  it('a typed, unsaved Remote URL survives the Backup switch and the period changing; nothing is saved until Save', async () => {
    const { page } = main;
    const saves: string[] = [];
    page.on('request', (r) => r.method() === 'PATCH' && r.url().includes('/api/settings') && saves.push(r.postData() ?? ''));
    await page.locator('#panel-backup .section-toggle').click();
    await panel(page).locator('input[name="remoteUrl"]').fill('https://git.example.test/me/vault.git');
    await page.getByTestId('backup-switch').check();
    await panel(page).locator('select[name="intervalMinutes"]').selectOption('60');
    // Another save elsewhere redraws the form with the server's answer: the drafts stay.
    await server.admin('PATCH', '/api/settings', { tagline: null });
    await page.locator('.top-bar').getByRole('button', { name: 'Settings', exact: true }).click();
    await page.locator('.top-bar').getByRole('button', { name: 'Edit', exact: true }).click();
    await expect(panel(page).locator('input[name="remoteUrl"]').inputValue()).resolves.toBe('https://git.example.test/me/vault.git');
    expect(await page.getByTestId('backup-switch').isChecked()).toBe(true);
    expect(await panel(page).locator('select[name="intervalMinutes"]').inputValue()).toBe('60');
    expect(saves).toEqual([]);
    expect(await page.locator('.toast', { hasText: 'saved' }).count()).toBe(0);
    expect((await server.admin('GET', '/api/settings')).body.sync).toMatchObject({ remoteUrl: null, enabled: false, intervalMinutes: 0 });
    // Flagged: the section and each field say they hold unsaved edits.
    await page.getByTestId('backup-unsaved').waitFor();
    expect(await panel(page).getByTestId('unsaved-mark').count()).toBeGreaterThanOrEqual(3);
    await expect(page.getByTestId('sync-save').getByRole('status').textContent()).resolves.toBe('3 unsaved changes');
    await screenshot(page, 'sync-drafts');
    // Discard brings back what is saved; here, keep them and Save all three in one PATCH.
    await panel(page).getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor(async () => (await server.admin('GET', '/api/settings')).body.sync.remoteUrl === 'https://git.example.test/me/vault.git');
    expect((await server.admin('GET', '/api/settings')).body.sync).toMatchObject({ enabled: true, intervalMinutes: 60 });
    expect(saves).toHaveLength(1);
    // Turn backup off again for the rest of the file.
    await page.getByTestId('backup-switch').uncheck();
    await panel(page).getByRole('button', { name: 'Save', exact: true }).click();
    await waitFor(async () => (await server.admin('GET', '/api/settings')).body.sync.enabled === false);
  });

  it('Settings shows the values in effect and where each comes from, with one Save', async () => {
    const { page } = main;
    await server.admin('PATCH', '/api/settings', { tagline: null });
    await page.locator('.top-bar').getByRole('button', { name: 'Settings', exact: true }).click();
    const view = page.getByTestId('settings-view');
    const field = (name: string) => view.locator(`label:has(input[name="${name}"])`);
    await expect(field('siteName').locator('input').inputValue()).resolves.toBe('My notes');
    await expect(field('siteName').locator('.field-source').getAttribute('data-source')).resolves.toBe('default');
    await expect(field('tagline').locator('input').inputValue()).resolves.toBe('A tagline from the environment');
    // In the owner's words; the variable's name only in the tooltip, for whoever runs the server.
    await expect(field('tagline').locator('.field-source').textContent()).resolves.toContain('From the server’s configuration');
    await expect(field('tagline').locator('.field-source').getAttribute('title')).resolves.toBe('SITE_TAGLINE');
    await expect(view.locator('label[data-field="language"] select').inputValue()).resolves.toBe('en');
    expect(await view.getByRole('button', { name: 'Save', exact: true }).count()).toBe(1);
  });

  it('unsaved edits survive redraws and are flagged before leaving: Stay keeps them, Save saves them', async () => {
    const { page } = main;
    const view = page.getByTestId('settings-view');
    await view.locator('input[name="siteName"]').fill('The Greenhouse');
    await view.getByLabel('Share buttons under articles').uncheck();
    // Another window saves the footer meanwhile: this window's drafts are not lost, and its
    // Save later sends only them. (Backup & sync lives in the editor's panel, away while Settings shows.)
    await server.admin('PATCH', '/api/settings', { footer: 'Made by hand' });
    expect(await page.getByTestId('sync-panel').count()).toBe(0);
    await page.locator('.top-bar').getByRole('button', { name: 'Trash', exact: true }).click();
    const dialog = page.locator('.modal');
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain('Settings has 2 unsaved changes.');
    await screenshot(page, 'settings-leave-dialog');
    await dialog.getByRole('button', { name: 'Stay' }).click();
    expect(await view.isVisible()).toBe(true);
    await expect(view.locator('input[name="siteName"]').inputValue()).resolves.toBe('The Greenhouse');
    expect(await view.getByLabel('Share buttons under articles').isChecked()).toBe(false);
    expect((await server.admin('GET', '/api/settings')).body.siteName).toBeNull();
    await page.locator('.top-bar').getByRole('button', { name: 'Trash', exact: true }).click();
    await dialog.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('trash-view').waitFor();
    const saved = (await server.admin('GET', '/api/settings')).body;
    expect(saved.siteName).toBe('The Greenhouse');
    expect(saved.publishing.shareButtons).toBe(false);
    expect(saved.footer).toBe('Made by hand');
  });

  it('closing the page with unsaved edits raises the browser\'s leave prompt; Discard brings back the saved values', async () => {
    await server.admin('PATCH', '/api/settings', { siteName: 'The Greenhouse', publishing: { shareButtons: false } });
    const { context, page } = await openAdmin(browser, server);
    try {
      await page.locator('.top-bar').getByRole('button', { name: 'Settings', exact: true }).click();
      const view = page.getByTestId('settings-view');
      const name = view.locator('input[name="siteName"]');
      await expect(name.inputValue()).resolves.toBe('The Greenhouse');
      await name.click();
      await name.fill('A name not saved');
      await view.getByLabel('Share buttons under articles').check();
      await expect(page.getByTestId('settings-save').getByRole('status').textContent()).resolves.toBe('2 unsaved changes');
      const prompts: string[] = [];
      page.on('dialog', (d) => {
        prompts.push(d.type());
        void d.dismiss();
      });
      const asked = page.waitForEvent('dialog');
      await page.close({ runBeforeUnload: true });
      expect((await asked).type()).toBe('beforeunload');
      // Staying keeps the drafts; Discard brings back what is saved.
      await expect(name.inputValue()).resolves.toBe('A name not saved');
      await page.getByTestId('settings-save').getByRole('button', { name: 'Discard' }).click();
      await expect(name.inputValue()).resolves.toBe('The Greenhouse');
      expect(await view.getByLabel('Share buttons under articles').isChecked()).toBe(false);
      await expect(page.getByTestId('settings-save').getByRole('status').textContent()).resolves.toBe('Everything is saved.');
      // Nothing left to lose: the page closes without asking.
      const closed = page.waitForEvent('close');
      await page.close({ runBeforeUnload: true });
      await closed;
      expect(prompts).toEqual(['beforeunload']);
    } finally {
      await context.close();
    }
  });
});

describe('the file tree before the vault is read', () => {
  it('says it is reading, never that the vault is empty, and then lists the files', async () => {
    const { context, page } = await openAdmin(browser, server, { signIn: false });
    try {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/api/tree', async (route) => {
        await held;
        await route.continue();
      });
      await signIn(page);
      const status = page.locator('.tree [role="status"]');
      await expect(status.textContent()).resolves.toBe('Reading the vault…');
      expect(await page.locator('.tree').textContent()).not.toContain('The vault is empty');
      release();
      await page.locator('.tree-row[data-path="Linker.md"]').waitFor();
      expect(await status.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('says why when the files cannot be listed, and Try again lists them', async () => {
    const { context, page } = await openAdmin(browser, server, { signIn: false });
    try {
      await page.route('**/api/tree', (route) => route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: 'the vault is not reachable' }) }));
      await signIn(page);
      const alert = page.locator('.tree [role="alert"]');
      await alert.waitFor();
      expect(await alert.textContent()).toContain('The vault’s files could not be listed');
      expect(await page.locator('.tree').textContent()).not.toContain('The vault is empty');
      await page.unroute('**/api/tree');
      await alert.getByRole('button', { name: 'Try again' }).click();
      await page.locator('.tree-row[data-path="Linker.md"]').waitFor();
      expect(await alert.count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});

describe('defect 6: the smaller traps', () => {
  it('a trash entry restored from the Trash view takes its "moved to the trash · Undo" toast with it', async () => {
    const { page } = main;
    await page.locator('.top-bar').getByRole('button', { name: 'Edit', exact: true }).click();
    await page.locator('.tree .pane-head button[aria-label="New note"]').click();
    await page.locator('.modal input').fill('Short lived');
    await page.locator('.modal input').press('Enter');
    await page.locator('.tab.active [role="tab"][title="Short lived.md"]').waitFor();
    await rowAction(page, 'Short lived.md', 'Move to trash');
    await page.locator('.modal').getByRole('button', { name: 'Move to trash' }).click();
    const trashed = page.locator('.toast', { hasText: 'moved to the trash' });
    await trashed.waitFor();
    await page.locator('.top-bar').getByRole('button', { name: 'Trash', exact: true }).click();
    await page.locator('.trash-list li[data-path="Short lived.md"]').getByRole('button', { name: 'Restore' }).click();
    await page.locator('.toast', { hasText: 'Restored to Short lived.md' }).waitFor();
    expect(await trashed.count()).toBe(0);
  });

  it('History lists no 0 B version, and shows the service\'s commits as "Sync" with their time', async () => {
    const { page } = main;
    await page.locator('.top-bar').getByRole('button', { name: 'Edit', exact: true }).click();
    // An empty note typed into: its first save replaces an empty text.
    await server.admin('PUT', '/api/note?path=Empty%20start.md', { content: '' });
    await page.locator('.tree-row[data-path="Empty start.md"]').waitFor();
    await openFromTree(page, 'Empty start.md');
    await page.locator('.editor-container:not([hidden]) .cm-content').click();
    await page.keyboard.type('Words.');
    await waitFor(async () => (await disk('Empty start.md').catch(() => '')).includes('Words.'));
    expect((await server.admin('GET', '/api/versions?path=Empty%20start.md')).body.versions).toEqual([]);

    await openFromTree(page, 'Linker.md');
    const toggle = page.locator('#panel-history .section-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const commit = page.locator('#panel-history .row-commit').first();
    await commit.waitFor();
    await expect(commit.locator('.tl-title').textContent()).resolves.toBe('Sync');
    expect(Number.isNaN(Date.parse((await commit.locator('time').getAttribute('datetime'))!))).toBe(false);
    expect(await page.locator('#panel-history').textContent()).not.toContain('service sync:');
    expect(await page.locator('#panel-history').textContent()).not.toMatch(/(^|[^\d.])0 B/);
  });

  it('at 360 px the top bar keeps Sign out on screen and nothing spills sideways', async () => {
    const { context, page } = await openAdmin(browser, server, { viewport: { width: 360, height: 740 } });
    try {
      const signOut = page.locator('.top-bar .sign-out');
      await signOut.waitFor();
      const box = (await signOut.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
      expect(await signOut.getAttribute('aria-label')).toBe('Sign out');
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      // The views fold into one menu rather than a clipped row.
      const views = page.locator('.top-bar .views-menu');
      const vbox = (await views.boundingBox())!;
      expect(vbox.x + vbox.width).toBeLessThanOrEqual(box.x);
      await views.click();
      await page.getByRole('menuitem', { name: 'Trash' }).click();
      await page.getByTestId('trash-view').waitFor();
      await expect(views.textContent()).resolves.toContain('Trash');
    } finally {
      await context.close();
    }
  });

  it('in Arabic a closed folder\'s triangle points along the reading direction', async () => {
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
    const { context, page } = await openAdmin(browser, server);
    try {
      const folder = page.locator('.tree-row[data-path="Templates"]');
      await folder.waitFor();
      if ((await folder.getAttribute('aria-expanded')) === 'true') await folder.click();
      await expect(folder.locator('.glyph').textContent()).resolves.toBe('◂');
      await expect(page.locator('#panel-backup .section-toggle span').first().textContent()).resolves.toBe('◂');
    } finally {
      await context.close();
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
    }
  });

  it('the palette button says Ctrl+K off a Mac, and the skip links say where they go', async () => {
    const { page } = main;
    const platform = await page.evaluate(() => navigator.platform);
    expect(platform).not.toMatch(/Mac/);
    await expect(page.locator('.palette-button').textContent()).resolves.toBe('Ctrl+K');
    await expect(page.locator('a.skip').textContent()).resolves.toBe('Skip to the main area');
    const article = await (await fetch(`${server.url}/Writing-in-Markdown`)).text();
    expect(article).toContain('<a class="s-skip" href="#main">Skip to content</a>');
  });
});
