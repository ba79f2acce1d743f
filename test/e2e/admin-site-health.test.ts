// The owner sees what the site's build found wrong where they work, in a real browser:
// the status bar's count, Site health grouped by note with one-click fixes, a note's own
// warnings in its editor; `[[` puts notes that work for readers first; the right-hand
// panel belongs to the editor only.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminForFile, clearToasts, editorText, openAdmin, openFromTree, screenshot, SHOTS_WANTED } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const post = (body: string, title: string) => `---\ntitle: ${title}\npublish: true\ndate: 2026-03-01\n---\n${body}\n`;

const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-health-',
  prepare: ({ vault }) =>
    writeFiles(vault, {
      'Home.md': post('Welcome to the garden. See [[Fixed]].', 'Home'),
      'Posts/Garden.md': post('# Garden\n\nWhat grows here.\n\nSee [[Seedlings]] for what comes next.', 'Garden'),
      'Seedlings.md': '---\ntitle: Seedlings\n---\nNot out yet.\n',
      'Posts/Broken.md': post('# Broken\n\nFirst line.\n\nA link to [[Nowhere]] here.\n\n![[gone.png]]', 'Broken'),
      'Sprouts.md': post('Published sprouts.\n\nAlso [[Fixed]].', 'Sprouts'),
      'Merged.md': post('Before the merge.\n\n<<<<<<< HEAD\nOur side.\n=======\nTheir side.\n>>>>>>> origin/main\n\nAfter it.', 'Merged'),
      'Fixed.md': '---\ntitle: Fixed\npublish: true\npermalink: kept/here\n---\nAn address of its own.\n',
      'Spring notes.md': '---\ntitle: Spring notes\n---\nPrivate.\n',
      'Private draft.md': '---\ntitle: Private draft\n---\nA draft: \n',
      'Long/A folder with a rather long name for the note bar/And a published note whose name is long too.md': post('Long.', 'Long'),
    }),
});

const disk = (p: string) => fs.readFile(path.join(server.vault, p), 'utf8');
const badge = (page: Page) => page.getByTestId('health-badge');
const healthNote = (page: Page, p: string) => page.locator(`.health-note[data-path="${p}"]`);

async function openHealth(page: Page): Promise<void> {
  await badge(page).click();
  await page.getByTestId('health-view').waitFor();
}

describe('Site health', () => {
  it('the status bar counts the problems and opens Site health, which lists them by note', async () => {
    const { page } = main;
    await waitFor(async () => (await badge(page).count()) > 0, 30_000);
    await expect(badge(page).locator('.count').textContent()).resolves.toBe('4');
    await openHealth(page);
    const garden = healthNote(page, 'Posts/Garden.md');
    await garden.waitFor();
    await expect(garden.locator('.health-item').getAttribute('data-kind')).resolves.toBe('unpublished_link');
    await expect(garden.getByTestId('publish-linked').textContent()).resolves.toBe('Publish “\u2068Seedlings\u2069”');
    const broken = healthNote(page, 'Posts/Broken.md');
    expect(await broken.locator('.health-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-kind')))).toEqual(['missing_link', 'missing_attachment']);
    // The view is the editor's neighbour, not its panel's: no right-hand panel here.
    expect(await page.locator('.right-panel').count()).toBe(0);
  });

  it('screenshots: Site health light, dark, 360 px and Arabic', async () => {
    const { page } = main;
    await clearToasts(page);
    await screenshot(page, 'site-health-light');
    // Dark draws the light one's boxes: opened only for its pictures.
    for (const variant of SHOTS_WANTED ? (['dark', 'phone', 'arabic'] as const) : (['phone', 'arabic'] as const)) {
      if (variant === 'arabic') await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
      const other = await openAdmin(browser, server, variant === 'dark' ? { colorScheme: 'dark' } : variant === 'phone' ? { viewport: { width: 360, height: 760 } } : {});
      try {
        await waitFor(async () => (await badge(other.page).count()) > 0, 10_000);
        await openHealth(other.page);
        await healthNote(other.page, 'Posts/Garden.md').waitFor();
        expect(await other.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        await screenshot(other.page, `site-health-${variant}`);
        await healthNote(other.page, 'Posts/Broken.md').getByTestId('open-at-line').first().click();
        await other.page.getByTestId('note-warnings').waitFor();
        await clearToasts(other.page);
        await screenshot(other.page, `editor-warnings-${variant}`);
      } finally {
        await other.context.close();
        if (variant === 'arabic') await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
      }
    }
  }, 90_000);

  it('"Open at the line" opens the note with the cursor on the link', async () => {
    const { page } = main;
    await healthNote(page, 'Posts/Broken.md').locator('.health-item[data-kind="missing_link"]').getByTestId('open-at-line').click();
    await page.locator('.tab.active [role="tab"][title="Posts/Broken.md"]').waitFor();
    await waitFor(() => page.evaluate(() => (window.getSelection()?.anchorNode?.parentElement?.closest('.cm-line')?.textContent ?? '').includes('[[Nowhere]]')));
  });

  it("a note's own problems show in its editor", async () => {
    const { page } = main;
    const list = page.getByTestId('note-warnings');
    await list.waitFor();
    await expect(list.locator('summary').textContent()).resolves.toBe('2 problems on the site');
    await screenshot(page, 'editor-warnings-light');
    await openFromTree(page, 'Sprouts.md');
    // Positive first: the other note's editor is shown; then its empty list is absent.
    await waitFor(async () => (await editorText(page)).includes('Published sprouts.'));
    expect(await list.count()).toBe(0);
  });

  it('one click publishes the linked note; its warning goes, and the count with it', async () => {
    const { page } = main;
    await openHealth(page);
    await healthNote(page, 'Posts/Garden.md').getByTestId('publish-linked').click();
    await waitFor(async () => /^publish: true$/m.test(await disk('Seedlings.md')), 10_000);
    expect(await disk('Seedlings.md')).toBe('---\ntitle: Seedlings\npublish: true\n---\nNot out yet.\n');
    await healthNote(page, 'Posts/Garden.md').waitFor({ state: 'detached', timeout: 15_000 });
    await expect(badge(page).locator('.count').textContent()).resolves.toBe('3');
    await healthNote(page, 'Posts/Broken.md').waitFor();
    // The site agrees: the page that was grey text is a page now.
    expect((await fetch(`${server.url}/Seedlings`)).status).toBe(200);
  });

  it('a merge conflict git left in a note: Site health names it, and "Open at the line" goes to its first marker', async () => {
    const { page } = main;
    await openHealth(page);
    const merged = healthNote(page, 'Merged.md');
    await expect(merged.locator('.health-item').getAttribute('data-kind')).resolves.toBe('merge_conflict');
    await expect(merged.locator('.health-message').textContent()).resolves.toContain('Holds a merge conflict git left in its text');
    await merged.getByTestId('open-at-line').click();
    await page.locator('.tab.active [role="tab"][title="Merged.md"]').waitFor();
    await waitFor(() => page.evaluate(() => (window.getSelection()?.anchorNode?.parentElement?.closest('.cm-line')?.textContent ?? '') === '<<<<<<< HEAD'));
  });
});

describe('the right-hand panel belongs to the editor', () => {
  it('is absent in Settings, Trash and Comments, and back with the editor', async () => {
    const { page } = main;
    await openFromTree(page, 'Sprouts.md');
    await page.locator('.right-panel').waitFor();
    for (const [label, view] of [
      ['Settings', 'settings-view'],
      ['Trash', 'trash-view'],
    ] as const) {
      await page.locator('nav.views').getByRole('button', { name: label, exact: true }).click();
      await page.getByTestId(view).waitFor();
      expect(await page.locator('.right-panel').count(), label).toBe(0);
      expect(await page.getByRole('button', { name: 'Show or hide the side panel' }).count()).toBe(0);
    }
    await page.locator('nav.views').getByRole('button', { name: 'Comments', exact: true }).click();
    await page.getByTestId('comments-view').waitFor();
    expect(await page.locator('.right-panel').count()).toBe(0);
    await page.locator('nav.views').getByRole('button', { name: 'Edit', exact: true }).click();
    await page.locator('.right-panel').waitFor();
  });
});

describe('the palette', () => {
  it('opens Site health by name', async () => {
    const { page } = main;
    await page.locator('.right-panel').waitFor();
    await page.keyboard.press('Control+k');
    await page.keyboard.type('site health');
    await page.keyboard.press('Enter');
    await page.getByTestId('health-view').waitFor();
    await page.locator('nav.views').getByRole('button', { name: 'Edit', exact: true }).click();
  });
});

/** A dialog's words without the invisible marks that isolate an address in them. */
const plain = (text: string | null) => (text ?? '').replace(/[\u2066-\u2069]/g, '');

async function rowAction(page: Page, rowPath: string, action: string): Promise<void> {
  await page.locator(`.tree-line:has(.tree-row[data-path="${rowPath}"]) .row-actions`).click();
  await page.getByRole('menuitem', { name: action }).click();
}

describe('dialogs say what will happen', () => {
  it('rename: the dialog names the address that answers 301 and the notes whose links are rewritten; so does what follows', async () => {
    const { page } = main;
    // Seedlings is published now, and Posts/Garden.md links to it.
    await rowAction(page, 'Seedlings.md', 'Rename…');
    const modal = page.locator('.modal');
    expect(plain(await modal.locator('.dialog-detail').textContent())).toBe(
      'Its page at /Seedlings moves to its new address; /Seedlings sends readers on to it (a 301 redirect). Links to it in 1 note are rewritten.',
    );
    await clearToasts(page);
    await screenshot(page, 'rename-dialog-light');
    await modal.locator('input').fill('Saplings');
    await modal.locator('input').press('Enter');
    await page.locator('.toast', { hasText: 'Renamed. Links rewritten in 1 note.' }).waitFor();
    await waitFor(async () => (await disk('Posts/Garden.md')).includes('[[Saplings]]'));
    // What the dialog said, the site does.
    const moved = await waitFor(async () => {
      const res = await fetch(`${server.url}/Seedlings`, { redirect: 'manual' });
      return res.status === 301 ? res : null;
    }, 15_000);
    expect(moved!.headers.get('location')).toMatch(/\/Saplings$/);
  });

  it('rename: a draft has no address to move, and a permalink keeps its address', async () => {
    const { page } = main;
    const modal = page.locator('.modal');
    await rowAction(page, 'Spring notes.md', 'Rename…');
    expect(plain(await modal.locator('.dialog-detail').textContent())).toBe('It is not published: no public address changes. No other note links to it.');
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await rowAction(page, 'Fixed.md', 'Rename…');
    expect(plain(await modal.locator('.dialog-detail').textContent())).toBe('Its page stays at /kept/here: its permalink sets the address. Links to it in 2 notes are rewritten.');
    await modal.getByRole('button', { name: 'Cancel' }).click();
    await modal.waitFor({ state: 'detached' });
  });

  it('screenshots: the rename dialog dark, 360 px and Arabic', async () => {
    // Dark draws the light one's boxes: opened only for its pictures.
    for (const variant of SHOTS_WANTED ? (['dark', 'phone', 'arabic'] as const) : (['phone', 'arabic'] as const)) {
      if (variant === 'arabic') await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
      const other = await openAdmin(browser, server, variant === 'dark' ? { colorScheme: 'dark' } : variant === 'phone' ? { viewport: { width: 360, height: 760 } } : {});
      try {
        // The tree may be folded away (a preference; at 360 px a drawer): the top bar's first button shows it.
        const treeToggle = other.page.locator('.top-bar button.icon[aria-pressed]').first();
        await treeToggle.waitFor();
        // Its folded state is a preference the app may apply after the first paint (a full run once read it too early): shown once it holds.
        const row = other.page.locator('.tree-row[data-path="Fixed.md"]');
        for (let tries = 0; tries < 10 && !(await row.isVisible()); tries++) {
          if ((await treeToggle.getAttribute('aria-pressed')) !== 'true') await treeToggle.click();
          await row.waitFor({ timeout: 1000 }).catch(() => {});
        }
        await row.waitFor();
        await rowAction(other.page, 'Fixed.md', variant === 'arabic' ? 'إعادة تسمية…' : 'Rename…');
        const detail = other.page.locator('.modal .dialog-detail');
        await expect(detail.textContent()).resolves.toContain('/kept/here');
        if (variant === 'arabic') expect(plain(await detail.textContent())).toBe('تبقى صفحتها في /kept/here: رابطها الدائم يحدّد العنوان. تُعاد كتابة الروابط إليها في ملاحظتين.');
        await clearToasts(other.page);
        await screenshot(other.page, `rename-dialog-${variant}`);
      } finally {
        await other.context.close();
        if (variant === 'arabic') await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
      }
    }
  }, 60_000);

  it('trash: a published note is said to leave the site; a draft is not', async () => {
    const { page } = main;
    await rowAction(page, 'Saplings.md', 'Move to trash');
    await expect(page.getByTestId('dialog-detail').textContent()).resolves.toBe('It is published: its page will disappear from the site.');
    await page.locator('.modal').getByRole('button', { name: 'Cancel' }).click();
    await rowAction(page, 'Spring notes.md', 'Move to trash');
    await page.locator('.modal').getByRole('button', { name: 'Move to trash' }).waitFor();
    expect(await page.getByTestId('dialog-detail').count()).toBe(0);
    await page.locator('.modal').getByRole('button', { name: 'Cancel' }).click();
  });

  it('the empty editor says what to do first: open a note, create one, or see the site', { timeout: 60_000 }, async () => {
    const { page } = main;
    await page.locator('nav.views').getByRole('button', { name: 'Edit', exact: true }).click();
    while ((await page.locator('.tab button.icon').count()) > 0) await page.locator('.tab button.icon').first().click();
    const empty = page.getByTestId('empty-editor');
    await empty.waitFor();
    await expect(empty.getByRole('button', { name: 'Create a note' }).count()).resolves.toBe(1);
    await expect(empty.getByRole('link', { name: /See the public site/ }).getAttribute('href')).resolves.toBe('/');
    // With no note open, the panel holds no empty note sections: one line says what shows there; Backup & sync stays.
    await expect(page.getByTestId('panel-no-note').textContent()).resolves.toBe('The open note’s outline, backlinks, comments and history show here.');
    for (const section of ['outline', 'backlinks', 'comments', 'history']) expect(await page.locator(`.right-panel [data-section="${section}"]`).count(), section).toBe(0);
    await page.locator('.right-panel [data-section="backup"]').waitFor();
    await clearToasts(page);
    await screenshot(page, 'editor-empty');
    // The same window dark, narrow and in Arabic (each new window signs in, and sign-ins are limited).
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'editor-empty-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 360, height: 760 });
      await empty.waitFor();
      await screenshot(page, 'editor-empty-phone');
      await page.setViewportSize({ width: 1280, height: 800 });
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
      await page.reload();
      await waitFor(async () => (await page.evaluate(() => document.documentElement.dir)) === 'rtl');
      await expect(page.getByTestId('panel-no-note').textContent()).resolves.toBe('يظهر هنا مخطط الملاحظة المفتوحة وروابطها الواردة وتعليقاتها وسجلها.');
      await screenshot(page, 'editor-empty-arabic');
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 1280, height: 800 });
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
      await page.reload();
    }
    await empty.waitFor();
    await waitFor(async () => (await page.evaluate(() => document.documentElement.dir)) === 'ltr');
    await empty.getByRole('button', { name: 'Create a note' }).click();
    await page.locator('.modal', { hasText: 'Note name' }).waitFor();
    await expect(page.locator('.modal .dialog-detail').textContent()).resolves.toContain('Folder/Name');
    await page.locator('.modal input').fill('Posts/Fresh one');
    await page.locator('.modal input').press('Enter');
    await page.locator('.tab.active [role="tab"][title="Posts/Fresh one.md"]').waitFor();
    // A note open, its sections are back.
    await page.locator('.right-panel [data-section="outline"]').waitFor();
    expect(await page.getByTestId('panel-no-note').count()).toBe(0);
    await waitFor(async () => (await fs.stat(path.join(server.vault, 'Posts/Fresh one.md')).catch(() => null)) !== null);
  });
});

describe('a new note in a chosen folder', () => {
  it("a folder's own menu makes the note in that folder, without typing its path", async () => {
    const { page } = main;
    await rowAction(page, 'Posts', 'New note');
    const modal = page.locator('.modal', { hasText: 'Note name' });
    await modal.waitFor();
    // The Folder/Name hint is for the tree's own New note; here the folder is chosen already.
    expect(await modal.locator('.dialog-detail').count()).toBe(0);
    await modal.locator('input').fill('Inside');
    await modal.locator('input').press('Enter');
    await page.locator('.tab.active [role="tab"][title="Posts/Inside.md"]').waitFor();
    await waitFor(async () => (await fs.stat(path.join(server.vault, 'Posts/Inside.md')).catch(() => null)) !== null);
  });
});

describe('the note bar at 1,280 px', () => {
  it('keeps History on the row of the other buttons, on one line, beside a long path', async () => {
    const { page } = main;
    await openFromTree(page, 'Long/A folder with a rather long name for the note bar/And a published note whose name is long too.md');
    await page.getByTestId('view-on-site').waitFor();
    const bar = page.locator('.note-bar');
    const history = await bar.getByRole('button', { name: 'History', exact: true }).boundingBox();
    const preview = await bar.getByRole('button', { name: 'Preview', exact: true }).boundingBox();
    expect(history!.y).toBe(preview!.y);
    expect(history!.height).toBe(preview!.height);
    expect(history!.height).toBeLessThan(40);
    expect((await bar.boundingBox())!.height).toBeLessThan(50);
  });
});

describe('[[ suggestions from a published note', () => {
  async function suggestions(page: Page, notePath: string): Promise<{ label: string; unpublished: boolean }[]> {
    await openFromTree(page, notePath);
    await page.locator('.editor-container:not([hidden]) .cm-content').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' [[spr');
    const options = page.locator('.cm-tooltip-autocomplete li');
    await options.first().waitFor();
    const list = await options.evaluateAll((items) =>
      items.map((li) => ({ label: li.querySelector('.cm-completionLabel')?.textContent ?? '', unpublished: li.querySelector('.cm-not-published') !== null })),
    );
    await page.keyboard.press('Escape');
    return list;
  }

  it('rank published notes first and mark the others "not published"', async () => {
    const { page } = main;
    expect(await suggestions(page, 'Posts/Garden.md')).toEqual([
      { label: 'Sprouts', unpublished: false },
      { label: 'Spring notes', unpublished: true },
    ]);
    await expect(page.locator('.cm-not-published').count()).resolves.toBe(0);
  });

  it('from an unpublished note the order is the plain one, unmarked', async () => {
    const { page } = main;
    expect(await suggestions(page, 'Private draft.md')).toEqual([
      { label: 'Spring notes', unpublished: false },
      { label: 'Sprouts', unpublished: false },
    ]);
  });
});

describe('links into headings and blocks', () => {
  it('a link or embed into a heading or block its note lacks: named, opened at its line; one into the note itself has no other note to open', async () => {
    await fs.writeFile(path.join(server.vault, 'Posts/Anchors.md'), post('# Anchors\n\nSee [[Garden#Roots]] and [[#Leaves]].\n\n![[Garden#^seed]]', 'Anchors'));
    // The build has taken the note in before the page asks for the list.
    type Listed = { warnings: { path: string }[] };
    await waitFor(async () => (await server.admin<Listed>('GET', '/api/site/warnings')).body.warnings.some((w) => w.path === 'Posts/Anchors.md'), 20_000);
    const { page, context } = await openAdmin(browser, server);
    await waitFor(async () => (await badge(page).count()) > 0, 10_000);
    await openHealth(page);
    const items = healthNote(page, 'Posts/Anchors.md').locator('.health-item');
    await items.first().waitFor({ timeout: 20_000 });
    expect(await items.evaluateAll((list) => list.map((i) => [i.getAttribute('data-kind'), i.getAttribute('data-target')]))).toEqual([
      ['missing_heading', 'Posts/Anchors.md'],
      ['missing_heading', 'Posts/Garden.md'],
      ['missing_block', 'Posts/Garden.md'],
    ]);
    await expect(items.nth(1).locator('.health-message').textContent()).resolves.toBe('Links to “Garden#Roots”, but Posts/Garden.md has no such heading.');
    await expect(items.nth(2).locator('.health-message').textContent()).resolves.toBe('Embeds “Garden#^seed”, but Posts/Garden.md has no block with that id: nothing is shown.');
    expect(await items.nth(0).getByTestId('open-other').count()).toBe(0);
    await expect(items.nth(1).getByTestId('open-other').textContent()).resolves.toBe('Open “\u2068Garden\u2069”');
    await clearToasts(page);
    await screenshot(page, 'site-health-anchors-light');
    // One page for every picture: each sign-in counts against the server's limit.
    if (SHOTS_WANTED) {
      await page.emulateMedia({ colorScheme: 'dark' });
      await screenshot(page, 'site-health-anchors-dark');
      await page.emulateMedia({ colorScheme: 'light' });
      await page.setViewportSize({ width: 360, height: 760 });
      await items.first().scrollIntoViewIfNeeded();
      await screenshot(page, 'site-health-anchors-phone');
      await page.setViewportSize({ width: 1280, height: 800 });
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
      try {
        await page.reload();
        await waitFor(async () => (await badge(page).count()) > 0, 10_000);
        await openHealth(page);
        await items.first().waitFor();
        await screenshot(page, 'site-health-anchors-arabic');
      } finally {
        await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
      }
      await page.reload();
      await waitFor(async () => (await badge(page).count()) > 0, 10_000);
      await openHealth(page);
      await items.first().waitFor();
    }
    await items.nth(0).getByTestId('open-at-line').click();
    await page.locator('.tab.active [role="tab"][title="Posts/Anchors.md"]').waitFor();
    await waitFor(() => page.evaluate(() => (window.getSelection()?.anchorNode?.parentElement?.closest('.cm-line')?.textContent ?? '').includes('[[#Leaves]]')));
    await context.close();
  }, 60_000);
});
