// Settings, the 'What travels' report, the tree actions of spec D.5 and the
// dashboard's Change banner (spec D.3), in a real browser against the real server
// and its public site.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { clearToasts, screenshot, adminForFile } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

let vault: string;
let data: string;

const read = (p: string) => fs.readFile(path.join(vault, p), 'utf8');
const group = (page: Page, id: string) => page.locator(`[data-group="${id}"]`);
/** Settings has one Save for every group. */
const saveSettings = (page: Page) => page.getByTestId('settings-save').getByRole('button', { name: 'Save', exact: true }).click();
const settings = async () => (await server.admin('GET', '/api/settings')).body;

async function visitorHome(): Promise<string> {
  const res = await fetch(server.url + '/');
  return res.text();
}

async function treeAction(page: Page, entryPath: string, action: string): Promise<void> {
  const line = page.locator('.tree-line', { has: page.locator(`.tree-row[data-path="${entryPath}"]`) });
  await line.hover();
  await line.getByRole('button', { name: /Actions for/ }).click();
  await page.getByRole('menuitem', { name: action }).click();
}

const { server, browser, main } = adminForFile({
  prefix: 'vs-e2e-settings-',
  prepare: async (dirs) => {
    ({ vault, data } = dirs);
    await writeFiles(vault, {
      'Home.md': '---\ntitle: Welcome\npublish: true\npage: true\n---\nThe home note.\n',
      'Posts/One.md': '---\ntitle: One\npublish: true\ndate: 2026-01-02\ntags: [writing]\n---\nThe first post.\n',
      'Drafts/A.md': '---\ntitle: A\n---\nDraft A.\n',
      'Drafts/B.md': '---\ntitle: B\npublish: false\n---\nDraft B.\n',
      'Drafts/C.md': '---\ntitle: C\npublish: true\ndate: 2026-01-03\n---\nAlready published.\n',
      'Topics/writing.md': '---\ntitle: Writing\ncollection: true\nicon: ✎\ndescription: Notes on writing.\n---\n',
      'Recipes/Recipes.md': '---\nicon: 🍲\n---\nThe recipes folder note.\n',
      'Recipes/Soup.md': '---\ntitle: Soup\ntags: [food]\n---\nA soup.\n',
    });
    await fs.mkdir(path.join(vault, 'Attachments'), { recursive: true });
    await fs.writeFile(path.join(vault, 'Attachments', 'sky.png'), PNG);
    // An uploaded font over the 5 MB cap: the mirror must leave it behind, with the reason.
    await fs.mkdir(path.join(data, 'fonts', 'custom'), { recursive: true });
    await fs.writeFile(path.join(data, 'fonts', 'custom', 'Huge.woff2'), Buffer.alloc(6 * 1024 * 1024, 1));
    return { env: { PUBLIC_LAYOUT: 'blog', SITE_TAGLINE: 'A tagline from the environment', SETTINGS_MIRROR_SECONDS: '1' } };
  },
  ready: async (main) => {
    await main.page.locator('.top-bar').getByRole('button', { name: 'Settings', exact: true }).click();
    await main.page.getByTestId('settings-view').waitFor();
  },
});

describe('site settings reach the public site (CONTRACT §5, spec 2.1)', () => {
  it('a value from the environment is shown and marked as this server’s', async () => {
    const site = group(main.page, 'site');
    await expect(site.locator('input[name="tagline"]').inputValue()).resolves.toBe('A tagline from the environment');
    await expect(site.locator('label', { has: main.page.locator('input[name="tagline"]') }).textContent()).resolves.toContain(
      'From the server’s configuration',
    );
  });

  it('saving a new site name changes the name visitors see', async () => {
    const { page } = main;
    const site = group(page, 'site');
    await site.locator('input[name="siteName"]').fill('The Glasshouse');
    await saveSettings(page);
    await page.locator('.toast', { hasText: 'Settings saved.' }).waitFor();
    expect((await settings()).siteName).toBe('The Glasshouse');
    // Only the changed field was saved: the tagline is still this server's own.
    expect((await settings()).fromEnv).toContain('tagline');
    expect(JSON.parse(await fs.readFile(path.join(data, 'settings.json'), 'utf8')).tagline ?? null).toBeNull();
    await waitFor(async () => (await visitorHome()).includes('The Glasshouse'), 30_000, 250);
    await clearToasts(page);
    await screenshot(page, 'settings', true);
  });
});

describe('CONTRACT §10 and feeds: Dates visitors read, Feed content', () => {
  it('Hijri in Settings → Site reaches the article; the full article in Publishing reaches the feed', async () => {
    const { page } = main;
    await group(page, 'site').getByLabel('Hijri (Umm al-Qura)').check();
    await group(page, 'publishing').getByLabel('The full article').check();
    await saveSettings(page);
    await page.locator('.toast', { hasText: 'Settings saved.' }).waitFor();
    expect((await settings()).calendars.display).toBe('hijri');
    expect((await settings()).publishing.feedContent).toBe('full');
    await waitFor(async () => (await (await fetch(server.url + '/Posts/One')).text()).includes('<time datetime="2026-01-02T00:00:00.000Z">Rajab 13, 1447 AH</time>'), 30_000, 250);
    await waitFor(async () => (await (await fetch(server.url + '/feed.xml')).text()).includes('<content:encoded>&lt;p&gt;The first post.&lt;/p&gt;'), 30_000, 250);
    await clearToasts(page);
    await group(page, 'site').getByLabel('Hijri (Umm al-Qura)').scrollIntoViewIfNeeded();
    await screenshot(page, 'settings-calendar');
  });
});

describe('collections (spec D.5): the panel lists what the vault declares', () => {
  it('lists the tag page with collection: true, and the switches save', async () => {
    const { page } = main;
    const c = group(page, 'collections');
    await expect(c.getByTestId('declared-collections').textContent()).resolves.toContain('Writing');
    await c.getByLabel('Turn on collections').check();
    await c.getByLabel('Show in navigation').check();
    await saveSettings(page);
    await waitFor(async () => {
      const s = (await settings()).collections;
      return s.enabled === true && s.showInNav === true && s.showOnHome === true;
    });
  });
});

describe('Keep note versions (spec 9)', () => {
  it('turning it off is saved, and the versions API reports it', async () => {
    const { page } = main;
    const v = group(page, 'versions');
    await v.getByLabel('Keep note versions').uncheck();
    await saveSettings(page);
    await waitFor(async () => (await server.admin('GET', '/api/versions?path=Home.md')).body.enabled === false);
    await v.getByLabel('Keep note versions').check();
    await saveSettings(page);
    await waitFor(async () => (await server.admin('GET', '/api/versions?path=Home.md')).body.enabled === true);
  });
});

describe('What travels (Appendix C)', () => {
  it('shows one glyph per item, the last pass, files reconciled, a red line per file left behind, and Re-sync now', async () => {
    const { page } = main;
    const report = page.getByTestId('travel-report');
    // The boot pass already filled the report: wait for this pass's own answer.
    const resynced = page.waitForResponse((r) => r.url().endsWith('/api/sync/travel') && r.request().method() === 'POST');
    await report.getByRole('button', { name: 'Re-sync now' }).click();
    await resynced;
    await waitFor(async () => (await report.locator('[data-field="last-pass"]').textContent()) !== 'never');
    await waitFor(async () => (await report.locator('.error-line[data-file="fonts/custom/Huge.woff2"]').count()) > 0);
    const glyphs = await report.locator('.travel-items .glyph').allTextContents();
    expect(glyphs.length).toBeGreaterThanOrEqual(6);
    for (const g of glyphs) expect(['✓', '⚠', '–']).toContain(g);
    await expect(report.locator('[data-item="site"] .glyph').textContent()).resolves.toBe('✓');
    expect(Number(await report.locator('[data-field="reconciled"]').textContent())).toBeGreaterThan(0);
    const red = report.locator('.error-line[data-file="fonts/custom/Huge.woff2"]');
    await expect(red.textContent()).resolves.toMatch(/Huge\.woff2 was left behind: .*5\.0 MB/);
  });

  it('Settings travel with the vault is this device’s switch', async () => {
    const { page } = main;
    const device = group(page, 'device');
    await device.getByLabel(/Settings travel with the vault/).uncheck();
    await waitFor(async () => (await server.admin('GET', '/api/prefs')).body.travelWithVault === false);
    await device.getByLabel(/Settings travel with the vault/).check();
    await waitFor(async () => (await server.admin('GET', '/api/prefs')).body.travelWithVault === true);
  });
});

describe('tree actions (spec D.5)', () => {
  it('“Create a topic from this folder…” writes the tag page with the folder’s mark and folder:, publishing nothing', async () => {
    const { page } = main;
    await page.locator('.top-bar').getByRole('button', { name: 'Edit', exact: true }).click();
    await treeAction(page, 'Recipes', 'Create a topic from this folder…');
    const dialog = page.getByRole('dialog');
    await expect(dialog.locator('input').inputValue()).resolves.toBe('recipes');
    await dialog.getByRole('button', { name: 'OK' }).click();
    await waitFor(() => read('Topics/recipes.md').then(() => true, () => false));
    const page_ = await read('Topics/recipes.md');
    expect(page_).toMatch(/^---\n/);
    expect(page_).toContain('title: Recipes\n');
    expect(page_).toContain('collection: true\n');
    expect(page_).toContain('icon: 🍲\n');
    expect(page_).toContain('folder: Recipes\n');
    expect(await read('Recipes/Soup.md')).not.toContain('publish');
  });

  it('“Publish every note in this folder…” asks with the count, then writes publish: true into each note lacking it', async () => {
    const { page } = main;
    const cBefore = await read('Drafts/C.md');
    await treeAction(page, 'Drafts', 'Publish every note in this folder…');
    const dialog = page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain('Publish 2 notes in “Drafts”?');
    await dialog.getByRole('button', { name: 'Publish every note in this folder' }).click();
    await page.locator('.toast', { hasText: '2 notes published.' }).waitFor();
    expect(await read('Drafts/A.md')).toBe('---\ntitle: A\npublish: true\n---\nDraft A.\n');
    expect(await read('Drafts/B.md')).toBe('---\ntitle: B\npublish: true\n---\nDraft B.\n');
    expect(await read('Drafts/C.md')).toBe(cBefore);
  });

  it('“Collections…” on a note ticks memberships, writes tags:, and a folder membership is ticked and fixed', async () => {
    const { page } = main;
    if ((await page.locator('.tree-row[data-path="Recipes"]').getAttribute('aria-expanded')) !== 'true') {
      await page.locator('.tree-row[data-path="Recipes"]').click();
    }
    await treeAction(page, 'Recipes/Soup.md', 'Collections…');
    const dialog = page.getByRole('dialog');
    const recipes = dialog.getByRole('checkbox', { name: /Recipes/ });
    const writing = dialog.getByRole('checkbox', { name: /Writing/ });
    await recipes.waitFor();
    await expect(recipes.isChecked()).resolves.toBe(true);
    await expect(recipes.isDisabled()).resolves.toBe(true);
    await expect(writing.isChecked()).resolves.toBe(false);
    await writing.check();
    await screenshot(page, 'collections-dialog');
    await dialog.getByRole('button', { name: 'Save memberships' }).click();
    await waitFor(async () => (await read('Recipes/Soup.md')).includes('tags: [food, writing]'));
    expect(await read('Recipes/Soup.md')).toBe('---\ntitle: Soup\ntags: [food, writing]\n---\nA soup.\n');
  });
});

describe('attachments in the tree', () => {
  it('an image attachment opens in the main area, served to the admin with a no-script policy', async () => {
    const { page } = main;
    if ((await page.locator('.tree-row[data-path="Attachments"]').getAttribute('aria-expanded')) !== 'true') {
      await page.locator('.tree-row[data-path="Attachments"]').click();
    }
    await page.locator('.tree-row[data-path="Attachments/sky.png"]').click();
    const img = page.getByTestId('attachment-view').locator('img');
    await waitFor(async () => (await img.evaluate((i) => (i as HTMLImageElement).naturalWidth)) === 1);
    const res = await server.admin('GET', '/api/file?path=Attachments%2Fsky.png');
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect((await server.api('GET', '/api/file?path=Attachments%2Fsky.png')).status).toBe(401);
  });
});

describe('Change banner on the dashboard hero (spec D.3)', () => {
  it('an admin previewing the home as a visitor hovers the hero and changes the banner: a pasted URL, then an upload', async () => {
    const { page } = main;
    await page.locator('.top-bar').getByRole('button', { name: 'Settings', exact: true }).click();
    const home = group(page, 'home');
    await home.getByLabel('A dashboard').check();
    await saveSettings(page);
    await waitFor(async () => (await settings()).home.mode === 'dashboard');
    await waitFor(async () => (await visitorHome()).includes('s-hero'), 30_000, 250);

    await page.locator('.top-bar').getByRole('button', { name: 'Preview as visitor' }).click();
    const frame = page.frameLocator('.site-frame');
    const hero = frame.locator('.s-hero');
    await hero.waitFor();
    const button = frame.getByTestId('change-banner');
    await button.waitFor({ state: 'attached' });
    await expect(button.evaluate((b) => getComputedStyle(b).opacity)).resolves.toBe('0');
    await hero.hover();
    await waitFor(async () => (await button.evaluate((b) => getComputedStyle(b).opacity)) === '1');
    await clearToasts(page);
    await screenshot(page, 'preview-change-banner', true);
    await button.click();

    const dialog = page.getByRole('dialog', { name: 'Dashboard banner' });
    await dialog.locator('input[name="bannerUrl"]').fill('https://images.example.test/sky.jpg');
    // One 'Use this banner' button in the dialog.
    expect(await dialog.getByRole('button', { name: 'Use this banner' }).count()).toBe(1);
    await dialog.getByRole('button', { name: 'Use this banner' }).click();
    await waitFor(async () => (await settings()).home.banner === 'https://images.example.test/sky.jpg');

    await frame.locator('.s-hero').waitFor();
    await frame.locator('.s-hero').hover();
    await frame.getByTestId('change-banner').click();
    // Twice in clean-clone runs the upload's dialog said 'The server cannot be reached': which request, and why.
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.method()} ${request.url()} ${request.failure()?.errorText ?? ''}`));
    await page.getByRole('dialog', { name: 'Dashboard banner' }).locator('input[type="file"]').setInputFiles({
      name: 'meadow.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    const picked = page.getByRole('dialog').locator('.image-grid button[title="Attachments/meadow.png"]');
    // The upload, then the tree read again: on a loaded machine once more than 10 s. A refused one says why in the dialog.
    const uploaded = page.getByRole('dialog', { name: 'Dashboard banner' });
    const pressed = async () => (await picked.count()) > 0 && (await picked.getAttribute('aria-pressed', { timeout: 1_000 })) === 'true';
    await waitFor(async () => (await pressed()) || (await uploaded.getByRole('alert').count()) > 0, 30_000, 100);
    expect(await pressed(), `${await uploaded.innerText()}\nrequests that failed: ${failed.join('; ')}`).toBe(true);
    expect(await page.getByRole('dialog', { name: 'Dashboard banner' }).getByRole('button', { name: 'Use this banner' }).count()).toBe(1);
    await page.getByTestId('banner-actions').getByRole('button', { name: 'Use this banner' }).click();
    await waitFor(async () => (await settings()).home.banner === 'Attachments/meadow.png');
    expect(Buffer.compare(await fs.readFile(path.join(vault, 'Attachments/meadow.png')), PNG)).toBe(0);
  }, 60_000);
});
