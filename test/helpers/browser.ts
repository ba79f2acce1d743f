// A real browser for end-to-end tests: Debian's chromium driven by playwright-core,
// and the admin app built (once, under a lock) before the first test needs it.
import { execFileSync } from 'node:child_process';
import { promises as fs, existsSync, openSync, closeSync, statSync, readdirSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { live, PROJECT_DIR, startServer, TEST_PASSWORD, type StartOptions, type TestServer } from './server.ts';
import { cleanupTempDirs, tempDir } from './tmp.ts';
import { startBlog, type BlogOptions, type BlogServer } from '../fixtures/blog/helpers.ts';

/** Debian's headless build of Chromium where installed (half the CPU of the full browser per
 * test file: docs/decisions/headless-shell.md), else its full `chromium`. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : '/usr/bin/chromium');
export const ARTIFACTS = path.join(PROJECT_DIR, 'test-artifacts');
export const README_SHOTS = path.join(PROJECT_DIR, 'docs', 'screenshots');

const UI_DIR = path.join(PROJECT_DIR, 'admin', 'ui');

function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir, { withFileTypes: true })) {
    if (name.name === 'dist' || name.name.startsWith('.')) continue;
    const abs = path.join(dir, name.name);
    newest = Math.max(newest, name.isDirectory() ? newestSource(abs) : statSync(abs).mtimeMs);
  }
  return newest;
}

function builtAt(): number {
  try {
    return statSync(path.join(UI_DIR, 'dist', 'index.html')).mtimeMs;
  } catch {
    return 0;
  }
}

/** `npm test` builds first; a lone `vitest run` builds here when the sources are newer. */
export async function ensureUiBuilt(): Promise<void> {
  if (builtAt() > newestSource(UI_DIR)) return;
  const lock = path.join(os.tmpdir(), 'vault-service-ui-build.lock');
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${lock}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  try {
    if (builtAt() <= newestSource(UI_DIR)) {
      execFileSync(process.execPath, ['--import', 'tsx', path.join(UI_DIR, 'build.ts')], { cwd: PROJECT_DIR, stdio: 'pipe' });
    }
  } finally {
    unlinkSync(lock);
  }
}

/**
 * Chromium, one per test worker process: the files of a worker share it (they share the
 * process, vitest.config.ts), as a launch and its close cost about a second of CPU. A file
 * hands it back with `releaseBrowser`, which closes the contexts the file opened; one that
 * crashed or was closed is launched again for the next file.
 */
export async function launchBrowser(): Promise<Browser> {
  const browser = await (shared ??= launchChromium());
  if (browser.isConnected()) return browser;
  shared = null;
  return launchBrowser();
}

let shared: Promise<Browser> | null = null;

function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A file is done with the shared browser: every context it opened is closed (the browser stays for the next file). */
export async function releaseBrowser(browser: Browser | null | undefined): Promise<void> {
  if (!browser?.isConnected()) return;
  await Promise.all(browser.contexts().map((context) => context.close().catch(() => {})));
}

/** A public page at `url` in a fresh context, `width` px wide; with scripts, once the site's script has run. */
export async function openSitePage(browser: Browser, url: string, width: number, options: { colorScheme?: 'light' | 'dark'; javaScriptEnabled?: boolean } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 800 }, colorScheme: options.colorScheme ?? 'light', javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[browser error] ${err.message}\n`));
  await page.goto(url);
  if (options.javaScriptEnabled !== false) await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
  return page;
}

/** What goes wrong on a page from now on: script errors, and what its Content-Security-Policy refused. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (err) => problems.push(`error: ${err.message}`));
  page.on('console', (m) => {
    if (/Content.Security.Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  return problems;
}

export interface AdminPage {
  context: BrowserContext;
  page: Page;
}

/** A fresh browser context (its own cookies) on /admin/, signed in through the form. */
export async function openAdmin(
  browser: Browser,
  server: TestServer,
  options: { viewport?: { width: number; height: number }; signIn?: boolean; colorScheme?: 'light' | 'dark' } = {},
): Promise<AdminPage> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  page.on('pageerror', (err) => {
    process.stderr.write(`[browser error] ${err.message}\n`);
  });
  await page.goto(`${server.url}/admin/`);
  if (options.signIn !== false) await signIn(page);
  return { context, page };
}

export async function signIn(page: Page, password = TEST_PASSWORD): Promise<void> {
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.locator('.app').waitFor();
}

/** Pictures for a person to look at are taken when asked (SCREENSHOTS=1, or UPDATE_SCREENSHOTS=1); a failed test's always. */
export const SHOTS_WANTED = process.env.SCREENSHOTS === '1' || process.env.UPDATE_SCREENSHOTS === '1';

/**
 * Saves a screenshot under test-artifacts/ when pictures are wanted. The README's few also go
 * to docs/screenshots/ (committed) when UPDATE_SCREENSHOTS=1, so a plain test run never
 * dirties tracked files.
 */
export async function screenshot(page: Page, name: string, readme = false): Promise<void> {
  if (SHOTS_WANTED) await savePicture(page, name, readme);
}

async function savePicture(page: Page, name: string, readme = false): Promise<void> {
  await fs.mkdir(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file });
  if (readme && process.env.UPDATE_SCREENSHOTS === '1') {
    await fs.mkdir(README_SHOTS, { recursive: true });
    await fs.copyFile(file, path.join(README_SHOTS, `${name}.png`));
  }
}

/** For afterEach: a failed test leaves a screenshot of the page in test-artifacts/. */
export async function shotIfFailed(page: Page | undefined, ctx: { task: { name: string; result?: { state?: string } } }): Promise<void> {
  if (!page || ctx.task.result?.state !== 'fail') return;
  const name = `failed-${ctx.task.name.replace(/[^\w-]+/g, '-').slice(0, 80)}`;
  await savePicture(page, name).catch(() => undefined);
}

/** Dismisses every toast (before a screenshot); gives up quietly after 3 s. */
export async function clearToasts(page: Page): Promise<void> {
  const deadline = Date.now() + 3000;
  while (Date.now() < deadline && (await page.locator('.toast').count()) > 0) {
    for (const close of await page.locator('.toast button.icon').all()) await close.click({ timeout: 500 }).catch(() => undefined);
    await page.waitForTimeout(100);
  }
}

/** Opens a note from the file tree (folders on the way are unfolded). */
/** An admin window no `changed` event reaches: only its own re-checks and saves learn of a change on disk. */
export async function openQuietAdmin(browser: Browser, server: TestServer): Promise<AdminPage> {
  const quiet = await openAdmin(browser, server);
  await quiet.page.route('**/api/events', (route) => route.abort());
  await quiet.page.reload();
  await quiet.page.locator('.app').waitFor();
  return quiet;
}

export async function openFromTree(page: Page, notePath: string): Promise<void> {
  const parts = notePath.split('/');
  for (let i = 1; i < parts.length; i++) {
    const folder = page.locator(`.tree-row[data-path="${parts.slice(0, i).join('/')}"]`);
    if ((await folder.getAttribute('aria-expanded')) !== 'true') await folder.click();
  }
  await page.locator(`.tree-row[data-path="${notePath}"]`).click();
  await page.locator(`.tab.active [role="tab"][title="${notePath}"]`).waitFor();
}

/** The text in the open editor (small notes: CodeMirror draws every line). */
export async function editorText(page: Page): Promise<string> {
  return page
    .locator('.editor-container:not([hidden]) .cm-content')
    .evaluate((el) => [...el.querySelectorAll('.cm-line')].map((line) => (line as HTMLElement).textContent ?? '').join('\n'));
}

export interface AdminForFileOptions {
  /** Prefix of the temp folder that holds `vault/` and `data/`. */
  prefix: string;
  /** Before the server starts: fill the folders; may answer more start options (env…). */
  prepare?: (dirs: { base: string; vault: string; data: string }) => Promise<StartOptions | void> | StartOptions | void;
  /** Once the admin is signed in (open the view the file's tests start from). */
  ready?: (main: AdminPage) => Promise<void>;
}

export interface AdminForFile {
  server: TestServer;
  browser: Browser;
  /** The signed-in admin's page. */
  main: AdminPage;
}

/**
 * The e2e boot sequence, once per test file: the admin app built, a real server on a
 * temp vault and data directory, Chromium, and a signed-in admin page; a failed test
 * leaves a screenshot; everything is closed and removed after the file.
 */
export function adminForFile(options: AdminForFileOptions): AdminForFile {
  let booted: { server: TestServer; browser: Browser; main: AdminPage } | null = null;
  let server: TestServer | null = null;
  let browser: Browser | null = null;
  beforeAll(async () => {
    await ensureUiBuilt();
    const base = await tempDir(options.prefix);
    const dirs = { base, vault: path.join(base, 'vault'), data: path.join(base, 'data') };
    await fs.mkdir(dirs.vault, { recursive: true });
    const more = (await options.prepare?.(dirs)) ?? {};
    server = await startServer({ vault: dirs.vault, data: dirs.data, ...more });
    browser = await launchBrowser();
    const main = await openAdmin(browser, server);
    await options.ready?.(main);
    booted = { server, browser, main };
  }, 120_000);
  afterEach(async (ctx) => shotIfFailed(booted?.main.page, ctx));
  afterAll(async () => {
    await releaseBrowser(browser);
    await server?.stop();
    await cleanupTempDirs();
  });
  return {
    server: live(() => server, 'started in beforeAll'),
    browser: live(() => browser, 'launched in beforeAll'),
    main: live(() => booted?.main ?? null, 'signed in in beforeAll'),
  };
}

/**
 * The app's API calls as the page itself makes them (a wrapper around `fetch`), for
 * checks that something was *not* asked: wait for a positive signal first, then look.
 */
export interface FetchLog {
  /** Every call so far, as `METHOD path?query`. */
  calls(): Promise<string[]>;
  /** Resolves once a call whose URL contains `part` was answered and its body handled by the app. */
  handled(part: string): Promise<void>;
}

export async function recordFetches(page: Page): Promise<FetchLog> {
  await page.evaluate(() => {
    type Entry = { call: string; handled: boolean };
    const w = window as unknown as { __fetches?: Entry[] };
    if (w.__fetches) return;
    const log: Entry[] = (w.__fetches = []);
    const original = window.fetch.bind(window);
    window.fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input), location.href);
      const entry: Entry = { call: `${(init?.method ?? 'GET').toUpperCase()} ${url.pathname}${url.search}`, handled: false };
      log.push(entry);
      const res = await original(input, init);
      // Marked a task after the body is read: whatever the app chained on it has run by then.
      const mark = () => setTimeout(() => (entry.handled = true), 0);
      const [text, json] = [res.text.bind(res), res.json.bind(res)];
      res.text = () => text().finally(mark);
      res.json = () => json().finally(mark);
      return res;
    };
  });
  return {
    calls: () => page.evaluate(() => ((window as unknown as { __fetches: { call: string }[] }).__fetches ?? []).map((e) => e.call)),
    handled: async (part) => {
      await page.waitForFunction((p) => (window as unknown as { __fetches: { call: string; handled: boolean }[] }).__fetches.some((e) => e.call.includes(p) && e.handled), part);
    },
  };
}

/** Resolves once the page's own clock has passed `ms`: every timer the app set earlier for up to `ms` has fired. */
export async function pageClockPassed(page: Page, ms: number): Promise<void> {
  await page.evaluate((delay) => new Promise<void>((resolve) => setTimeout(resolve, delay)), ms);
}

/**
 * How the two characters `pair` (where they first stand together in the element's text) are
 * drawn: 'before' when the first is on the left of the second, as left-to-right text draws them.
 */
export async function drawnOrder(target: Locator, pair: string): Promise<'before' | 'after'> {
  return target.evaluate((el, two) => {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode() as Text | null; node; node = walker.nextNode() as Text | null) {
      const at = node.data.indexOf(two);
      if (at < 0) continue;
      const rect = (from: number) => {
        const range = document.createRange();
        range.setStart(node!, from);
        range.setEnd(node!, from + 1);
        return range.getBoundingClientRect();
      };
      return rect(at).x < rect(at + 1).x ? 'before' : 'after';
    }
    throw new Error(`no "${two}" in ${el.outerHTML.slice(0, 200)}`);
  }, pair);
}

/**
 * A test file's public site and browser, as adminForFile is its admin's: the blog server
 * started before its tests (`ready` once it answers), the browser launched, both stopped after.
 */
export function blogForFile(options: BlogOptions, ready?: (blog: BlogServer) => Promise<unknown>): { blog: BlogServer; browser: Browser } {
  let blog: BlogServer | null = null;
  let browser: Browser | null = null;
  beforeAll(async () => {
    blog = await startBlog(options);
    await ready?.(blog);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await releaseBrowser(browser);
    await blog?.stop();
    await cleanupTempDirs();
  });
  return { blog: live(() => blog, 'started in beforeAll'), browser: live(() => browser, 'launched in beforeAll') };
}
