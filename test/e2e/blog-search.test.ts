// CONTRACT §9 in a real browser (Debian chromium): the masthead box leads to the search
// page (`/` opens the search dialog: search-dialog.test.ts), which answers from the index
// the build writes, in English and Arabic (folded, prefixes), never with a draft's words; an edit makes a new word findable; results are
// post links with a date and a marked passage, reachable by keyboard and previewed on
// focus. Screenshots (light, dark, 360 px, Arabic) land in test-artifacts/.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { blogForFile, screenshot, SHOTS_WANTED } from '../helpers/browser.ts';
import { DELTA_SOFT } from '../../site/plan/search-index.ts';


const note = (title: string, date: string, body: string) => `---\ntitle: ${title}\npublish: true\ndate: ${date}\ntags: [search]\n---\n${body}\n`;

const { blog, browser } = blogForFile({
  env: { PUBLIC_LAYOUT: 'blog', SITE_NAME: 'Search Blog' },
  files: {
    'Search/Cafe.md': note('Café society', '2026-02-02', 'An opening paragraph about nothing much.\n\nThe crème brûlée at the corner café was the best of the year.'),
    'Search/School.md': note('مدرسة أحمد', '2026-02-03', 'قرأ أحمد كِتَابًا جَدِيدًا في المَدرسةِ، ثم كـتـب رسالة طويلة.'),
    'Search/Library.md': note('مكتبة الحي', '2026-02-05', 'هذا نصٌّ عربيٌّ للتجربة عن المكتبة والكِتاب.'),
    'Search/Shell.md': note('Shell settings', '2026-02-04', 'Set `key=zebravalue` in `$ZEBRAHOME` before you start.'),
    'Search/Draft.md': '---\ntitle: Secret draft\npublish: false\n---\nOnly a draft says zebradraftword.\n',
  },
});

async function open(route: string, options: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1000, height: 800 }, colorScheme: options.colorScheme ?? 'light', reducedMotion: 'no-preference' });
  const page = await context.newPage();
  page.on('pageerror', (err) => process.stderr.write(`[browser error] ${err.message}\n`));
  await page.goto(blog.url + route);
  await page.waitForFunction(() => document.documentElement.classList.contains('s-js'));
  return page;
}

/** The search page for `query`, once it has answered. */
async function search(query: string, options: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const page = await open(`/search?q=${encodeURIComponent(query)}`, options);
  await answered(page);
  return page;
}

/** The search page for `query` in a page already open (a reader searching again), once it has answered. */
async function searchAgain(page: Page, query: string): Promise<void> {
  await page.goto(`${blog.url}/search?q=${encodeURIComponent(query)}`);
  await answered(page);
}

async function answered(page: Page): Promise<void> {
  await page.waitForFunction(() => ['done', 'failed'].includes(document.querySelector<HTMLElement>('.s-search-page')?.dataset.state ?? ''));
}

interface Shown {
  status: string;
  results: { title: string; href: string; date: string; passage: string; marks: string[]; dir: string }[];
}

/**
 * The search page for `query` while the manifest says the index is being prepared, as a large
 * site's first start serves it (site/plan/search-index.ts), for its first `reads` reads; once
 * the page says it is searching ("Searching…" in the site's language).
 */
async function searchWhilePreparing(query: string, reads: number, options: { width?: number; colorScheme?: 'light' | 'dark' } = {}): Promise<{ page: Page; asked: () => number }> {
  const page = await open('/', options);
  const preparing = JSON.stringify({ v: 1, docs: 0, avg: [], lengths: '', shards: [], meta: [], metaBytes: 0, gone: [], delta: [], preparing: true });
  let asked = 0;
  await page.route('**/search.json', (route) => (++asked <= reads ? route.fulfill({ status: 200, contentType: 'application/json', body: preparing }) : route.continue()));
  await page.goto(`${blog.url}/search?q=${encodeURIComponent(query)}`);
  await page.waitForFunction(() => {
    const root = document.querySelector<HTMLElement>('.s-search-page');
    return root?.dataset.state === 'searching' && document.querySelector('.s-search-status')?.textContent === root.dataset.searching;
  });
  return { page, asked: () => asked };
}

/** What the page shows, once each shown result's passage is in. */
async function shown(page: Page): Promise<Shown> {
  await page.waitForFunction(() => [...document.querySelectorAll('.s-result')].every((r) => r.querySelector('.s-result-passage')?.hasChildNodes() ?? true));
  return page.evaluate(() => ({
    status: document.querySelector('.s-search-status')!.textContent!,
    results: [...document.querySelectorAll<HTMLElement>('.s-result')].map((r) => ({
      title: r.querySelector('.s-result-title a')!.textContent!,
      href: r.querySelector('.s-result-title a')!.getAttribute('href')!,
      date: r.querySelector('time')?.textContent ?? '',
      passage: r.querySelector('.s-result-passage')?.textContent ?? '',
      marks: [...r.querySelectorAll('.s-result-passage mark')].map((m) => m.textContent!),
      dir: r.dir,
    })),
  }));
}

describe('CONTRACT §9: the search box', () => {
  it('the masthead box: Enter opens /search?q= with results: title, date, the matching passage marked', async () => {
    const page = await open('/');
    await page.locator('.s-masthead-search input[name="q"]').focus();
    await page.keyboard.type('gard');
    await screenshot(page, 'blog-search-masthead');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/search\?q=gard$/);
    await answered(page);
    const { status, results } = await shown(page);
    expect(status).toBe('1 result for “gard”');
    expect(results).toEqual([{ title: 'Kyoto', href: `${blog.url}/Travel/Asia/Kyoto`, date: 'May 1, 2025', passage: 'Temples and gardens.', marks: ['gardens'], dir: 'ltr' }]);
    await page.context().close();
  });

  it('English is folded for case and accents, and prefixes match', async () => {
    const page = await search('CREME brul');
    const { results } = await shown(page);
    expect(results.map((r) => r.title)).toEqual(['Café society']);
    expect(results[0]!.passage).toBe('The crème brûlée at the corner café was the best of the year.');
    expect(results[0]!.marks).toEqual(['crème', 'brûlée']);
    await screenshot(page, 'blog-search-light');
    await page.context().close();
  });

  it('Arabic is folded for diacritics, tatweel and alef/yeh/teh-marbuta forms, and prefixes match', async () => {
    const page = await open('/');
    for (const query of ['مدرسه', 'احمد', 'كتابا', 'كتب', 'المدر']) {
      await searchAgain(page, query);
      const { results } = await shown(page);
      expect(results.map((r) => r.title), query).toEqual(['مدرسة أحمد']);
      expect(results[0]!.dir).toBe('rtl');
      expect(results[0]!.marks.length, query).toBeGreaterThan(0);
    }
    await searchAgain(page, 'أَحْمَد');
    expect((await shown(page)).results[0]!.marks).toEqual(['أحمد']);
    await page.context().close();
  });

  it('Arabic particles written onto a word (و, ل with the article) do not hide it', async () => {
    const page = await open('/');
    for (const query of ['الكتاب', 'كتاب', 'تجربة', 'التجربة', 'والكتاب']) {
      await searchAgain(page, query);
      const { results } = await shown(page);
      const library = results.find((r) => r.title === 'مكتبة الحي');
      expect(library, query).toBeDefined();
      expect(library!.marks.length, query).toBeGreaterThan(0);
    }
    await page.context().close();
  });

  it('a word written against a symbol is found, and marked alone', async () => {
    const page = await open('/');
    for (const [query, mark] of [['zebravalue', 'zebravalue'], ['zebrahome', 'ZEBRAHOME'], ['key zebraval', 'zebravalue']] as const) {
      await searchAgain(page, query);
      const { results } = await shown(page);
      expect(results.map((r) => r.title), query).toEqual(['Shell settings']);
      expect(results[0]!.marks, query).toContain(mark);
    }
    await page.context().close();
  });

  it('a word only a draft contains finds nothing', async () => {
    const page = await search('zebradraftword');
    const { status, results } = await shown(page);
    expect(results).toEqual([]);
    expect(status).toBe('Nothing matches “zebradraftword”.');
    await page.context().close();
  });

  it("while a large site's first start still prepares the index, the page says it is searching and answers once the index is there", async () => {
    const { page, asked } = await searchWhilePreparing('CREME brul', 2);
    await screenshot(page, 'blog-search-preparing');
    await answered(page);
    expect(asked()).toBeGreaterThanOrEqual(3);
    expect((await shown(page)).results.map((r) => r.title)).toEqual(['Café society']);
    await page.context().close();
  });

  it('an edit makes a new word findable', async () => {
    await fs.writeFile(path.join(blog.vault, 'Search/Fresh.md'), note('Fresh ink', '2026-03-01', 'A zebrafreshword appears in a new note.'));
    let last: Shown | null = null;
    for (let i = 0; i < 100 && !last?.results.length; i++) {
      const page = await search('zebrafresh');
      last = await shown(page);
      await page.context().close();
      if (!last.results.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(last!.results.map((r) => r.title)).toEqual(['Fresh ink']);
    expect(last!.results[0]!.marks).toEqual(['zebrafreshword']);
  });
});

describe('results are post links for keyboard, screen readers and hover previews', () => {
  it('the status line is a live region; arrow keys go from the field through the results; a focused result shows its preview', async () => {
    const page = await search('the');
    expect(await page.locator('.s-search-status').getAttribute('role')).toBe('status');
    const input = page.locator('.s-search-page-form input[name="q"]');
    await input.focus();
    await page.keyboard.press('ArrowDown');
    const first = await page.evaluate(() => document.activeElement?.closest('.s-result')?.querySelector('a')?.textContent);
    expect(first).toBeTruthy();
    await page.keyboard.press('ArrowDown');
    const second = await page.evaluate(() => document.activeElement?.textContent);
    expect(second).not.toBe(first);
    // spec D.6: focusing a result link shows the note's opening.
    await page.locator('.s-preview').waitFor();
    expect(await page.locator('.s-preview .s-preview-title').textContent()).toBe(second);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await page.evaluate(() => document.activeElement?.matches('input[name="q"]'))).toBe(true);
    await page.context().close();
  });

  it('typing searches as you go and keeps ?q= in the address; more results come ten at a time', async () => {
    for (let i = 0; i < 12; i++) await fs.writeFile(path.join(blog.vault, `Search/Series ${i}.md`), note(`Series ${i}`, `2025-0${(i % 9) + 1}-1${i % 9}`, `Zebraseries part ${i}.`));
    await blog.waitForPage('/search.json', (p) => (p.text.match(/zebraseries/gi) ?? []).length >= 12);
    const page = await open('/search');
    await page.locator('.s-search-page-form input[name="q"]').fill('zebraser');
    await page.waitForFunction(() => document.querySelectorAll('.s-result').length === 10);
    expect(page.url()).toMatch(/\/search\?q=zebraser$/);
    expect(await page.locator('.s-search-status').textContent()).toBe('12 results for “zebraser”');
    await page.locator('.s-more-results button').click();
    await page.waitForFunction(() => document.querySelectorAll('.s-result').length === 12);
    expect(await page.evaluate(() => document.activeElement?.closest('.s-result') === document.querySelectorAll('.s-result')[10])).toBe(true);
    expect(await page.locator('.s-more-results').isHidden()).toBe(true);
    await page.context().close();
  });
});

describe('results that share a title', () => {
  it('say where each lives, in the page and in the dialog; a title of its own says nothing more', async () => {
    await fs.mkdir(path.join(blog.vault, 'Search/Walks'), { recursive: true });
    await fs.mkdir(path.join(blog.vault, 'Search/Cities'), { recursive: true });
    await fs.writeFile(path.join(blog.vault, 'Search/Walks/Paris.md'), note('Notes on walking', '2026-01-10', 'A quokkawalk along the river.'));
    await fs.writeFile(path.join(blog.vault, 'Search/Cities/Lyon.md'), note('Notes on walking', '2026-01-11', 'A quokkawalk up the hill.'));
    await fs.writeFile(path.join(blog.vault, 'Search/Alone.md'), note('A walk alone', '2026-01-12', 'One more quokkawalk.'));
    await blog.waitForPage('/search.json', (p) => (p.text.match(/quokkawalk/gi) ?? []).length >= 3);
    const page = await search('quokkawalk');
    const places = () => page.locator('.s-result').evaluateAll((items) => items.map((r) => [r.querySelector('.s-result-title a')!.textContent, r.querySelector('.s-result-place')?.textContent ?? null]));
    expect((await places()).sort()).toEqual([
      ['A walk alone', null],
      ['Notes on walking', 'Search / Cities / Lyon'],
      ['Notes on walking', 'Search / Walks / Paris'],
    ]);
    // The dialog over an article shows its first results the same way.
    await page.goto(`${blog.url}/`);
    await page.keyboard.press('/');
    await page.locator('.s-search-dialog input[name="q"]').fill('quokkawalk');
    await page.locator('.s-search-dialog .s-result-place').nth(1).waitFor();
    expect(await page.locator('.s-search-dialog .s-result-place').allTextContents()).toHaveLength(2);
    await page.context().close();
  });
});

describe('screenshots', () => {
  it('dark, 360 px and an Arabic site', async () => {
    let page: Page;
    // Pages opened only for their pictures: when pictures are wanted.
    if (SHOTS_WANTED) {
      page = await search('café', { colorScheme: 'dark' });
      await shown(page);
      await screenshot(page, 'blog-search-dark');
      await page.context().close();
      page = await open('/', { width: 360 });
      await screenshot(page, 'blog-search-masthead-360');
      await page.context().close();
      page = await search('the', { width: 360 });
      await shown(page);
      await screenshot(page, 'blog-search-360');
      await page.context().close();
      // The page waiting on an index still being prepared: dark, and on a phone.
      for (const [name, options] of [['blog-search-preparing-dark', { colorScheme: 'dark' as const }], ['blog-search-preparing-360', { width: 360 }]] as const) {
        page = (await searchWhilePreparing('café', Number.POSITIVE_INFINITY, options)).page;
        await screenshot(page, name);
        await page.context().close();
      }
    }
    await blog.writeSettings({ language: 'ar' });
    await blog.waitForPage('/search', (p) => p.text.includes('<html lang="ar" dir="rtl"'));
    page = await search('مدرسة');
    const { status } = await shown(page);
    expect(status).toBe('نتيجة واحدة لـ«مدرسة»');
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.s-search-page-form')!).direction)).toBe('rtl');
    // A Latin topic in a right-to-left site reads as written, its # on the left (the chip takes
    // its direction from its own text: dir="auto"); it used to show as `shared#`.
    const hash = await page.evaluate(() => {
      const chip = [...document.querySelectorAll<HTMLElement>('a.s-chip')].find((a) => a.textContent === '#shared' && a.getClientRects().length > 0);
      if (!chip) return null;
      const text = document.createTreeWalker(chip, NodeFilter.SHOW_TEXT).nextNode() as Text;
      const range = document.createRange();
      const at = (i: number) => {
        range.setStart(text, i);
        range.setEnd(text, i + 1);
        return range.getBoundingClientRect().left;
      };
      return { hashLeftOfName: at(0) < at(1), chipDirection: getComputedStyle(chip).direction };
    });
    expect(hash).toEqual({ hashLeftOfName: true, chipDirection: 'ltr' });
    await screenshot(page, 'blog-search-arabic');
    await page.context().close();
    page = (await searchWhilePreparing('مدرسة', Number.POSITIVE_INFINITY)).page;
    await screenshot(page, 'blog-search-preparing-arabic');
    await page.context().close();
  });
});

describe('a page that has answered has what the next results show', () => {
  it('fetches every meta file while idle, and the next query shows its results without fetching one', async () => {
    // Enough notes for several meta files (64 notes each), made part of the base.
    const before = JSON.parse((await blog.waitForPage('/search.json', () => true)).text) as { docs: number; gone: number[]; delta: unknown[] };
    await fs.mkdir(path.join(blog.vault, 'Bulk'), { recursive: true });
    for (let i = 0; i < 150; i++) await fs.writeFile(path.join(blog.vault, `Bulk/Bulk ${i}.md`), note(`Bulk ${i}`, '2025-03-03', `Zebrabulk ${i % 2 ? 'odd' : 'even'} number ${i}.`));
    await blog.waitForPage('/search.json', (p) => {
      // An index holding every note. The writes may span passes: the last one's notes may stay in
      // the delta (up to DELTA_SOFT of them, by design), which the manifest itself carries.
      // Settled, too: no deferred new base due (gone ids or a delta over DELTA_SOFT), since that
      // one renames the meta files under a page that has just loaded the manifest.
      const m = JSON.parse(p.text) as { docs: number; gone: number[]; delta: unknown[]; meta: string[] };
      const held = m.docs - m.gone.length + m.delta.length;
      const settled = m.gone.length === 0 && m.delta.length <= DELTA_SOFT.docs;
      return held >= before.docs - before.gone.length + before.delta.length + 150 && m.meta.length >= 3 && settled;
    }, 45_000).catch(async (err) => {
      process.stderr.write((await fetch(blog.url + '/search.json').then((r) => r.text())).slice(0, 600) + '\n');
      throw err;
    });
    const context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await context.newPage();
    const manifests: Promise<string>[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === '/search.json') manifests.push(res.text());
    });
    await page.goto(blog.url + '/search?q=' + encodeURIComponent('zebrabulk even'));
    await answered(page);
    await page.waitForFunction(() => document.querySelector<HTMLElement>('.s-search-page')!.dataset.metaWarm === 'done', null, { timeout: 15_000 });
    expect(manifests).toHaveLength(1);
    const metaFiles = (JSON.parse(await manifests[0]!) as { meta: string[] }).meta;
    expect(metaFiles.length).toBeGreaterThanOrEqual(3);
    const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    for (const file of metaFiles) expect(fetched.some((name) => name.endsWith('/' + file))).toBe(true);
    await page.evaluate(() => performance.clearResourceTimings());
    const run = await page.evaluate(() => Number(document.querySelector<HTMLElement>('.s-search-page')!.dataset.run));
    await page.locator('.s-search-page-form input[name="q"]').fill('zebrabulk odd');
    await page.locator('.s-search-page-form input[name="q"]').press('Enter');
    await page.waitForFunction((before) => Number(document.querySelector<HTMLElement>('.s-search-page')!.dataset.run) > before, run);
    // (The site may be in Arabic by now: the screenshots above switch it.)
    expect(await page.locator('.s-search-status').textContent()).toMatch(/75|٧٥/);
    const { results } = await shown(page);
    expect(results).toHaveLength(10);
    expect(results.every((r) => /^Bulk \d*[13579]$/.test(r.title))).toBe(true);
    const afterWarm = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(afterWarm.some((name) => name.includes('/_s/search/meta.'))).toBe(false);
    await page.context().close();
  }, 90_000);
});
