// Benchmark: the admin web app in headless chromium against the real server
// on a 5,000-note vault. Each figure is a ratio against a baseline of the same run:
//   - first-screen bytes on the wire (brotli) against the same files uncompressed;
//   - opening a note by deep link (shell + JS + /api/me, prefs, tree, note, editor
//     drawn) against loading the same shell with JavaScript off;
//   - the browser's save (keystroke → PUT answered, minus the 600 ms autosave wait)
//     against the same PUT sent straight from Node.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { chromium } from 'playwright-core';
import { buildUi } from '../../admin/ui/build.ts';
import { startServer } from '../../test/helpers/server.ts';
import { generateVault, notePath, percentile } from './_vault.ts';

const NOTES = 5_000;
const ROUNDS = 7;
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const median = (values: number[]) => percentile(values, 50);
const ms = (v: number) => `${v.toFixed(0)} ms`;

async function wireBytes(url: string): Promise<{ br: number; raw: number }> {
  const shell = await (await fetch(`${url}/admin/`)).text();
  const assets = [...shell.matchAll(/(?:href|src)="(\/admin\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  let br = Buffer.byteLength(shell);
  let raw = Buffer.byteLength(shell);
  for (const asset of assets) {
    const compressed = await fetch(url + asset, { headers: { 'accept-encoding': 'br' } });
    // fetch decodes the body; the header tells what crossed the wire.
    br += Number(compressed.headers.get('content-length') ?? 0);
    raw += (await (await fetch(url + asset, { headers: { 'accept-encoding': 'identity' } })).arrayBuffer()).byteLength;
    await compressed.arrayBuffer();
  }
  return { br, raw };
}

export async function run(): Promise<void> {
  await buildUi();
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-ui-'));
  const vault = path.join(base, 'vault');
  await fs.mkdir(vault);
  await generateVault(vault, NOTES);
  const server = await startServer({ vault, data: path.join(base, 'data') });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const cookie = (await server.login()).split('=');
    const session = { name: cookie[0]!, value: cookie.slice(1).join('='), url: server.url };

    const { br, raw } = await wireBytes(server.url);
    console.log(`first screen on the wire: ${(br / 1024).toFixed(1)} KB brotli vs ${(raw / 1024).toFixed(1)} KB uncompressed (${(br / raw).toFixed(2)}x)`);

    const target = notePath(1234);
    const open: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const noJs = await browser.newContext({ javaScriptEnabled: false });
      await noJs.addCookies([session]);
      const p0 = await noJs.newPage();
      let t = performance.now();
      await p0.goto(`${server.url}/admin/`, { waitUntil: 'load' });
      bare.push(performance.now() - t);
      await noJs.close();

      const ctx = await browser.newContext();
      await ctx.addCookies([session]);
      const page = await ctx.newPage();
      t = performance.now();
      await page.goto(`${server.url}/admin/#/note/${encodeURI(target)}`);
      await page.locator('.cm-content', { hasText: 'title: Note 1234' }).waitFor({ timeout: 60_000 });
      await page.locator('.tree-row').first().waitFor();
      open.push(performance.now() - t);
      await ctx.close();
    }
    console.log(
      `open a note by deep link (${NOTES} notes in the tree): median ${ms(median(open))} vs the shell with JS off ${ms(median(bare))} (${(median(open) / median(bare)).toFixed(1)}x)`,
    );

    const ctx = await browser.newContext();
    await ctx.addCookies([session]);
    const page = await ctx.newPage();
    await page.goto(`${server.url}/admin/#/note/${encodeURI(target)}`);
    await page.locator('.cm-content', { hasText: 'title: Note 1234' }).waitFor({ timeout: 60_000 });
    const browserSaves: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      await page.locator('.cm-content').click();
      await page.keyboard.press('Control+End');
      const answered = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().includes('/api/note'));
      const typed = performance.now();
      await page.keyboard.type('x');
      await answered;
      browserSaves.push(performance.now() - typed - 600);
      await page.waitForTimeout(200);
    }
    const direct: number[] = [];
    const other = notePath(4321);
    const start = (await server.admin('GET', `/api/note?path=${encodeURIComponent(other)}`)).body as { content: string; mtimeMs: number };
    let { content, mtimeMs } = start;
    for (let i = 0; i < ROUNDS; i++) {
      content += 'x';
      const t = performance.now();
      const res = await server.admin('PUT', `/api/note?path=${encodeURIComponent(other)}`, { content, baseMtimeMs: mtimeMs });
      direct.push(performance.now() - t);
      mtimeMs = (res.body as { mtimeMs: number }).mtimeMs;
    }
    console.log(
      `save from the editor (after the 600 ms wait): median ${ms(median(browserSaves))} vs the same PUT from Node ${ms(median(direct))} (${(median(browserSaves) / Math.max(1, median(direct))).toFixed(1)}x)`,
    );
    await ctx.close();
  } finally {
    await browser.close();
    await server.stop();
    await fs.rm(base, { recursive: true, force: true });
  }
}
