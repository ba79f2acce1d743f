// `[[Note#^` in the admin's editor, in a real browser against the real server: the blocks of a
// note as Obsidian suggests them, and a block without an id given one, in this note, in a note
// open in another tab, or on disk (admin/ui/src/editor/wikilink-complete.ts, block-list.ts).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminForFile, editorText, openFromTree, pageClockPassed, recordFetches } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

let vault = '';
const { main } = adminForFile({
  prefix: 'vs-e2e-block-links-',
  prepare: async (dirs) => {
    vault = dirs.vault;
    await writeFiles(vault, {
      'Blocks.md': 'First paragraph about roots.\n\n- a step\n- the step with an id ^step-2\n\n| a | b |\n|---|---|\n| 1 | 2 |\n',
      'Block links.md': 'Links to blocks.\n',
      'Own blocks.md': 'A paragraph to cite.\n\nLater text.\n',
      'Open blocks.md': 'A block in an open tab.\n',
      'Follow.md': 'Go to [[Blocks#^step-2]].\n',
      'Changing.md': 'A sentence about to change.\n\nAnother one.\n',
      'Paper.tex': '\\section{Intro}\n\nSome text.\n',
      'Signal.md': 'A signal block.\n',
    });
  },
});

const disk = (p: string) => fs.readFile(path.join(vault, p), 'utf8');

/** Opens `note` and types `text` at its end. */
async function typeAtEnd(page: Page, note: string, text: string): Promise<void> {
  await openFromTree(page, note);
  await page.locator('.editor-container:not([hidden]) .cm-content').click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(text);
}

describe('[[Note#^: the blocks of a note, as Obsidian suggests them', () => {
  /** Types `text` into the open list's query and takes the first suggestion once it shows `first`. */
  async function take(page: Page, first: string): Promise<void> {
    const options = page.locator('.cm-tooltip-autocomplete li');
    await waitFor(async () => (await options.first().textContent())?.includes(first));
    // Not within CodeMirror's 75 ms of the list opening (its interactionDelay).
    await new Promise((resolve) => setTimeout(resolve, 100));
    await page.keyboard.press('Enter');
  }

  it('lists its paragraphs, items and table, an id shown beside the block that has one; taking it links that id and changes no note', async () => {
    const { page } = main;
    await typeAtEnd(page, 'Block links.md', '\nSee [[Blocks#^');
    const options = page.locator('.cm-tooltip-autocomplete li');
    await waitFor(async () => (await options.count()) === 4);
    expect(await options.allTextContents()).toEqual(['First paragraph about roots.', 'a step', 'the step with an id^step-2', 'a | b']);
    await page.keyboard.type('id');
    await take(page, 'the step with an id');
    await waitFor(async () => (await editorText(page)).endsWith('See [[Blocks#^step-2]]'));
    await waitFor(async () => (await disk('Block links.md')).endsWith('See [[Blocks#^step-2]]'));
    expect(await disk('Blocks.md')).toBe('First paragraph about roots.\n\n- a step\n- the step with an id ^step-2\n\n| a | b |\n|---|---|\n| 1 | 2 |\n');
  });

  it('a block without an id gets a new one in its note, saved there, and the link names it', async () => {
    const { page } = main;
    await typeAtEnd(page, 'Block links.md', ' And [[Blocks#^roots');
    await take(page, 'First paragraph about roots.');
    await waitFor(async () => /And \[\[Blocks#\^[a-z0-9]{6}\]\]$/.test(await editorText(page)));
    const id = /\^([a-z0-9]{6})\]\]$/.exec(await editorText(page))![1]!;
    await waitFor(async () => (await disk('Blocks.md')).startsWith(`First paragraph about roots. ^${id}\n\n- a step\n`));
    await page.locator('.toast', { hasText: `The block id ^${id} was added to Blocks.md.` }).waitFor();
    await waitFor(async () => (await disk('Block links.md')).endsWith(`And [[Blocks#^${id}]]`));
    // Listed again, the block shows its id.
    await page.keyboard.type(' [[Blocks#^');
    const options = page.locator('.cm-tooltip-autocomplete li');
    await waitFor(async () => (await options.first().textContent()) === `First paragraph about roots.^${id}`);
    await page.keyboard.press('Escape');
  });

  it('a block changed on disk after it was listed gets no id: the toast says so, and the note is left as it is', async () => {
    const { page } = main;
    await typeAtEnd(page, 'Block links.md', ' [[Changing#^about');
    const options = page.locator('.cm-tooltip-autocomplete li');
    await waitFor(async () => (await options.first().textContent()) === 'A sentence about to change.');
    await fs.writeFile(path.join(vault, 'Changing.md'), 'A sentence that changed.\n\nAnother one.\n');
    await take(page, 'A sentence about to change.');
    await page.locator('.toast', { hasText: 'The block is no longer in Changing.md: no id was added.' }).waitFor();
    expect(await disk('Changing.md')).toBe('A sentence that changed.\n\nAnother one.\n');
  });

  it('a LaTeX note offers no blocks: it is not even read for them, and nothing is written into its TeX', async () => {
    const { page } = main;
    const fetches = await recordFetches(page);
    await typeAtEnd(page, 'Block links.md', ' [[Paper.tex#^');
    // Past CodeMirror's wait before it asks for suggestions while keys are typed.
    await pageClockPassed(page, 300);
    await page.keyboard.press('End');
    // A Markdown note's blocks, asked for after: once they are listed, Paper.tex would have been read by now.
    await page.keyboard.type(' [[Signal#^');
    const options = page.locator('.cm-tooltip-autocomplete li');
    await waitFor(async () => (await options.first().textContent()) === 'A signal block.');
    expect((await fetches.calls()).filter((call) => call.includes('Signal.md'))).not.toEqual([]);
    expect((await fetches.calls()).filter((call) => call.includes('Paper.tex'))).toEqual([]);
    await page.keyboard.press('Escape');
    expect(await disk('Paper.tex')).toBe('\\section{Intro}\n\nSome text.\n');
  });

  it('in this note: the id and the link are one change, undone by one Ctrl+Z', async () => {
    const { page } = main;
    await typeAtEnd(page, 'Own blocks.md', 'See [[#^cite');
    await take(page, 'A paragraph to cite.');
    await waitFor(async () => /^A paragraph to cite\. \^[a-z0-9]{6}\n\nLater text\.\nSee \[\[#\^[a-z0-9]{6}\]\]$/.test(await editorText(page)));
    const text = await editorText(page);
    const id = /cite\. \^(\w+)/.exec(text)![1]!;
    expect(/#\^(\w+)\]\]/.exec(text)![1]).toBe(id);
    // One Ctrl+Z takes back the id and the link together (with what was typed just before, as CodeMirror groups it).
    await page.keyboard.press('Control+z');
    await waitFor(async () => !(await editorText(page)).includes(id));
    expect((await editorText(page)).startsWith('A paragraph to cite.\n\nLater text.\n')).toBe(true);
  });

  it('in a note open in another tab: the id goes into that tab, which saves it, with no conflict', async () => {
    const { page } = main;
    await openFromTree(page, 'Open blocks.md');
    await typeAtEnd(page, 'Block links.md', ' [[Open blocks#^');
    await take(page, 'A block in an open tab.');
    await waitFor(async () => /\[\[Open blocks#\^[a-z0-9]{6}\]\]$/.test(await editorText(page)));
    const id = /\^([a-z0-9]{6})\]\]$/.exec(await editorText(page))![1]!;
    await waitFor(async () => (await disk('Open blocks.md')) === `A block in an open tab. ^${id}\n`);
    await page.locator('.tab [title="Open blocks.md"]').click();
    await waitFor(async () => (await editorText(page)) === `A block in an open tab. ^${id}\n`);
    expect(await page.locator('.conflict-strip, .resolution-strip').count()).toBe(0);
  });

  it('Ctrl/Cmd+click on [[Note#^id]] opens the note at that block', async () => {
    const { page } = main;
    await openFromTree(page, 'Follow.md');
    await page.locator('.cm-line', { hasText: 'Go to' }).getByText('Blocks#^step-2').click({ modifiers: ['Control'] });
    await page.locator('.tab.active [title="Blocks.md"]').waitFor();
    await waitFor(() => page.evaluate(() => (window.getSelection()?.anchorNode?.parentElement?.closest('.cm-line')?.textContent ?? '').includes('the step with an id')));
  });
});
