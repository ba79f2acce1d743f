// An open Settings form and another server's change (spec 8, docs/decisions/settings-mirror-merge.md):
// two real servers share one vault; B saves settings, A's mirror merges them in, and the form
// open on A shows them at once (the `settings` event) in every field the owner left alone,
// while a field the owner is editing keeps the draft and says what the value became. The
// form had kept the values it loaded until it was opened again.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminForFile } from '../helpers/browser.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const env = { SETTINGS_MIRROR_SECONDS: '1' };
let vault = '';
let base = '';
let b: TestServer;

const input = (page: Page, name: string) => page.locator(`[data-group="site"] input[name="${name}"]`);
const settingsOf = async (server: TestServer) => (await server.admin('GET', '/api/settings')).body as Record<string, unknown>;
/** The mirror carried `values` to `server` (a positive signal: its own GET says so). */
const arrived = (server: TestServer, values: Record<string, string>) =>
  waitFor(async () => {
    const s = await settingsOf(server);
    return Object.entries(values).every(([k, v]) => s[k] === v) || null;
  }, 10_000);

const { server: a, main } = adminForFile({
  prefix: 'vs-e2e-settings-live-',
  prepare: async (dirs) => {
    ({ vault, base } = dirs);
    await writeFiles(vault, { 'Home.md': '---\npublish: true\n---\nHome.\n' });
    return { env };
  },
});

beforeAll(async () => {
  b = await startServer({ vault, data: path.join(base, 'data-b'), env });
  expect((await a.admin('PATCH', '/api/settings', { siteName: 'Start', tagline: 'Start', footer: 'Start' })).status).toBe(200);
  await arrived(b, { siteName: 'Start', tagline: 'Start', footer: 'Start' });
  await main.page.locator('.top-bar').getByRole('button', { name: 'Settings', exact: true }).click();
  await main.page.getByTestId('settings-view').waitFor();
  await waitFor(async () => (await input(main.page, 'siteName').inputValue()) === 'Start');
}, 60_000);

afterAll(async () => {
  await b?.stop();
});

describe('an open Settings form follows the settings another server saved', () => {
  it('untouched fields show the new values; an edited field keeps the draft and names the new value; Save loses neither', async () => {
    const { page } = main;
    await input(page, 'tagline').fill('Owner’s tagline');
    expect((await b.admin('PATCH', '/api/settings', { siteName: 'Named on B', tagline: 'Tagline from B' })).status).toBe(200);
    await arrived(a, { siteName: 'Named on B', tagline: 'Tagline from B' });
    await waitFor(async () => (await input(page, 'siteName').inputValue()) === 'Named on B', 5000).catch(async (err) => {
      throw new Error(`${err.message}: the form still shows ${JSON.stringify(await input(page, 'siteName').inputValue())}`);
    });
    await expect(input(page, 'tagline').inputValue()).resolves.toBe('Owner’s tagline');
    const note = page.locator('[data-changed-for="tagline"]');
    await expect(note.textContent()).resolves.toContain('Tagline from B');
    await expect(page.locator('[data-changed-for="siteName"]').count()).resolves.toBe(0);

    await page.getByTestId('settings-save').getByRole('button', { name: 'Save', exact: true }).click();
    await note.waitFor({ state: 'detached' });
    const saved = await settingsOf(a);
    expect([saved.siteName, saved.tagline, saved.footer]).toEqual(['Named on B', 'Owner’s tagline', 'Start']);
    await arrived(b, { siteName: 'Named on B', tagline: 'Owner’s tagline', footer: 'Start' });
  });

  it('“Use the server’s value” drops the draft for what the other server saved', async () => {
    const { page } = main;
    await input(page, 'footer').fill('Owner’s footer');
    expect((await b.admin('PATCH', '/api/settings', { footer: 'Footer from B' })).status).toBe(200);
    const note = page.locator('[data-changed-for="footer"]');
    await note.waitFor();
    await note.getByRole('button', { name: 'Use the server’s value' }).click();
    await expect(input(page, 'footer').inputValue()).resolves.toBe('Footer from B');
    await expect(page.getByTestId('settings-save').textContent()).resolves.toContain('Everything is saved.');
  });
});
