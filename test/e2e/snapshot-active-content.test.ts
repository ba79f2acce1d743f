// The static snapshot on a host that sends no headers of ours (a reviewer's find): an .html
// attachment and an SVG with a script ran on the site's origin, and the pages carried no
// policy at all. Markup and script-like SVGs are left out (named on standard error), plain
// SVGs and images are copied, and every page carries CONTRACT §11's policy as a <meta>,
// which a real browser enforces.
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from '../helpers/browser.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
let out: string;
let stderr: string;
let host: http.Server;
let origin: string;
let browser: Browser;

/** A static host: the files as they are, a type by extension, no other header. */
function staticHost(dir: string): Promise<http.Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.svg': 'image/svg+xml', '.png': 'image/png', '.js': 'text/javascript', '.css': 'text/css' };
  const server = http.createServer(async (req, res) => {
    let rel = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    if (rel.endsWith('/')) rel += 'index.html';
    const file = path.join(dir, rel);
    const body = await fs.readFile(file).catch(() => fs.readFile(`${file}.html`).catch(() => null));
    if (!body) return res.writeHead(404).end();
    const ext = path.extname(file) || '.html';
    res.writeHead(200, { 'content-type': types[ext] ?? 'application/octet-stream' }).end(body);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  const root = await tempDir('vs-snap-active-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, {
    'Links.md': '---\npublish: true\ntitle: Links\ndate: 2026-03-01\n---\n[[evil.html]] ![[evil.svg]] ![[plain.svg]] ![[pic.png]]\n',
    'Att/evil.html': '<script>window.parent.ran = true</script><p>page</p>',
    'Att/evil.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    'Att/plain.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>',
  });
  await fs.writeFile(path.join(vault, 'Att/pic.png'), PNG);
  const built = buildSnapshot(root, vault);
  out = built.out;
  const res = built.res;
  expect(res.status, res.stderr).toBe(0);
  stderr = res.stderr;
  host = await staticHost(out);
  origin = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
  browser = await launchBrowser();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  host?.close();
  await cleanupTempDirs();
});

it('leaves out the .html attachment and the SVG with a script, naming them; copies the plain SVG and the image', async () => {
  const exists = (rel: string) => fs.stat(path.join(out, rel)).then(() => true, () => false);
  expect(await exists('Att/evil.html')).toBe(false);
  expect(await exists('Att/evil.svg')).toBe(false);
  expect(await exists('Att/plain.svg')).toBe(true);
  expect(await exists('Att/pic.png')).toBe(true);
  expect(stderr).toMatch(/Att\/evil\.html is left out of the snapshot/);
  expect(stderr).toMatch(/Att\/evil\.svg is left out of the snapshot: it holds a script/);
});

it('every page carries the policy, and a browser on a header-less host runs no inline script under it', async () => {
  for (const page of ['index.html', 'Links.html', '404.html']) {
    expect(await fs.readFile(path.join(out, page), 'utf8'), page).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'self'; script-src 'self';/);
  }
  const page = await browser.newPage();
  try {
    const violations: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
    });
    const res = await page.goto(`${origin}/Links`);
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
