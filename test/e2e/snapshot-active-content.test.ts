// The static snapshot on a host that sends no headers of ours (reviewers' finds): an .html
// attachment, and SVGs whose script hid from a byte pattern (UTF-16, an ISO-2022-JP
// declaration, a prefix that is not ASCII), ran on the site's origin, one of them registering
// the vault's sw.js as a service worker for the whole site. Each payload is first shown to run
// from the vault's own files on a plain host; the snapshot then holds none of them, copies
// no active type (.js, .php, .html), and a browser opening it runs no script and registers
// no worker. Every page carries CONTRACT §11's policy as a <meta>, which a real browser enforces.
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, releaseBrowser } from '../helpers/browser.ts';
import { startServer, waitFor } from '../helpers/server.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const SVG_NS = 'http://www.w3.org/2000/svg';
/** What each hostile SVG runs: a request the host sees, and the vault's worker registered for the whole site. */
const payload = (name: string) =>
  `document.documentElement.setAttribute('data-ran', 'yes'); fetch('/ran/${name}'); navigator.serviceWorker.register('/sw.js', { scope: '/' }).then(() => fetch('/ran/sw-${name}'))`;
const HOSTILE: Record<string, Buffer> = {
  'utf16.svg': Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<svg xmlns="${SVG_NS}"><script>${payload('utf16')}</script></svg>`, 'utf16le')]),
  'iso2022.svg': Buffer.concat([
    Buffer.from(`<?xml version="1.0" encoding="ISO-2022-JP"?><svg xmlns="${SVG_NS}"><scr`),
    Buffer.from([0x1b, 0x28, 0x42]),
    Buffer.from(`ipt>${payload('iso2022')}</scr`),
    Buffer.from([0x1b, 0x28, 0x42]),
    Buffer.from('ipt></svg>'),
  ]),
  'prefix.svg': Buffer.from(`<svg xmlns="${SVG_NS}" xmlns:é="${SVG_NS}"><é:script>${payload('prefix')}</é:script></svg>`),
  'evil.svg': Buffer.from(`<svg xmlns="${SVG_NS}"><script>${payload('evil')}</script></svg>`),
};

let out: string;
let stderr: string;
let vault: string;
let browser: Browser;
const hosts: { server: http.Server; origin: string; hits: string[] }[] = [];

/** A static host: the files as they are, a type by extension, no other header; it notes every request. */
async function staticHost(dir: string): Promise<{ server: http.Server; origin: string; hits: string[] }> {
  const types: Record<string, string> = { '.html': 'text/html', '.svg': 'image/svg+xml', '.png': 'image/png', '.js': 'text/javascript', '.css': 'text/css', '.php': 'application/x-httpd-php' };
  const hits: string[] = [];
  const server = http.createServer(async (req, res) => {
    let rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    hits.push(rel);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(dir, rel);
    const body = await fs.readFile(file).catch(() => fs.readFile(`${file}.html`).catch(() => null));
    if (!body) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    const ext = path.extname(file) || '.html';
    res.writeHead(200, { 'content-type': types[ext] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
  hosts.push(host);
  return host;
}

beforeAll(async () => {
  const root = await tempDir('vs-snap-active-');
  vault = path.join(root, 'vault');
  await writeFiles(vault, {
    'Links.md': '---\npublish: true\ntitle: Links\ndate: 2026-03-01\n---\n[[evil.html]] [[index.php]] [[sw.js]] ![[evil.svg]] ![[utf16.svg]] ![[iso2022.svg]] ![[prefix.svg]] ![[plain.svg]] ![[clean16.svg]] ![[pic.png]]\n',
    'Att/evil.html': '<script>window.parent.ran = true</script><p>page</p>',
    'Att/index.php': '<?php system($_GET["c"]); ?>',
    'sw.js': "self.addEventListener('fetch', () => {});",
    'Att/plain.svg': `<svg xmlns="${SVG_NS}" width="10" height="10"><rect width="10" height="10"/></svg>`,
  });
  for (const [name, bytes] of Object.entries(HOSTILE)) await fs.writeFile(path.join(vault, 'Att', name), bytes);
  await fs.writeFile(path.join(vault, 'Att/clean16.svg'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<svg xmlns="${SVG_NS}" width="12" height="12"><rect width="12" height="12" fill="red"/></svg>`, 'utf16le')]));
  await fs.writeFile(path.join(vault, 'Att/pic.png'), PNG);
  const built = buildSnapshot(root, vault);
  out = built.out;
  const res = built.res;
  expect(res.status, res.stderr).toBe(0);
  stderr = res.stderr;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await releaseBrowser(browser);
  for (const host of hosts) host.server.close();
  await cleanupTempDirs();
});

const exists = (rel: string) => fs.stat(path.join(out, rel)).then(() => true, () => false);

/** Opens `url` in a fresh profile; answers the status and the service workers registered meanwhile. */
async function open(url: string, until: (page: Page) => Promise<unknown>): Promise<{ status: number | undefined; workers: number; ran: boolean }> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const res = await page.goto(url);
    await until(page);
    const workers = await page.evaluate(async () => (await navigator.serviceWorker?.getRegistrations())?.length ?? 0).catch(() => 0);
    const ran = await page.evaluate(() => document.documentElement.getAttribute('data-ran') === 'yes');
    return { status: res?.status(), workers, ran };
  } finally {
    await context.close();
  }
}

it('each hostile SVG runs its script and registers the worker when a plain host serves the vault file as it is', async () => {
  const raw = await staticHost(vault);
  for (const name of Object.keys(HOSTILE)) {
    const stem = name.replace(/\.svg$/, '');
    const seen = await open(`${raw.origin}/Att/${name}`, () => expect.poll(() => raw.hits.includes(`/ran/sw-${stem}`), { timeout: 10_000 }).toBe(true));
    expect(seen.workers, name).toBe(1);
    expect(seen.ran, name).toBe(true);
  }
});

it('the live server sends each of them sandboxed: opened on its own, it runs nothing', async () => {
  const server = await startServer({ vault });
  try {
    await waitFor(async () => (await fetch(`${server.url}/Att/prefix.svg`)).status === 200, 30_000);
    for (const name of Object.keys(HOSTILE)) {
      // Positive first: the drawing is served (the build has published it).
      const seen = await open(`${server.url}/Att/${name}`, async () => {});
      expect(seen.status, name).toBe(200);
      expect(seen.ran, name).toBe(false);
      expect(seen.workers, name).toBe(0);
    }
    expect((await open(`${server.url}/sw.js`, async () => {})).status).toBe(200);
  } finally {
    await server.stop();
  }
});

it('the snapshot holds none of them, nor the .html, the .php or sw.js; it names each with the note that links it', async () => {
  for (const name of Object.keys(HOSTILE)) expect(await exists(`Att/${name}`), name).toBe(false);
  for (const rel of ['Att/evil.html', 'Att/index.php', 'sw.js']) expect(await exists(rel), rel).toBe(false);
  expect(await exists('Att/plain.svg')).toBe(true);
  expect(await exists('Att/pic.png')).toBe(true);
  // A clean SVG in UTF-16 is written again as ASCII XML, the drawing kept.
  expect(await fs.readFile(path.join(out, 'Att/clean16.svg'), 'latin1')).toBe(`<svg xmlns="${SVG_NS}" xmlns:xlink="http://www.w3.org/1999/xlink" width="12" height="12"><rect width="12" height="12" fill="red"></rect></svg>`);
  for (const rel of ['Att/evil.html', 'Att/index.php', 'sw.js']) expect(stderr).toContain(`Links.md: links to ${rel}, which is left out of the snapshot: only images, audio, video, PDFs, fonts and plain text are copied`);
  for (const name of Object.keys(HOSTILE)) expect(stderr).toMatch(new RegExp(`Links\\.md: links to Att/${name.replace('.', '\\.')}, which is left out of the snapshot: it holds a script`));
});

it('a browser opening the snapshot from a plain host runs no script and registers no worker', async () => {
  const site = await staticHost(out);
  // Positive first: the page and its clean pictures load (the UTF-16 one written again).
  const page = await open(`${site.origin}/Links`, (p) =>
    expect.poll(() => p.evaluate(() => [...document.images].filter((i) => i.complete && i.naturalWidth > 0).map((i) => i.getAttribute('src'))), { timeout: 10_000 }).toEqual(expect.arrayContaining([expect.stringMatching(/plain\.svg$/), expect.stringMatching(/clean16\.svg$/), expect.stringMatching(/pic\.png$/)])),
  );
  expect(page.status).toBe(200);
  expect(page.workers).toBe(0);
  for (const name of [...Object.keys(HOSTILE).map((n) => `Att/${n}`), 'Att/evil.html', 'Att/index.php', 'sw.js']) {
    const seen = await open(`${site.origin}/${name}`, async () => {});
    expect(seen.status, name).toBe(404);
    expect(seen.workers, name).toBe(0);
  }
  // The clean UTF-16 drawing, opened on its own, is a document that runs nothing.
  expect((await open(`${site.origin}/Att/clean16.svg`, async () => {})).status).toBe(200);
  expect(site.hits.filter((hit) => hit.startsWith('/ran/'))).toEqual([]);
});

it('every page carries the policy, and a browser on a header-less host runs no inline script under it', async () => {
  for (const page of ['index.html', 'Links.html', '404.html']) {
    expect(await fs.readFile(path.join(out, page), 'utf8'), page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self';/);
  }
  const site = await staticHost(out);
  const page = await browser.newPage();
  try {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const res = await page.goto(`${site.origin}/Links`);
    expect(res?.status()).toBe(200);
    expect(await page.locator('img[src$="plain.svg"]').count()).toBe(1);
    // A script element added to the page (as an injection would) is refused by the policy.
    const ran = await page.evaluate(async () => {
      const w = window as unknown as { injected?: boolean };
      const s = document.createElement('script');
      s.textContent = 'window.injected = true';
      document.body.append(s);
      await new Promise((r) => setTimeout(r, 50));
      return w.injected === true;
    });
    expect(ran).toBe(false);
    expect(violations.length).toBeGreaterThan(0);
  } finally {
    await page.close();
  }
});
