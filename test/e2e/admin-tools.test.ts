// The tools an Obsidian user reaches for first, in a real browser against the
// real server: vault search, find in note, the palette by title and alias, `[[`
// suggestions, Ctrl/Cmd+click, Backlinks and Outline, publish marks and the Publish
// toggle, images pasted into a note, diffs, word count, shortcuts, drag and drop.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { AUTOSAVE_DELAY_MS } from '../../admin/ui/src/editor/session.ts';
import { clearToasts, editorText, ensureUiBuilt, launchBrowser, releaseBrowser, openAdmin, openFromTree, screenshot, shotIfFailed, signIn, type AdminPage } from '../helpers/browser.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let server: TestServer;
let browser: Browser;
let main: AdminPage;
let vault: string;

const MAC_USER_AGENT = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36';

const CAFE = '---\ntitle: Café culture\naliases: [Coffee houses]\ntags: [travel]\npublish: true\n---\n# Café culture\n\nA note on espresso and [[Reading list]].\n\n## Vienna\n\nThe Kaffeehaus of Vienna.\n\n## Rome\n\nStanding at the bar.\n';

beforeAll(async () => {
  await ensureUiBuilt();
  const base = await tempDir('vs-e2e-tools-');
  vault = path.join(base, 'vault');
  await writeFiles(vault, {
    'Café culture.md': CAFE,
    'Reading list.md': '# Reading list\n\nBooks to read.\n',
    'Drafts/Unfinished.md': '---\ntitle: Unfinished\n---\nA draft about tea.\n',
    'Drafts/Move me.md': 'Drag me into Archive.\n',
    'Archive/Old.md': 'Old things.\n',
    'عربي.md': '---\ntitle: مكتبة\n---\nالمَكتبة العامة في المدينة.\n',
    'Pasting.md': 'Images go here: \n',
    'Shortcuts.md': 'make this bold\n',
    'Mac keys.md': 'bold on a Mac',
    'Code links.md': 'Inline `[[Code target]]` here.\n\n```\n[[Fence target]]\n```\n\nSome $[[Math target]]$ math.\n\n$$\n[[Block math target]]\n$$\n\nAnd [[Real target]] outside.\n',
    'Code target.md': 'In code.\n',
    'Fence target.md': 'In a fence.\n',
    'Math target.md': 'In math.\n',
    'Block math target.md': 'In block math.\n',
    'Real target.md': 'Linked.\n',
  });
  server = await startServer({ vault, data: path.join(base, 'data') });
  browser = await launchBrowser();
  main = await openAdmin(browser, server);
});

afterEach(async (ctx) => shotIfFailed(main?.page, ctx));

afterAll(async () => {
  await releaseBrowser(browser);
  await server?.stop();
  await cleanupTempDirs();
});

const disk = (p: string) => fs.readFile(path.join(vault, p), 'utf8');
const content = (page: Page) => page.locator('.editor-container:not([hidden]) .cm-content');

describe('vault search (Ctrl/Cmd+Shift+F)', () => {
  it('finds notes across the vault with the matching line; Enter opens the note at the match', async () => {
    const { page } = main;
    await page.keyboard.press('Control+Shift+F');
    const pane = page.getByTestId('search-pane');
    const box = pane.getByRole('combobox');
    await waitFor(() => box.evaluate((el) => el === document.activeElement));
    await page.keyboard.type('KAFFEEHAUS');
    const first = pane.locator('.search-results li').first();
    // Typing slowly (a loaded machine) shows a prefix's results first ("Kaffeeh" marked): the
    // whole word's come once its query has run.
    await waitFor(async () => (await first.getAttribute('data-path')) === 'Café culture.md' && (await first.locator('mark').textContent()) === 'Kaffeehaus');
    await expect(first.locator('.search-line').textContent()).resolves.toBe('The Kaffeehaus of Vienna.');
    await screenshot(page, 'vault-search', true);
    await page.keyboard.press('Enter');
    await page.locator('.tab.active [title="Café culture.md"]').waitFor();
    // The cursor sits at the match: what is typed lands there.
    await page.keyboard.type('old ');
    await waitFor(async () => (await disk('Café culture.md')).includes('The old Kaffeehaus of Vienna.'));
  });

  it('folds accents and Arabic forms: "cafe" finds Café, المكتبة finds المَكتبة', async () => {
    const { page } = main;
    await page.keyboard.press('Control+Shift+F');
    const pane = page.getByTestId('search-pane');
    await pane.getByRole('combobox').fill('cafe');
    await waitFor(async () => (await pane.locator('.search-results li').first().getAttribute('data-path')) === 'Café culture.md');
    await pane.getByRole('combobox').fill('المكتبة');
    await waitFor(async () => (await pane.locator('.search-results li').first().getAttribute('data-path')) === 'عربي.md');
    await expect(pane.locator('.search-results li mark').first().textContent()).resolves.toBe('المَكتبة');
    await pane.getByRole('tab', { name: 'Files' }).click();
  });
});

describe('find in note (Ctrl/Cmd+F)', () => {
  it('opens the find panel of the open note and selects the matches', async () => {
    const { page } = main;
    await openFromTree(page, 'Café culture.md');
    await content(page).click();
    await page.keyboard.press('Control+f');
    const field = page.locator('.cm-search input[name="search"]');
    await field.waitFor();
    // Typed key by key, as a person types (the panel takes the query in at each keyup).
    await page.keyboard.type('Vienna');
    await page.keyboard.press('Enter');
    await page.locator('.cm-searchMatch-selected').first().waitFor();
    expect(await page.locator('.cm-searchMatch').count()).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Escape');
    await page.locator('.cm-search').waitFor({ state: 'detached' });
  });
});

describe('the palette finds notes by title and aliases', () => {
  it('an alias, or a title that is not the file name, finds its note', async () => {
    const { page } = main;
    await page.keyboard.press('Control+k');
    await page.keyboard.type('coffee hou');
    const option = page.locator('.palette [role="option"][data-command="open:Café culture.md"]');
    await expect(option.textContent()).resolves.toBe('Open \u2068Coffee houses\u2069 → \u2066Café culture.md\u2069');
    await page.keyboard.press('Escape');
    // A title that is not the file name: مكتبة is the title of عربي.md.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('مكتبة');
    const byTitle = page.locator('.palette [role="option"][data-command="open:عربي.md"]');
    await expect(byTitle.textContent({ timeout: 5_000 })).resolves.toBe('Open \u2068مكتبة\u2069 · \u2066عربي.md\u2069');
    // Read left to right as written, title then path: not run together into one right-to-left stretch that swaps them.
    const [titleX, pathX] = await byTitle.evaluate((el) => {
      const node = [...el.childNodes].find((n) => n.nodeType === 3 && n.textContent!.includes('مكتبة')) as Text;
      const x = (i: number) => {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        return range.getBoundingClientRect().x;
      };
      return [x(node.data.indexOf('مكتبة')), x(node.data.indexOf('عربي'))];
    });
    expect(titleX).toBeLessThan(pathX);
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('unfinished');
    await page.locator('.palette [role="option"][data-command="open:Drafts/Unfinished.md"]').waitFor();
    await page.keyboard.press('Enter');
    await page.locator('.tab.active [title="Drafts/Unfinished.md"]').waitFor();
  });
});

describe('linking', () => {
  it('typing [[ suggests notes and closes the brackets; after # it suggests the headings', async () => {
    const { page } = main;
    await openFromTree(page, 'Reading list.md');
    await content(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nSee [[caf');
    const options = page.locator('.cm-tooltip-autocomplete li');
    await options.first().waitFor();
    await waitFor(async () => (await options.first().textContent())?.includes('Café culture'));
    // CodeMirror ignores an Enter within 75 ms of a list opening (its interactionDelay):
    // a human's Enter comes later than that, and so does this one.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await page.keyboard.press('Enter');
    await waitFor(async () => (await editorText(page)).endsWith('See [[Café culture]]'));
    await page.keyboard.type(' and [[Café culture#');
    await options.filter({ hasText: 'Rome' }).waitFor();
    // Keys typed into an open list update it at once, never disabling it while a query
    // waits (CI once got a new line for an Enter pressed into a disabled list).
    await page.keyboard.type('Ro');
    const list = await page.evaluate(() => {
      const tooltip = document.querySelector('.cm-tooltip-autocomplete');
      return { disabled: tooltip?.classList.contains('cm-tooltip-autocomplete-disabled') ?? null, first: tooltip?.querySelector('li')?.textContent ?? null };
    });
    expect(list).toEqual({ disabled: false, first: 'RomeH2' });
    // As above: not within CodeMirror's 75 ms of the list opening.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await page.keyboard.press('Enter');
    await waitFor(async () => (await editorText(page)).endsWith('and [[Café culture#Rome]]')).catch(async (err) => {
      throw new Error(`${err.message}: the editor holds ${JSON.stringify((await editorText(page)).slice(-60))}`);
    });
    await page.keyboard.type(' done.');
    await waitFor(async () => (await disk('Reading list.md')).endsWith('\nSee [[Café culture]] and [[Café culture#Rome]] done.'));
  });

  it('typing [[ closes the brackets as it goes: after Escape the text holds [[x]]', async () => {
    const { page } = main;
    await openFromTree(page, 'Archive/Old.md');
    await content(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('[[x');
    await page.keyboard.press('Escape');
    await waitFor(async () => (await disk('Archive/Old.md')).includes('[[x'));
    expect(await editorText(page)).toBe('Old things.\n[[x]]');
    expect(await disk('Archive/Old.md')).toBe('Old things.\n[[x]]');
  });

  it('Ctrl/Cmd+click follows a wikilink', async () => {
    const { page } = main;
    await openFromTree(page, 'Café culture.md');
    await page.locator('.cm-line', { hasText: 'Reading list' }).getByText('Reading list').click({ modifiers: ['Control'] });
    await page.locator('.tab.active [title="Reading list.md"]').waitFor();
  });

  it('Ctrl/Cmd+click leaves a [[link]] in inline code, a code block or math alone, as Obsidian does', async () => {
    const { page } = main;
    await openFromTree(page, 'Code links.md');
    await page.locator('.cm-line', { hasText: 'Inline' }).getByText('Code target').click({ modifiers: ['Control'] });
    // Had the link in code been followed, this note would be gone from the editor by now.
    await page.locator('.cm-line', { hasText: 'Fence target' }).getByText('Fence target').click({ modifiers: ['Control'], timeout: 5000 });
    await page.locator('.cm-line', { hasText: 'Some' }).getByText('Math target').click({ modifiers: ['Control'], timeout: 5000 });
    await page.locator('.cm-line', { hasText: 'Block math target' }).getByText('Block math target').click({ modifiers: ['Control'], timeout: 5000 });
    // A followed link opens its note: the one outside code does, and by then neither in code has.
    await page.locator('.cm-line', { hasText: 'outside' }).getByText('Real target').click({ modifiers: ['Control'], timeout: 5000 });
    await page.locator('.tab.active [title="Real target.md"]').waitFor();
    await expect(page.locator('.tab [title="Code target.md"], .tab [title="Fence target.md"], .tab [title="Math target.md"], .tab [title="Block math target.md"]').count()).resolves.toBe(0);
  });

  it('Backlinks lists the notes linking here with their line; Outline lists the headings and moves the cursor', async () => {
    const { page } = main;
    await openFromTree(page, 'Reading list.md');
    const backlinks = page.getByTestId('backlinks');
    await backlinks.locator('[data-path="Café culture.md"]').waitFor();
    await expect(backlinks.locator('[data-path="Café culture.md"] .backlink-context').textContent()).resolves.toBe('A note on espresso and \u2068[[Reading list]]\u2069.');
    await backlinks.locator('[data-path="Café culture.md"]').click();
    await page.locator('.tab.active [title="Café culture.md"]').waitFor();
    const outline = page.locator('#panel-outline .outline');
    await expect(outline.locator('button').allTextContents()).resolves.toEqual(['Café culture', 'Vienna', 'Rome']);
    await screenshot(page, 'backlinks-outline', true);
    await outline.getByRole('button', { name: 'Rome' }).click();
    await page.keyboard.type('Italy: ');
    await waitFor(async () => (await disk('Café culture.md')).includes('Italy: ## Rome'));
    await page.keyboard.press('Control+z');
    await waitFor(async () => !(await disk('Café culture.md')).includes('Italy: '));
  });
});

describe('publishing in one click', () => {
  it('the tree marks published notes and drafts', async () => {
    const { page } = main;
    const published = page.locator('.tree-row[data-path="Café culture.md"]');
    await waitFor(async () => (await published.getAttribute('data-published')) === 'true');
    await expect(published.locator('.glyph').textContent()).resolves.toBe('◉');
    await expect(page.locator('.tree-row[data-path="Reading list.md"]').getAttribute('data-published')).resolves.toBe('false');
    await expect(page.locator('.tree-row[data-path="Reading list.md"] .glyph').textContent()).resolves.toBe('○');
  });

  it('Publish writes publish: true, "View on site" appears once the page is live; Ctrl+K → Unpublish takes it back, Ctrl+K → Publish brings it back', async () => {
    const { page } = main;
    await openFromTree(page, 'Drafts/Unfinished.md');
    await expect(page.getByTestId('publish-state').textContent()).resolves.toBe('Draft');
    await page.getByTestId('publish-toggle').click();
    await waitFor(async () => (await disk('Drafts/Unfinished.md')) === '---\ntitle: Unfinished\npublish: true\n---\nA draft about tea.\n');
    const view = page.getByTestId('view-on-site');
    await view.waitFor({ timeout: 30_000 });
    expect(await view.getAttribute('href')).toBe('/Drafts/Unfinished');
    expect((await fetch(`${server.url}/Drafts/Unfinished`)).status).toBe(200);
    await waitFor(async () => (await page.locator('.tree-row[data-path="Drafts/Unfinished.md"]').getAttribute('data-published')) === 'true');
    await clearToasts(page);
    await screenshot(page, 'publish-toggle', true);
    await page.keyboard.press('Control+k');
    await page.keyboard.type('unpublish');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await disk('Drafts/Unfinished.md')).includes('publish: false'));
    await view.waitFor({ state: 'detached' });
    await expect(page.getByTestId('publish-state').textContent()).resolves.toBe('Draft');
    // Ctrl+K → Publish on the draft writes publish: true again.
    await page.keyboard.press('Control+k');
    await page.keyboard.type('publish');
    await expect(page.locator('.palette [role="option"]').first().getAttribute('data-command')).resolves.toBe('publish');
    await page.keyboard.press('Enter');
    await waitFor(async () => (await disk('Drafts/Unfinished.md')).includes('publish: true'));
    expect(await disk('Drafts/Unfinished.md')).toBe('---\ntitle: Unfinished\npublish: true\n---\nA draft about tea.\n');
    await waitFor(async () => (await page.getByTestId('publish-state').textContent()) === 'Published');
  });
});

/** Pastes a file into the editor as the clipboard would: `bytes`, or `size` zero bytes. */
async function paste(page: Page, file: { name: string; type: string; bytes?: Buffer; size?: number }): Promise<void> {
  await content(page).evaluate(
    (el, f) => {
      const dt = new DataTransfer();
      const data = f.base64 ? Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0)) : new Uint8Array(f.size);
      dt.items.add(new File([data], f.name, { type: f.type }));
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
    },
    { name: file.name, type: file.type, base64: file.bytes?.toString('base64') ?? '', size: file.size ?? 0 },
  );
}

describe('images in notes', () => {
  it('a pasted PNG is stored in Attachments/ under a unique name and ![[name.png]] is inserted', async () => {
    const { page } = main;
    // A real PNG: a picture of the app itself.
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 64, height: 48 } });
    await openFromTree(page, 'Pasting.md');
    await content(page).click();
    await page.keyboard.press('Control+End');
    await paste(page, { name: 'image.png', type: 'image/png', bytes: png });
    await waitFor(async () => /!\[\[Pasted image \d{14}\.png\]\]/.test(await disk('Pasting.md')));
    const name = /!\[\[(Pasted image \d{14}\.png)\]\]/.exec(await disk('Pasting.md'))![1]!;
    expect((await fs.readFile(path.join(vault, 'Attachments', name))).equals(png)).toBe(true);
    await page.locator('.tree-row[data-path="Attachments"]').waitFor();
  });

  it('a dropped image keeps its own name (unique in the vault) and lands where it was dropped', async () => {
    const { page } = main;
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 32, height: 32 } });
    const line = page.locator('.cm-line', { hasText: 'Images go here:' });
    const box = (await line.boundingBox())!;
    await content(page).evaluate(
      (el, f) => {
        const dt = new DataTransfer();
        dt.items.add(new File([Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0))], 'Team photo.png', { type: 'image/png' }));
        el.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, clientX: f.x, clientY: f.y, bubbles: true, cancelable: true }));
      },
      { base64: png.toString('base64'), x: box.x + box.width - 2, y: box.y + box.height / 2 },
    );
    await waitFor(async () => (await disk('Pasting.md')).startsWith('Images go here: ![[Team photo.png]]'));
    expect((await fs.readFile(path.join(vault, 'Attachments', 'Team photo.png'))).equals(png)).toBe(true);
  });

  it('a file that is not an image, or one over 10 MB, is refused with a clear message and nothing is inserted', async () => {
    const { page } = main;
    const before = await editorText(page);
    await paste(page, { name: 'notes.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4') });
    await page.locator('.toast.error', { hasText: 'notes.pdf is not an image this app can add' }).waitFor();
    await paste(page, { name: 'huge.png', type: 'image/png', size: 10 * 1024 * 1024 + 1 });
    await page.locator('.toast.error', { hasText: 'huge.png is 10.0 MB; images up to 10 MB can be added.' }).waitFor();
    expect(await editorText(page)).toBe(before);
  });
});

describe('diffs, word count, shortcuts, drag and drop', () => {
  it('the conflict strip shows the two texts\' differences before the choice', async () => {
    const { page } = main;
    await openFromTree(page, 'Shortcuts.md');
    await page.route('**/api/note?*', (r) => (r.request().method() === 'PUT' ? r.abort() : r.continue()));
    await content(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('mine\n');
    await fs.writeFile(path.join(vault, 'Shortcuts.md'), 'make this bold\ntheirs\n');
    const diff = page.getByTestId('conflict-diff');
    await diff.waitFor();
    await page.unroute('**/api/note?*');
    await expect(diff.locator('.diff-removed .diff-text').allTextContents()).resolves.toEqual(['theirs']);
    await expect(diff.locator('.diff-added .diff-text').allTextContents()).resolves.toEqual(['mine']);
    await screenshot(page, 'conflict-diff', true);
    await page.getByRole('button', { name: 'Keep my version' }).click();
    await waitFor(async () => (await disk('Shortcuts.md')) === 'make this bold\nmine\n');
  });

  it('History shows a revision against the current text', async () => {
    const { page } = main;
    const toggle = page.locator('#panel-history .section-toggle');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const version = page.locator('#panel-history .row-version').first();
    await version.waitFor();
    await version.click();
    await page.getByTestId('show-changes').click();
    const diff = page.getByTestId('revision-diff');
    await diff.waitFor();
    await expect(diff.locator('.diff-removed .diff-text').allTextContents()).resolves.toEqual(['theirs']);
    await expect(diff.locator('.diff-added .diff-text').allTextContents()).resolves.toEqual(['mine']);
    await page.getByRole('button', { name: 'Close revision' }).click();
  });

  it('the status bar counts the words, and Ctrl/Cmd+B, Ctrl/Cmd+I and Ctrl/Cmd+S work in the editor', async () => {
    const { page } = main;
    const count = page.getByTestId('word-count');
    await expect(count.textContent()).resolves.toBe('4 words');
    await content(page).click();
    await page.keyboard.press('Control+Home');
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Control+b');
    await page.keyboard.press('End');
    await page.keyboard.type(' now');
    await waitFor(async () => (await count.textContent()) === '5 words');
    // `now` selected: Ctrl+I wraps it in *…*.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Control+i');
    const saved = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('Shortcuts.md'));
    const pressedAt = Date.now();
    await page.keyboard.press('Control+s');
    await saved;
    // Ctrl+S saves at once, before the autosave delay.
    expect(Date.now() - pressedAt).toBeLessThan(550);
    await waitFor(async () => (await disk('Shortcuts.md')) === '**make this bold** *now*\nmine\n');
  });

  it('on a Mac, Cmd+B and Cmd+S do what Ctrl+B and Ctrl+S do elsewhere', async () => {
    // The page believes it runs on a Mac: CodeMirror and the app read navigator.platform.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce', userAgent: MAC_USER_AGENT });
    await context.addInitScript(() => Object.defineProperty(Navigator.prototype, 'platform', { get: () => 'MacIntel' }));
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/admin/`);
      await signIn(page);
      await expect(page.locator('.palette-button').textContent()).resolves.toBe('⌘K');
      await openFromTree(page, 'Mac keys.md');
      await content(page).click();
      await page.keyboard.press('Meta+a');
      // Listening before the edit, and Cmd+S right behind Cmd+B: anything slower between them
      // lets the edit's own autosave go first on a loaded machine, and leaves Cmd+S nothing to save.
      const saved = page.waitForRequest((r) => r.method() === 'PUT' && new URL(r.url()).searchParams.get('path') === 'Mac keys.md', { timeout: 5_000 });
      await page.keyboard.press('Meta+b');
      const pressedAt = Date.now();
      await page.keyboard.press('Meta+s');
      const put = await saved;
      // Saved at once: the autosave of the edit just made is still most of its delay away.
      expect(Date.now() - pressedAt).toBeLessThan(AUTOSAVE_DELAY_MS / 2);
      expect(JSON.parse(put.postData()!).content).toBe('**bold on a Mac**');
      expect(await editorText(page)).toBe('**bold on a Mac**');
      await waitFor(async () => (await disk('Mac keys.md')) === '**bold on a Mac**');
    } finally {
      await context.close();
    }
  });

  it('Ctrl/Cmd+N (or Alt+N) asks for a new note', async () => {
    const { page } = main;
    for (const keys of ['Control+n', 'Alt+n']) {
      await page.keyboard.press(keys);
      await page.locator('.modal', { hasText: 'Note name' }).waitFor();
      await page.locator('.modal input').press('Escape');
      await page.locator('.modal').waitFor({ state: 'detached' });
    }
  });

  it('dragging a note onto a folder in the tree moves it there', async () => {
    const { page } = main;
    const drafts = page.locator('.tree-row[data-path="Drafts"]');
    if ((await drafts.getAttribute('aria-expanded')) !== 'true') await drafts.click();
    // Watched for from before the drag: the toast goes after a few seconds, maybe before the file is seen moved.
    // Each name in it is a unit of its own (ui/Sentence.tsx): its own direction, never cut at a space.
    const told = page.locator('.toast', { hasText: 'Moved Move me.md into Archive.', has: page.locator('.name-unit bdi', { hasText: 'Move me.md' }) }).waitFor();
    await page.locator('.tree-row[data-path="Drafts/Move me.md"]').dragTo(page.locator('.tree-row[data-path="Archive"]'));
    await waitFor(async () => (await disk('Archive/Move me.md').catch(() => null)) === 'Drag me into Archive.\n');
    await told;
  });
});
