// An image button beside paste and drop: the note bar's Image picks files from the device,
// stores each in the vault's attachment folder and inserts ![[name]] at the cursor, as a
// paste does; the note bar stays one row at 1,280 px.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { adminForFile, openFromTree, screenshot } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';

let vault = '';
const { main } = adminForFile({
  prefix: 'vs-e2e-image-button-',
  prepare: async (dirs) => {
    vault = dirs.vault;
    await fs.writeFile(path.join(dirs.vault, 'Trip.md'), 'Photos: \n');
  },
});

describe('the note bar\'s Image button', () => {
  it('stores the picked image and inserts ![[name]] where the cursor is', async () => {
    const { page } = main;
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 40, height: 30 } });
    await openFromTree(page, 'Trip.md');
    await page.locator('.editor-container:not([hidden]) .cm-content').click();
    await page.keyboard.press('Control+End');
    const bar = page.locator('.note-bar');
    expect((await bar.boundingBox())!.height).toBeLessThan(60);
    await page.locator('[data-testid="image-input"]').setInputFiles({ name: 'Harbour.png', mimeType: 'image/png', buffer: png });
    await waitFor(async () => (await fs.readFile(path.join(vault, 'Trip.md'), 'utf8')).includes('![[Harbour.png]]'));
    expect((await fs.readFile(path.join(vault, 'Attachments', 'Harbour.png'))).equals(png)).toBe(true);
    // One word, said as one: "Photos:" (an embed is not a word).
    await waitFor(async () => (await page.getByTestId('word-count').textContent()) === '1 word');
    await screenshot(page, 'editor-image-button');
  });
});
