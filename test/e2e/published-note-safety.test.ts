// CONTRACT §7 (raw HTML) and §11 (CSP): a published note carrying a script, an
// <img onerror>, a javascript: link and an <iframe srcdoc>, opened in real Chromium by
// the signed-in admin, runs nothing and cannot call /api/*; the public page's CSP lets
// no inline script run even if one got through; the admin's "Preview as visitor"
// frame runs no script at all; an HTML attachment opened on its own is sandboxed.
import path from 'node:path';
import type { Page, Request } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { adminForFile } from '../helpers/browser.ts';
import { waitFor } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

// Every payload, if it ran, would mark the window and try to act as the admin.
const act = (tag: string) =>
  `window.__pwned=(window.__pwned||[]).concat('${tag}');fetch('/api/settings',{method:'PATCH',headers:{'content-type':'application/json'},body:JSON.stringify({siteName:'PWNED-${tag}'})})`;

const HOSTILE = [
  '---',
  'publish: true',
  '---',
  'A note that tries everything.',
  '',
  `<script>${act('script')}</script>`,
  '',
  `<img src="missing.png" onerror="${act('img')}">`,
  '',
  `<a id="js-link" href="javascript:${act('link')}">a tempting link</a>`,
  '',
  `<iframe id="srcdoc-frame" srcdoc="<script>${act('srcdoc').replace(/"/g, '&quot;')};parent.__pwned=['srcdoc']</script>"></iframe>`,
  '',
  '<details><summary>Kept</summary>Folded text.</details>',
  '',
  'Also [the page](page.html).',
  '',
].join('\n');

const ATTACHMENT = `<!doctype html><p>attached</p><script>${act('attachment')}</script>`;

const { server, browser, main: admin } = adminForFile({
  prefix: 'vs-e2e-hostile-',
  prepare: async ({ vault }) => {
    await writeFiles(vault, { 'Home.md': HOSTILE, 'Hostile.md': HOSTILE, 'page.html': ATTACHMENT });
  },
});
beforeAll(async () => {
  await waitFor(async () => (await fetch(server.url + '/Hostile')).status === 200, 30_000, 200);
}, 90_000);

/** Requests a page (or its frames) made to the admin API. */
function recordApiCalls(page: Page): Request[] {
  const calls: Request[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/')) calls.push(r);
  });
  return calls;
}

async function stillUntouched(): Promise<void> {
  const settings = await server.admin('GET', '/api/settings');
  expect(settings.status).toBe(200);
  expect(String(settings.body.siteName)).not.toMatch(/PWNED/);
}

describe('the published page, opened by the signed-in admin', () => {
  it('runs none of the payloads and calls no /api/ route', async () => {
    const page = await admin.context.newPage();
    const calls = recordApiCalls(page);
    const response = await page.goto(`${server.url}/Hostile`);
    expect(response!.status()).toBe(200);
    // Positive signals first: the site's own script ran, the kept HTML is there.
    await page.locator('html.s-js').waitFor({ state: 'attached' });
    await page.locator('details summary', { hasText: 'Kept' }).waitFor();
    // The link lost its javascript: URL; clicking it goes nowhere.
    const link = page.locator('#js-link');
    expect(await link.getAttribute('href')).toBeNull();
    await link.click();
    // The iframe had no https source, so it is gone; the img kept no handler.
    expect(await page.locator('iframe').count()).toBe(0);
    expect(await page.locator('img[onerror]').count()).toBe(0);
    // A round trip through the page after everything had its chance to run.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50))));
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string[] }).__pwned ?? null)).toBeNull();
    expect(calls.map((c) => c.url())).toEqual([]);
    await stillUntouched();
    expect((await server.api('GET', '/api/me', undefined, await cookieOf(page))).body).toEqual({ admin: true });
    await page.close();
  });

  it('carries a CSP under which an inline script that slipped in would not run', async () => {
    const page = await admin.context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const response = await page.goto(`${server.url}/Hostile`);
    const csp = response!.headers()['content-security-policy'] ?? '';
    expect(csp).toMatch(/script-src 'self'(;|$)/);
    expect(csp).not.toContain('unsafe-inline\' ;');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    await page.locator('html.s-js').waitFor({ state: 'attached' });
    // Inject an inline script as a note's HTML would (bypassing the sanitiser): CSP refuses it.
    await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inline = true';
      document.body.appendChild(s);
    });
    await waitFor(() => violations.length > 0, 5000);
    expect(await page.evaluate(() => (window as unknown as { __inline?: boolean }).__inline ?? null)).toBeNull();
    await page.close();
  });

  it('an HTML attachment opened on its own runs nothing (sandboxed, its own origin)', async () => {
    const page = await admin.context.newPage();
    const calls = recordApiCalls(page);
    const response = await page.goto(`${server.url}/page.html`);
    expect(response!.status()).toBe(200);
    expect(response!.headers()['content-security-policy']).toContain('sandbox');
    await page.locator('p', { hasText: 'attached' }).waitFor();
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string[] }).__pwned ?? null)).toBeNull();
    expect(calls).toEqual([]);
    await page.close();
  });
});

describe('the admin’s Preview as visitor frame', () => {
  it('shows the site but runs no script in it, so the note cannot script the admin', async () => {
    const { page } = admin;
    await page.locator('.top-bar').getByRole('button', { name: 'Preview as visitor' }).click();
    const frameEl = page.locator('iframe.site-frame');
    const sandbox = await frameEl.getAttribute('sandbox');
    expect(sandbox).not.toBeNull();
    expect(sandbox).not.toContain('allow-scripts');
    const frame = page.frameLocator('iframe.site-frame');
    // Positive signal: the home (the hostile note) is shown in the frame.
    await frame.locator('details summary', { hasText: 'Kept' }).waitFor();
    // The site's own script did not run there either: no script runs in the frame at all.
    expect(await frame.locator('html.s-js').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string[] }).__pwned ?? null)).toBeNull();
    await stillUntouched();
  });
});

async function cookieOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies(server.url);
  return cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}
