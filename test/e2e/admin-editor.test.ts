// The admin app in a real browser (headless Debian chromium) against the real server:
// autosave with the loaded mtime (spec 4.4, 8), the resolution strip (spec 3.6),
// wake-up re-checks (spec 6), the History timeline and its restores (Appendix B,
// spec 9), and the trash (spec 3.3).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { AUTOSAVE_DELAY_MS } from '../../admin/ui/src/editor/session.ts';
import { adminForFile, editorText, openAdmin, openFromTree, openQuietAdmin, pageClockPassed, recordFetches, screenshot, type AdminPage } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

let vault: string;
/** Every request the main page made, for "asks the server nothing" checks. */
const requests: Request[] = [];

const STORY_V1 = '---\ntitle: The story\n---\nOnce upon a time, **first draft**.\n';
const STORY_V2 = '---\ntitle: The story\n---\nOnce upon a time, second draft.\n\nWith a [[Conflict]] link.\n';

function gitAt(date: string, ...args: string[]) {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  execFileSync('git', ['-c', 'user.name=Tester', '-c', 'user.email=t@example.test', ...args], { cwd: vault, env, stdio: 'ignore' });
}

const disk = (p: string) => fs.readFile(path.join(vault, p), 'utf8');
/**
 * Another program writing the file (an editor on the same machine, another server), in one
 * step. A write in place is two changes, the file emptied and then written: a strip raised on
 * the first is rightly refused as stale when Keep is clicked before the second is seen, and the
 * tests below click at once (a CI run once did). The temp file is beside the vault, not in it.
 */
const otherWriter = async (p: string, text: string) => {
  const temp = path.join(path.dirname(vault), 'other-writer.tmp');
  await fs.writeFile(temp, text);
  await fs.rename(temp, path.join(vault, p));
};

/** An admin window no `changed` event reaches: only a save's own mtime check can catch a change. */
const quietWindow = (): Promise<AdminPage> => openQuietAdmin(browser, server);

/** The answer to the next save of `note` from this page. */
const nextPut = (page: Page, note: string) => page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes(encodeURIComponent(note)));

/** In a quiet window: another program writes `theirs`, then `mine` is typed; the save is refused and the strip shows. */
async function refusedSave(page: Page, note: string, theirs: string, mine: string): Promise<void> {
  await openFromTree(page, note);
  await otherWriter(note, theirs);
  const refused = nextPut(page, note);
  await typeAtEnd(page, mine);
  expect((await refused).status()).toBe(409);
  await strip(page).waitFor();
}

async function typeAtEnd(page: Page, text: string): Promise<void> {
  await page.locator('.editor-container:not([hidden]) .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

const strip = (page: Page) => page.getByTestId('conflict-strip');

const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-editor-',
  prepare: async (dirs) => {
    vault = dirs.vault;
    await writeFiles(vault, {
      'History/Story.md': STORY_V1,
      'Notes/Autosave.md': 'Autosave starts here.\n',
      'Notes/Windows.md': 'Line one\r\nLine two\r\n',
      'Notes/Mixed.md': 'Mixed one\r\nMixed two\n',
      'Notes/Elsewhere.md': 'Elsewhere.\n',
      'Notes/Keep.md': 'Keep: original line.\n',
      'Notes/Lost.md': 'Lost: original line.\n',
      'Notes/Disk.md': 'Disk: original line.\n',
      'Notes/Wake.md': 'Wake: original line.\n',
      'Notes/Quiet.md': 'Quiet: original line.\n',
      'Notes/Twice.md': 'Twice: original line.\n',
      'Notes/Changed.md': 'Changed: original line.\n',
      'Conflict.md': 'A note linked from the story.\n',
      'Old idea.md': 'An idea for the trash.\n',
    });
    // A git history for Story.md: two commits in the past.
    gitAt('2024-01-01T10:00:00Z', 'init', '-q', '--initial-branch=main');
    gitAt('2024-01-01T10:00:00Z', 'add', '-A');
    gitAt('2024-01-01T10:00:00Z', 'commit', '-q', '-m', 'First draft of the story');
    await fs.writeFile(path.join(vault, 'History/Story.md'), STORY_V2);
    gitAt('2024-06-01T10:00:00Z', 'commit', '-q', '-am', 'Second draft');
    // The working file was last saved between the two commits, so its version sits between them.
    const march = new Date('2024-03-01T10:00:00Z');
    await fs.utimes(path.join(vault, 'History/Story.md'), march, march);
  },
  ready: async (main) => {
    main.page.on('request', (r) => requests.push(r));
  },
});

describe('History starts closed and asks the server nothing until opened (Appendix B)', () => {
  it('the section is closed and no history or versions request was made', async () => {
    const { page } = main;
    const loaded = page.waitForResponse((r) => r.url().includes('/api/note?path=History%2FStory.md') && r.request().method() === 'GET');
    await openFromTree(page, 'History/Story.md');
    // The note's own answer came back and its text is drawn: opening it is done.
    await loaded;
    await waitFor(async () => (await editorText(page)).includes('Once upon a time'));
    const toggle = page.locator('#panel-history .section-toggle');
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('false');
    expect(requests.filter((r) => /\/api\/(history|versions)/.test(r.url()))).toEqual([]);
  });
});

describe('autosave (spec 4.4, 8): about 600 ms after typing stops, carrying the loaded mtime', () => {
  it('the typed text reaches the disk without pressing anything, and the save carried baseMtimeMs and baseHash', async () => {
    const { page } = main;
    const loaded = page.waitForResponse((r) => r.url().includes('/api/note?path=Notes%2FAutosave.md') && r.request().method() === 'GET');
    await openFromTree(page, 'Notes/Autosave.md');
    const { mtimeMs, hash } = (await (await loaded).json()) as { mtimeMs: number; hash: string };
    const saved = page.waitForRequest((r) => r.method() === 'PUT' && r.url().includes('Notes%2FAutosave.md'));
    await typeAtEnd(page, 'Typed in the browser.');
    const typedAt = Date.now();
    // The first save of the note leaves only once the typing has stopped for a while.
    const put = await saved;
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(450);
    // And the hash of the bytes it was loaded from: a later mtime over those same bytes is no change.
    expect(JSON.parse(put.postData()!)).toEqual({ content: 'Autosave starts here.\nTyped in the browser.', baseMtimeMs: mtimeMs, baseHash: hash });
    await waitFor(async () => (await disk('Notes/Autosave.md')) === 'Autosave starts here.\nTyped in the browser.');
    await waitFor(async () => (await page.locator('.note-bar .save-state').getAttribute('data-state')) === 'saved');
  });
});

describe('line breaks as the file has them', () => {
  it('a note written on Windows, or with mixed line breaks, opened and left is not written; typed in, a Windows note keeps \\r\\n', async () => {
    const { page } = main;
    const puts = (note: string) => requests.filter((r) => r.method() === 'PUT' && r.url().includes(encodeURIComponent(note)));
    for (const note of ['Notes/Windows.md', 'Notes/Mixed.md']) {
      const loaded = page.waitForResponse((r) => r.url().includes(`/api/note?path=${encodeURIComponent(note)}`) && r.request().method() === 'GET');
      await openFromTree(page, note);
      await loaded;
    }
    // Leaving them saves what changed: the positive signal is another note's save, after both tabs were left.
    await openFromTree(page, 'Notes/Elsewhere.md');
    const saved = nextPut(page, 'Notes/Elsewhere.md');
    await typeAtEnd(page, 'Typed.');
    expect((await saved).status()).toBe(200);
    expect(puts('Notes/Windows.md')).toEqual([]);
    expect(puts('Notes/Mixed.md')).toEqual([]);
    expect(await disk('Notes/Windows.md')).toBe('Line one\r\nLine two\r\n');
    expect(await disk('Notes/Mixed.md')).toBe('Mixed one\r\nMixed two\n');

    await openFromTree(page, 'Notes/Windows.md');
    await typeAtEnd(page, 'Three');
    await page.keyboard.press('Enter');
    await page.keyboard.type('Four');
    await waitFor(async () => (await disk('Notes/Windows.md')) === 'Line one\r\nLine two\r\nThree\r\nFour');
  });
});

describe('the resolution strip (spec 3.6)', () => {
  it('a second writer under unsaved edits raises the strip; Keep my version writes mine over the newer file', async () => {
    const { page } = main;
    await openFromTree(page, 'Notes/Keep.md');
    await typeAtEnd(page, 'MINE');
    await otherWriter('Notes/Keep.md', 'Keep: THEIRS from another program.\n');
    await strip(page).waitFor();
    await screenshot(page, 'conflict-strip', true);
    // Autosave is paused: more typing does not reach the disk. The typing is drawn, and the
    // page's own clock passes the autosave delay (its timer would have fired first): then look.
    const fetches = await recordFetches(page);
    await page.keyboard.type(' more');
    await waitFor(async () => (await editorText(page)).endsWith('MINE more'));
    await pageClockPassed(page, AUTOSAVE_DELAY_MS + 200);
    expect((await fetches.calls()).filter((c) => c.startsWith('PUT '))).toEqual([]);
    expect(await disk('Notes/Keep.md')).toBe('Keep: THEIRS from another program.\n');
    await page.getByRole('button', { name: 'Keep my version' }).click();
    await waitFor(async () => (await disk('Notes/Keep.md')) === 'Keep: original line.\nMINE more');
    await strip(page).waitFor({ state: 'detached' });

    // Autosave runs again.
    await page.keyboard.type('!');
    await waitFor(async () => (await disk('Notes/Keep.md')) === 'Keep: original line.\nMINE more!');
  });

  it("Keep my version never destroys the other writer's text: it is kept as a version, inside the merge window too", async () => {
    const { page } = main;
    await openFromTree(page, 'Notes/Lost.md');
    // A first save of mine (it keeps the original), then unsaved typing, then another writer.
    await typeAtEnd(page, 'MINE');
    await waitFor(async () => (await disk('Notes/Lost.md')).endsWith('MINE'));
    await waitFor(async () => (await page.locator('.note-bar .save-state').getAttribute('data-state')) === 'saved');
    // Hold my next autosave back, so the other writer surely lands under unsaved edits.
    const holdSaves = (route: import('playwright-core').Route) => (route.request().method() === 'PUT' ? route.abort() : route.continue());
    await page.route('**/api/note?*', holdSaves);
    await page.keyboard.type(' again');
    await otherWriter('Notes/Lost.md', 'Lost: THEIRS, typed elsewhere.\n');
    await strip(page).waitFor();
    await page.unroute('**/api/note?*', holdSaves);
    await page.getByRole('button', { name: 'Keep my version' }).click();
    await waitFor(async () => (await disk('Notes/Lost.md')) === 'Lost: original line.\nMINE again');
    const { versions } = (await server.admin('GET', '/api/versions?path=Notes%2FLost.md')).body;
    const texts = await Promise.all(
      versions.map(async (v: { at: string }) => (await server.admin('GET', `/api/versions/one?path=Notes%2FLost.md&at=${v.at}`)).body.content),
    );
    expect(texts).toEqual(['Lost: THEIRS, typed elsewhere.\n', 'Lost: original line.\n']);
  });

  it('Use the disk version loads the newer file, keeps my text as a version, and Ctrl+Z brings it back (and saves it)', async () => {
    const { page } = main;
    await openFromTree(page, 'Notes/Disk.md');
    await typeAtEnd(page, 'MINE2');
    await otherWriter('Notes/Disk.md', 'Disk: THEIRS2.\n');
    await strip(page).waitFor();
    await page.getByRole('button', { name: 'Use the disk version' }).click();
    await strip(page).waitFor({ state: 'detached' });
    expect(await editorText(page)).toBe('Disk: THEIRS2.\n');
    expect(await disk('Notes/Disk.md')).toBe('Disk: THEIRS2.\n');
    // My text is in History, not only in this tab's undo: a reload or a phone keeps it.
    const { versions } = (await server.admin('GET', '/api/versions?path=Notes%2FDisk.md')).body;
    const mine = versions.find((v: { reason: string }) => v.reason === 'Before a restore');
    expect(mine).toBeDefined();
    expect((await server.admin('GET', `/api/versions/one?path=Notes%2FDisk.md&at=${mine.at}`)).body.content).toBe('Disk: original line.\nMINE2');
    await page.locator('.editor-container:not([hidden]) .cm-content').focus();
    await page.keyboard.press('Control+z');
    expect(await editorText(page)).toBe('Disk: original line.\nMINE2');
    await waitFor(async () => (await disk('Notes/Disk.md')) === 'Disk: original line.\nMINE2');
  });

  it('without the event stream, the save itself is refused with 409 and the strip shows; nothing is written', async () => {
    const quiet = await quietWindow();
    try {
      await refusedSave(quiet.page, 'Notes/Quiet.md', 'Quiet: THEIRS.\n', 'MINE3');
      expect(await disk('Notes/Quiet.md')).toBe('Quiet: THEIRS.\n');
    } finally {
      await quiet.context.close();
    }
  });

  it('Keep my version over a file changed again since the strip showed writes nothing: the strip shows again, and the next Keep keeps that text as a version', async () => {
    const quiet = await quietWindow();
    try {
      const { page } = quiet;
      await refusedSave(page, 'Notes/Twice.md', 'Twice: THEIRS.\n', 'MINE4');
      // Known only to the server: no event tells this window.
      await otherWriter('Notes/Twice.md', 'Twice: THEIRS again.\n');
      const keptStale = nextPut(page, 'Notes/Twice.md');
      await page.getByRole('button', { name: 'Keep my version' }).click();
      expect((await keptStale).status()).toBe(409);
      await strip(page).waitFor();
      expect(await disk('Notes/Twice.md')).toBe('Twice: THEIRS again.\n');
      await page.getByRole('button', { name: 'Keep my version' }).click();
      await waitFor(async () => (await disk('Notes/Twice.md')) === 'Twice: original line.\nMINE4');
      await strip(page).waitFor({ state: 'detached' });
      const { versions } = (await server.admin('GET', '/api/versions?path=Notes%2FTwice.md')).body;
      const texts = await Promise.all(versions.map(async (v: { at: string }) => (await server.admin('GET', `/api/versions/one?path=Notes%2FTwice.md&at=${v.at}`)).body.content));
      expect(texts).toContain('Twice: THEIRS again.\n');
    } finally {
      await quiet.context.close();
    }
  });

  it('a hidden window becoming visible re-checks: unsaved edits get the strip at once, an untouched note reloads silently', async () => {
    const quiet = await quietWindow();
    try {
      const { page } = quiet;
      const setVisibility = (state: 'hidden' | 'visible') =>
        page.evaluate((s) => {
          Object.defineProperty(document, 'visibilityState', { value: s, configurable: true });
          document.dispatchEvent(new Event('visibilitychange'));
        }, state);

      // Untouched: reloads silently.
      await openFromTree(page, 'Notes/Wake.md');
      await setVisibility('hidden');
      await otherWriter('Notes/Wake.md', 'Wake: changed while hidden.\n');
      await setVisibility('visible');
      await waitFor(async () => (await editorText(page)) === 'Wake: changed while hidden.\n');
      expect(await strip(page).count()).toBe(0);

      // Unsaved edits (hiding saves what is pending, so these are typed while hidden):
      // the strip at once, before any save was tried.
      const fetches = await recordFetches(page);
      await setVisibility('hidden');
      await typeAtEnd(page, 'UNSAVED');
      await otherWriter('Notes/Wake.md', 'Wake: changed again.\n');
      await setVisibility('visible');
      await strip(page).waitFor();
      // The strip is up; the page's own clock passes the autosave delay (the typing's timer fires first).
      await pageClockPassed(page, AUTOSAVE_DELAY_MS + 200);
      expect((await fetches.calls()).filter((c) => c.startsWith('PUT ') && c.includes('Notes%2FWake.md'))).toEqual([]);
      expect(await disk('Notes/Wake.md')).toBe('Wake: changed again.\n');
    } finally {
      await quiet.context.close();
    }
  });

  it('when the event stream reconnects, open notes are re-checked (the stream replays nothing missed)', async () => {
    const quiet = await openAdmin(browser, server);
    try {
      const { page } = quiet;
      // A stream that carries no events and ends at once: the browser reconnects again
      // and again, and only the re-check on reconnect can tell this window anything.
      await page.route('**/api/events', (route) =>
        route.fulfill({ status: 200, headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store' }, body: ': connected\n\n' }),
      );
      await page.reload();
      await page.locator('.app').waitFor();
      await openFromTree(page, 'Notes/Wake.md');
      expect(await editorText(page)).toBe(await disk('Notes/Wake.md'));
      await otherWriter('Notes/Wake.md', 'Wake: changed while the stream was down.\n');
      await waitFor(async () => (await editorText(page)) === 'Wake: changed while the stream was down.\n', 20_000);
      expect(await strip(page).count()).toBe(0);
    } finally {
      await quiet.context.close();
    }
  });

  it('a `changed` event for an open, untouched note reloads it silently', async () => {
    const { page } = main;
    await openFromTree(page, 'Notes/Changed.md');
    await server.admin('PUT', '/api/note?path=Notes%2FChanged.md', { content: 'Changed: by another window.\n' });
    await waitFor(async () => (await editorText(page)) === 'Changed: by another window.\n');
    expect(await strip(page).count()).toBe(0);
  });
});

describe('History: one timeline of commits and versions (Appendix B, spec 9)', () => {
  it('opening the section lists commits and versions in one timeline, newest first, told apart by row style', async () => {
    const { page } = main;
    await openFromTree(page, 'History/Story.md');
    await typeAtEnd(page, 'Third draft, typed.');
    await waitFor(async () => (await disk('History/Story.md')).includes('Third draft, typed.'));
    await page.locator('#panel-history .section-toggle').click();
    const rows = page.locator('.timeline .tl-row');
    await waitFor(async () => (await rows.count()) === 3);
    const kinds = await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-kind')));
    const times = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-time'))));
    expect(kinds).toEqual(['commit', 'version', 'commit']);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    await expect(rows.nth(0).textContent()).resolves.toContain('Second draft');
    await expect(rows.nth(0).textContent()).resolves.toMatch(/\+\d+\s*−\d+/);
    await expect(rows.nth(1).textContent()).resolves.toContain('Earlier save');
    await expect(rows.nth(2).textContent()).resolves.toContain('First draft of the story');
    await screenshot(page, 'editor-history', true);
  });

  it('once opened it stays open (a device preference): a reload finds it open', async () => {
    const other = await openAdmin(browser, server);
    try {
      await openFromTree(other.page, 'History/Story.md');
      await expect(other.page.locator('#panel-history .section-toggle').getAttribute('aria-expanded')).resolves.toBe('true');
    } finally {
      await other.context.close();
    }
  });

  it('tapping a commit renders that revision as the article renders (title, Markdown)', async () => {
    const { page } = main;
    await page.locator('.timeline .tl-row[data-kind="commit"]').last().click();
    const frame = page.frameLocator('[data-testid="revision-view"] iframe');
    await expect(frame.locator('h1').textContent()).resolves.toBe('The story');
    await expect(frame.locator('strong').textContent()).resolves.toBe('first draft');
  });

  it('restoring a commit revision writes it, keeping the text it replaces (saved a moment ago) as a version; the toast’s Undo takes it back', async () => {
    const { page } = main;
    const before = await disk('History/Story.md');
    await page.getByRole('button', { name: 'Restore this revision' }).click();
    await waitFor(async () => (await disk('History/Story.md')) === STORY_V1);
    expect(await editorText(page)).toBe(STORY_V1);
    // Typed and saved within the 5 minutes an ordinary save merges: a restore keeps it all the same.
    const { versions } = (await server.admin('GET', '/api/versions?path=History%2FStory.md')).body;
    const kept = versions.filter((v: { reason: string }) => v.reason === 'Before a restore');
    expect(kept).toHaveLength(1);
    expect((await server.admin('GET', `/api/versions/one?path=History%2FStory.md&at=${kept[0].at}`)).body.content).toBe(before);
    await page.locator('.toast').getByRole('button', { name: 'Undo' }).click();
    await waitFor(async () => (await disk('History/Story.md')) === before);
    expect(await editorText(page)).toBe(before);
  });

  it('restoring a local version asks first, then the server restores it and the editor shows it', async () => {
    const { page } = main;
    await page.locator('.timeline .tl-row[data-kind="version"]').first().click();
    const shown = await page.frameLocator('[data-testid="revision-view"] iframe').locator('.s-article-body').textContent();
    await page.getByRole('button', { name: 'Restore this revision' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain('Restore the version saved');
    await dialog.getByRole('button', { name: 'Restore this revision' }).click();
    await waitFor(async () => (await disk('History/Story.md')) === STORY_V2);
    expect(shown).toContain('second draft');
    await waitFor(async () => (await editorText(page)) === STORY_V2);
    const reasons = (await server.admin('GET', '/api/versions?path=History%2FStory.md')).body.versions.map((v: { reason: string }) => v.reason);
    expect(reasons).toContain('Before a restore');
  });
});

describe('trash (spec 3.3)', () => {
  it('a note moved to the trash from the tree is listed with where it came from, and Restore brings it back', async () => {
    const { page } = main;
    const row = page.locator('.tree-line', { has: page.locator('.tree-row[data-path="Old idea.md"]') });
    await row.hover();
    await row.getByRole('button', { name: /Actions for/ }).click();
    await page.getByRole('menuitem', { name: 'Move to trash' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Move to trash' }).click();
    await page.locator('.tree-row[data-path="Old idea.md"]').waitFor({ state: 'detached' });
    await expect(fs.stat(path.join(vault, 'Old idea.md'))).rejects.toThrow();

    await page.locator('.top-bar').getByRole('button', { name: 'Trash', exact: true }).click();
    const entry = page.locator('.trash-list li[data-path="Old idea.md"]');
    await expect(entry.textContent()).resolves.toContain('from Old idea.md');
    await expect(entry.locator('.vault-path').textContent()).resolves.toBe('Old idea.md');
    await screenshot(page, 'trash');
    await entry.getByRole('button', { name: 'Restore' }).click();
    await entry.waitFor({ state: 'detached' });
    expect(await disk('Old idea.md')).toBe('An idea for the trash.\n');
    await page.locator('.tree-row[data-path="Old idea.md"]').waitFor();
  });

  it('Erase asks first and removes one entry for good; Empty trash asks first and removes the rest', async () => {
    const { page } = main;
    await server.admin('DELETE', '/api/note?path=Conflict.md');
    await server.admin('DELETE', '/api/note?path=Notes%2FQuiet.md');
    await page.locator('.top-bar').getByRole('button', { name: 'Edit', exact: true }).click();
    await page.locator('.top-bar').getByRole('button', { name: 'Trash', exact: true }).click();
    const list = page.locator('.trash-list li');
    await waitFor(async () => (await list.count()) === 2);
    await page.locator('.trash-list li[data-path="Conflict.md"]').getByRole('button', { name: 'Erase' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain('Erase “Conflict.md” for good?');
    await dialog.getByRole('button', { name: 'Erase' }).click();
    await waitFor(async () => (await list.count()) === 1);
    expect((await server.admin('GET', '/api/trash')).body.entries.map((e: { path: string }) => e.path)).toEqual(['Notes/Quiet.md']);
    await page.getByRole('button', { name: 'Empty trash' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Empty trash' }).click();
    await page.getByText('The trash is empty.').waitFor();
    expect((await server.admin('GET', '/api/trash')).body.entries).toEqual([]);
  });
});
