// Benchmark: visitor search on the generated 10,000-note vault (about 70%
// published), the real server (`npm start`) and Debian's Chromium. For each query: the
// bytes it downloads (compressed, as the browser received them: the manifest, field
// lengths, its words' shards and the result meta; the passages' article pages apart) and
// the time until its results are on the page (with its parts: ranking, i.e. the index files
// it needed then MiniSearch, and the wait for the shown results' meta files), on a fresh page
// (nothing cached), on a page that has searched before (at once, and once it has fetched the
// rest of the meta files while idle), and for the same query again; next
// to the baseline of the same MiniSearch query over the whole index downloaded at once. The
// next query is filled in at once, as pasted, then Enter: its shards start downloading from
// that input, before Enter, as they do while a visitor types. Then saves through the
// API: until the index finds a new word, beside until the article shows it, and whether
// the base files were rewritten. BENCH_NOTES, BENCH_EDITS to change.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { SearchManifest } from '../../shared/search/index-format.ts';
import { BENCH_PASSWORD, freePort, npmStart, until200, waitForLine } from './_service.ts';
import { generateVault, notePath, noteText, percentile } from './_vault.ts';

const NOTES = Number(process.env.BENCH_NOTES ?? 10_000);
const EDITS = Number(process.env.BENCH_EDITS ?? 20);
const QUERIES = ['garden', 'river stone', 'note 4242', 'mem', 'highlighted idea', 'topic3', 'xylophone'];
/** A second query typed on a page that has already searched. */
const NEXT_QUERY = 'paper ink';
/** Typed once the page has fetched the rest of the meta files while idle (a visitor reading the first results). */
const SETTLED_QUERY = 'city light';
const TARGET_KB = 300;
const TARGET_MS = 50;
const HERE = path.dirname(fileURLToPath(import.meta.url));

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const median = (xs: number[]) => percentile(xs, 50);

interface Answer {
  ms: number;
  /** Of which ranking (the index's files it needed, then MiniSearch). */
  rankMs: number;
  /** Of which waiting for the shown results' meta files. */
  metaMs: number;
  status: string;
  results: number;
  indexBytes: number;
  passageBytes: number;
}

/**
 * In the page from before its scripts: a console line once an answer is on it. Waiting on
 * that puts nothing of Playwright's in the page while it answers (its injected script, made
 * on the first evaluate or waitForFunction, took 15-30 ms of a fresh page's main thread).
 */
function announceAnswers(): void {
  new MutationObserver((records) => {
    for (const record of records) {
      const root = record.target as HTMLElement;
      if (root.dataset.state === 'done') console.debug(`search answered ${root.dataset.run}`);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state'] });
}

type Answered = (run: number) => Promise<void>;

/** Waits for the page's answer numbered `run` (or a later one), then for its passages. */
function answersOf(page: Page): Answered {
  let last = 0;
  let waiting: { run: number; resolve: () => void }[] = [];
  page.on('console', (message) => {
    const said = /^search answered (\d+)$/.exec(message.text());
    if (!said) return;
    last = Math.max(last, Number(said[1]));
    const ready = waiting.filter((w) => w.run <= last);
    waiting = waiting.filter((w) => w.run > last);
    for (const w of ready) w.resolve();
  });
  return async (run) => {
    if (last < run) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer ${run} within a minute`)), 60_000);
        waiting.push({ run, resolve: () => (clearTimeout(timer), resolve()) });
      });
    }
    // The passages come after the results: their bytes are counted once they are in.
    await page.waitForFunction(() => [...document.querySelectorAll('.s-result-passage')].every((p) => p.hasChildNodes()), null, { timeout: 60_000 });
  };
}

/** What the page's last search cost: its time (from the page), and the bytes fetched since `since` (Resource Timing). */
async function measure(page: Page): Promise<Answer> {
  return page.evaluate(() => {
    const root = document.querySelector<HTMLElement>('.s-search-page')!;
    const entries = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
    const index = entries.filter((e) => /\/search\.json|\/_s\/search\//.test(e.name));
    const passages = entries.filter((e) => e.initiatorType === 'fetch' && !index.includes(e));
    performance.clearResourceTimings();
    // (No named functions in here: the page gets this code as written.)
    return {
      ms: Number(root.dataset.ms),
      rankMs: Number(root.dataset.rankMs),
      metaMs: Number(root.dataset.metaMs),
      status: document.querySelector('.s-search-status')!.textContent ?? '',
      results: document.querySelectorAll('.s-result').length,
      indexBytes: index.reduce((s, e) => s + e.encodedBodySize, 0),
      passageBytes: passages.reduce((s, e) => s + e.encodedBodySize, 0),
    };
  });
}

/** `ms (ranking+meta)`. */
const split = (a: Answer) => `${a.ms} (${a.rankMs}+${Number.isNaN(a.metaMs) ? '?' : a.metaMs})`.padStart(13);

async function typeQuery(page: Page, answered: Answered, query: string): Promise<Answer> {
  const run = await page.evaluate(() => Number(document.querySelector<HTMLElement>('.s-search-page')!.dataset.run ?? 0));
  await page.evaluate(() => performance.clearResourceTimings());
  const input = page.locator('.s-search-page-form input[name="q"]');
  await input.fill(query);
  await input.press('Enter');
  await answered(run + 1);
  return measure(page);
}

async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const out = await build({ entryPoints: [path.join(HERE, '_search-baseline.ts')], bundle: true, minify: true, format: 'iife', target: ['es2020'], write: false, logLevel: 'silent' });
  return out.outputFiles[0]!.text;
}

async function queries(browser: Browser, url: string): Promise<void> {
  const baselineCode = await bundle();
  let encoding = '';
  const rows: string[] = [];
  const all: { cold: Answer; warm: Answer; settled: Answer; again: Answer; base: { ms: number; bytes: number; hits: number } }[] = [];
  for (const query of QUERIES) {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    await context.addInitScript(announceAnswers);
    const page = await context.newPage();
    const answered = answersOf(page);
    page.on('pageerror', (err) => console.log(`  [browser error] ${err.message}`));
    page.on('response', (res) => {
      if (res.url().endsWith('/search.json')) encoding = res.headers()['content-encoding'] ?? 'identity';
    });
    await page.goto(`${url}/search?q=${encodeURIComponent(query)}`);
    await answered(1);
    const cold = await measure(page);
    const warm = await typeQuery(page, answered, NEXT_QUERY);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('.s-search-page')!.dataset.metaWarm !== undefined, null, { timeout: 60_000 });
    const settled = await typeQuery(page, answered, SETTLED_QUERY);
    const again = await typeQuery(page, answered, query);
    await context.close();
    // The baseline: a fresh page, the whole base fetched and loaded, the same query.
    const fresh = await browser.newContext();
    const basePage = await fresh.newPage();
    await basePage.goto(`${url}/search`);
    await basePage.evaluate(baselineCode);
    const base = await basePage.evaluate((q) => window.searchBaseline(q), query);
    await fresh.close();
    all.push({ cold, warm, settled, again, base });
    rows.push(
      `  ${JSON.stringify(query).padEnd(19)} ${String(cold.results === 10 && /\d/.test(cold.status) ? cold.status.replace(/ results? for.*/, '') : cold.results).padStart(6)}  ` +
        `${kb(cold.indexBytes).padStart(9)} ${kb(cold.passageBytes).padStart(9)} ${kb(cold.indexBytes + cold.passageBytes).padStart(9)}  ` +
        `${split(cold)} ${split(warm)} ${split(settled)} ${split(again)}   ` +
        `${kb(base.bytes).padStart(9)} ${(base.ms.toFixed(0) + ' ms').padStart(7)}  ${(cold.indexBytes / base.bytes).toFixed(2)}x bytes, ${(cold.ms / base.ms).toFixed(2)}x time`,
    );
  }
  console.log(`\nqueries in Chromium (responses ${encoding}-encoded; a fresh page each, then the next query "${NEXT_QUERY}" pasted at once, "${SETTLED_QUERY}" once the page has fetched the meta files while idle, then the first again)`);
  console.log(`  ms until the results are on the page (of which ranking: the files it needed, then MiniSearch; + waiting for the shown results' meta files)`);
  console.log(`  ${'query'.padEnd(19)} ${'hits'.padStart(6)}  ${'index'.padStart(9)} ${'passages'.padStart(9)} ${'total'.padStart(9)}  ${'fresh'.padStart(13)} ${'next'.padStart(13)} ${'settled'.padStart(13)} ${'again'.padStart(13)}   baseline: whole index, same query`);
  for (const row of rows) console.log(row);
  const worstBytes = Math.max(...all.map((a) => a.cold.indexBytes + a.cold.passageBytes));
  const worstMs = Math.max(...all.map((a) => a.cold.ms));
  const worstSettled = Math.max(...all.map((a) => a.settled.ms));
  const worstWarm = Math.max(...all.map((a) => Math.max(a.warm.ms, a.again.ms)));
  const worstRank = Math.max(...all.map((a) => Math.max(a.warm.rankMs, a.again.rankMs)));
  const worstMeta = Math.max(...all.map((a) => Math.max(a.warm.metaMs, a.again.metaMs)));
  console.log(`  most downloaded by one query: ${kb(worstBytes)} (target < ${TARGET_KB} KB); whole index: ${kb(Math.max(...all.map((a) => a.base.bytes)))}`);
  console.log(`  slowest answer on a fresh page: ${worstMs} ms; on a page that searched before: ${worstWarm} ms, of which ranking ${worstRank} ms, meta ${worstMeta} ms (target < ${TARGET_MS} ms); baseline median ${median(all.map((a) => a.base.ms)).toFixed(0)} ms`);
  console.log(`  slowest answer once the page has its meta files (settled): ${worstSettled} ms, median ${median(all.map((a) => a.settled.ms)).toFixed(0)} ms (target < ${TARGET_MS} ms)`);
}

async function edits(url: string, manifestBefore: SearchManifest): Promise<void> {
  const login = await fetch(url + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: BENCH_PASSWORD }) });
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const toSearch: number[] = [];
  const toArticle: number[] = [];
  // Published notes, each edited once: the delta grows by one note per save.
  const picks = Array.from({ length: NOTES }, (_, i) => NOTES - 1 - i).filter((i) => i % 10 < 7).slice(0, EDITS);
  for (const [n, i] of picks.entries()) {
    const token = `zebraedit${n}x${Date.now()}`;
    const note = notePath(i);
    const address = '/' + note.replace(/\.md$/, '').split('/').map((s) => encodeURIComponent(s.replace(/ /g, '-'))).join('/');
    const started = performance.now();
    const put = await fetch(`${url}/api/note?path=${encodeURIComponent(note)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({ content: noteText(i, NOTES).replace(/\n\n(\S)/, `\n\n${token} $1`) }),
    });
    if (put.status !== 200) throw new Error(`save failed: ${put.status}`);
    let searchMs = 0;
    let articleMs = 0;
    while (!searchMs || !articleMs) {
      const [index, article] = await Promise.all(['/search.json', address].map((r) => fetch(url + r).then((res) => res.text())));
      const now = performance.now() - started;
      if (!searchMs && index.includes(token)) searchMs = now;
      if (!articleMs && article.includes(token)) articleMs = now;
      if (now > 30_000) throw new Error(`edit ${n} never showed up`);
      await new Promise((r) => setTimeout(r, 3));
    }
    toSearch.push(searchMs);
    toArticle.push(articleMs);
    await new Promise((r) => setTimeout(r, 150));
  }
  const after = (await (await fetch(url + '/search.json')).json()) as SearchManifest;
  const same = JSON.stringify(after.shards) === JSON.stringify(manifestBefore.shards) && after.lengths === manifestBefore.lengths;
  console.log(`\n${EDITS} saves of different notes through the API (load average ${load()})`);
  console.log(`  until /search.json finds the new word: median ${median(toSearch).toFixed(0)} ms, worst ${Math.max(...toSearch).toFixed(0)} ms`);
  console.log(`  until the article shows it (same saves): median ${median(toArticle).toFixed(0)} ms, worst ${Math.max(...toArticle).toFixed(0)} ms`);
  console.log(`  base files rewritten by the saves: ${same ? 'none' : 'yes'} (the delta holds ${after.delta.length} notes, ${after.gone.length} base notes gone; a new base is made in a quiet moment past 16)`);
  if (after.delta.length <= 16) return;
  // A quiet moment: the new base.
  const quiet = performance.now();
  for (;;) {
    const m = (await (await fetch(url + '/search.json')).json()) as SearchManifest;
    if (m.delta.length === 0) break;
    if (performance.now() - quiet > 60_000) {
      console.log('  no new base within a minute of quiet');
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  console.log(`  a new base, live ${(performance.now() - quiet).toFixed(0)} ms after the last save's answer (1,500 ms of that is the quiet wait)`);
}

export async function run(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-search-'));
  console.log(`${os.cpus().length} cores; load average at the start ${load()}`);
  await generateVault(path.join(root, 'vault'), NOTES);
  const service = npmStart(path.join(root, 'vault'), path.join(root, 'data'), await freePort());
  let browser: Browser | null = null;
  try {
    await until200(service.url + '/search.json', performance.now(), 900_000, 100);
    const built = await waitForLine(service, /public site built: (\d+) outputs in (\d+) ms/, 60_000);
    const manifest = (await (await fetch(service.url + '/search.json')).json()) as SearchManifest;
    const files = [manifest.lengths, ...manifest.shards.map(([, f]) => f), ...manifest.meta];
    let raw = 0;
    for (const file of files) raw += (await (await fetch(`${service.url}/${file}`)).arrayBuffer()).byteLength;
    const page = await (await fetch(service.url + '/search')).text();
    const script = /<script src="(\/_s\/search\.[^"]+)"/.exec(page)![1]!;
    const gz = await fetch(service.url + script, { headers: { 'accept-encoding': 'gzip' } });
    console.log(`\n${NOTES.toLocaleString('en-US')} notes, ${manifest.docs.toLocaleString('en-US')} searchable; the server's first full build: ${built[1]} outputs in ${(Number(built[2]) / 1000).toFixed(2)} s`);
    console.log(`  the index: ${files.length} files, ${kb(raw)} uncompressed (${manifest.shards.length} shards, ${manifest.meta.length} meta files); search.js ${kb(Number(gz.headers.get('content-length') ?? 0))} gzipped, once per visitor (immutable)`);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
    await queries(browser, service.url);
    await edits(service.url, manifest);
  } catch (err) {
    console.log(`the server said:\n${service.output().slice(-3000)}`);
    throw err;
  } finally {
    await browser?.close();
    await service.stop();
    await fs.rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
}
