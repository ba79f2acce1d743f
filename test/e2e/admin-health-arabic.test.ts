// Site health in the Arabic interface, in a real browser: each warning is said in Arabic
// from its kind and fields (the names it holds kept as written), and its counts take
// Arabic's plural forms ("3 مشكلات في ملاحظتين", not "3 مشكلة في 2 ملاحظة").
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { adminForFile, clearToasts, openAdmin, screenshot } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const post = (body: string, extra = '') => `---\npublish: true\ndate: 2026-03-01\n${extra}---\n${body}\n`;
const tags = Array.from({ length: 105 }, (_, i) => `t${i}`).join(', ');

const { server, browser } = adminForFile({
  prefix: 'vs-e2e-health-ar-',
  prepare: async ({ vault }) => {
    await writeFiles(vault, {
      'Home.md': post('Welcome.'),
      'Posts/Garden.md': post('See [[Seedlings]] for what comes next.'),
      'Seedlings.md': '---\ntitle: Seedlings\n---\nNot out yet.\n',
      'Posts/Broken.md': post('A link to [[Nowhere]] here, and to [[Garden#Nope]].\n\n![[gone.png]]\n\n![[Garden#^gone]]'),
    });
    return {};
  },
});

const badge = (page: Page) => page.getByTestId('health-badge');
/** A message as read: each name (a `<bdi>`) written between FSI and PDI, as the sentence isolates it. */
const readMessage = (el: Element) => {
  const out: string[] = [];
  const walk = (n: Node): void => {
    if (n.nodeName === 'BDI') out.push(`\u2068${n.textContent}\u2069`);
    else if (n.nodeType === Node.TEXT_NODE) out.push(n.textContent ?? '');
    else n.childNodes.forEach(walk);
  };
  el.childNodes.forEach(walk);
  return out.join('');
};
const messageOf = (page: Page, selector: string) => page.locator(selector).evaluate(readMessage);
/** A sentence's own words: the names it holds are isolated (FSI … PDI) and taken out. */
const wording = (s: string) => s.replace(/\u2068[^\u2069]*\u2069/g, '');

async function openArabicHealth(): Promise<Page> {
  await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
  const { page } = await openAdmin(browser, server);
  await waitFor(async () => (await badge(page).count()) > 0, 30_000);
  await badge(page).click();
  await page.getByTestId('health-view').waitFor();
  return page;
}

describe('Site health in Arabic', () => {
  it('says each warning in Arabic from its kind and fields, and counts in Arabic plural forms', async () => {
    const page = await openArabicHealth();
    await page.locator('.health-note[data-path="Posts/Broken.md"]').waitFor();
    expect(await page.locator('html').getAttribute('dir')).toBe('rtl');
    await expect(page.locator('.health-summary').textContent()).resolves.toBe('5 مشكلات في ملاحظتين');
    await expect(badge(page).getAttribute('aria-label')).resolves.toBe('5 مشكلات في الموقع');

    const messages: { kind: string | null; text: string }[] = [];
    for (const item of await page.locator('.health-item').all()) {
      messages.push({ kind: await item.getAttribute('data-kind'), text: await item.locator('.health-message').evaluate(readMessage) });
    }
    expect(messages.map((m) => m.kind).sort()).toEqual(['missing_attachment', 'missing_block', 'missing_heading', 'missing_link', 'unpublished_link']);
    const said = Object.fromEntries(messages.map((m) => [m.kind, m.text]));
    expect(said.unpublished_link).toBe('تربط إلى «\u2068Seedlings\u2069» (\u2068Seedlings.md\u2069)، وهي غير منشورة.');
    expect(said.missing_link).toBe('تربط إلى «\u2068Nowhere\u2069»، وهي غير موجودة.');
    expect(said.missing_attachment).toContain('\u2068gone.png\u2069');
    expect(said.missing_heading).toBe('تربط إلى «\u2068Garden#Nope\u2069»، لكن \u2068Posts/Garden.md\u2069 ليس فيها عنوان بهذا الاسم.');
    expect(said.missing_block).toBe('تضمّن «\u2068Garden#^gone\u2069»، لكن \u2068Posts/Garden.md\u2069 ليس فيها كتلة بهذا المعرّف: لا يظهر شيء.');
    // Every sentence is Arabic but for the names it holds: none is the server's English.
    for (const m of messages) expect(wording(m.text), m.kind!).not.toMatch(/[A-Za-z]{2,}/);
    await clearToasts(page);
    await screenshot(page, 'site-health-arabic-sentences');

    // More problems: 105 tags (a "few" form past 100) and a fourth note, in the plural of 3–10.
    await fs.writeFile(path.join(server.vault, 'Tagged.md'), post('Many tags.', `tags: [${tags}]\n`));
    await page.locator('.health-note[data-path="Tagged.md"]').waitFor({ timeout: 20_000 });
    await expect(page.locator('.health-summary').textContent()).resolves.toBe('6 مشكلات في 3 ملاحظات');
    await expect(messageOf(page, '.health-note[data-path="Tagged.md"] .health-message')).resolves.toBe('فيها 105 وسوم؛ أول 100 وسمًا فقط مواضيع في الموقع.');
    await page.context().close();
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
  }, 90_000);

  it('the English interface keeps its sentences, from the same fields', async () => {
    const { page, context } = await openAdmin(browser, server);
    await waitFor(async () => (await badge(page).count()) > 0, 30_000);
    await badge(page).click();
    const item = page.locator('.health-note[data-path="Posts/Garden.md"] .health-message');
    await item.waitFor();
    await expect(item.evaluate(readMessage)).resolves.toBe('Links to “\u2068Seedlings\u2069” (\u2068Seedlings.md\u2069), which is not published.');
    await expect(page.locator('.health-summary').textContent()).resolves.toBe('6 problems in 3 notes');
    await context.close();
  });

  it('a path or title in a sentence moves to the next line whole, not cut at its spaces (Arabic, 360 px)', async () => {
    await writeFiles(server.vault, {
      'Posts/Long.md': post('See [[Seedling of a rather long name]].'),
      'Drafts for the garden/Not yet ready/Seedling of a rather long name.md': 'Not out yet.\n',
    });
    await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'ar' } });
    const { page, context } = await openAdmin(browser, server, { viewport: { width: 360, height: 800 } });
    try {
      await waitFor(async () => (await badge(page).count()) > 0, 30_000);
      await badge(page).click();
      const message = page.locator('.health-note[data-path="Posts/Long.md"] .health-message');
      await message.waitFor({ timeout: 20_000 });
      const runs = await message.evaluate((el) => {
        const line = parseFloat(getComputedStyle(el).lineHeight);
        const width = el.getBoundingClientRect().width;
        return {
          lines: Math.round(el.getBoundingClientRect().height / line),
          names: [...el.querySelectorAll('.name-unit')].map((unit) => {
            const u = unit as HTMLElement;
            const oneLine = u.getBoundingClientRect().height < line * 1.5;
            // Its width unwrapped, to know whether it could fit a line at all.
            u.style.whiteSpace = 'nowrap';
            const natural = u.scrollWidth;
            u.style.whiteSpace = '';
            return { text: u.querySelector('bdi')!.textContent, unit: u.textContent, fits: natural <= width, oneLine, boxes: u.getClientRects().length };
          }),
        };
      });
      // The sentence wraps at this width; each name that fits a line keeps to one.
      expect(runs.lines).toBeGreaterThan(1);
      expect(runs.names.map((n) => n.text)).toEqual(['Seedling of a rather long name', 'Drafts for the garden/Not yet ready/Seedling of a rather long name.md']);
      // Each name is one box: the path longer than a line starts a line of its own rather than
      // running on after the words before it; each name that fits a line keeps to one.
      for (const name of runs.names) {
        expect(name.boxes, name.text!).toBe(1);
        if (name.fits) expect(name.oneLine, name.text!).toBe(true);
      }
      expect(runs.names.some((n) => !n.fits)).toBe(true);
      // The marks written against a name go with it: no line ends on a lone “(”.
      expect(runs.names.map((n) => n.unit)).toEqual(['«Seedling of a rather long name»', '(Drafts for the garden/Not yet ready/Seedling of a rather long name.md)،']);
      await screenshot(page, 'site-health-arabic-360-names');
    } finally {
      await context.close();
      await server.admin('PUT', '/api/prefs', { keys: { interfaceLanguage: 'en' } });
    }
  });
});
