// CONTRACT §9 over the built outputs: the search index the build writes (search.json and
// the files it names) holds published notes only, folded words, and follows each edit
// through its delta without rewriting the base; once the delta has grown, a quiet moment
// makes a new base. The search page works as a page without scripts.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { SearchManifest, ShardFile } from '../../shared/search/index-format.ts';
import { blogForFile, type BlogServer } from '../fixtures/blog/helpers.ts';

const note = (title: string, body: string, extra = '') => `---\ntitle: ${title}\npublish: true\ndate: 2026-02-01\n${extra}---\n${body}\n`;

const blog = blogForFile({
  env: { PUBLIC_LAYOUT: 'blog', SITE_NAME: 'Search' },
  files: {
    'Search/Cafe.md': note('Café society', 'The crème brûlée of zebrapublished words.\n\n## Heading zebraheading'),
    'Search/Arabic.md': note('مدرسة أحمد', 'كِتَابٌ جَدِيدٌ في المَدرسةِ وكـتـاب آخر.'),
    'Search/Symbols.md': note('Symbols', 'Set `key=zebravalue` in `$ZEBRAHOME`, add zebraleft+zebraright, square x^zebrapower, 25°zebradegree.'),
    'Search/Private.md': note('Private parts', 'Public words %%zebracommentcanary stays in the vault%% and more.'),
    'Search/Draft.md': '---\ntitle: A draft\npublish: false\n---\nzebradraftcanary\n',
    'Templates/Search template.md': note('Template', 'zebratemplatecanary'),
    'Topics/hidden-shelf.md': note('Hidden shelf', 'zebrahiddencanary', 'collection: true\nhidden: true\n'),
  },
});

interface Index {
  manifest: SearchManifest;
  /** Every term of the base, with the base ids holding it. */
  terms: Map<string, Set<number>>;
  /** The delta's words (as written: the browser folds them). */
  deltaText: string;
}

/**
 * The index as a visitor's browser can read it: the manifest and every file it names. A
 * file gone (404) means a new base replaced the one the manifest named while it was read:
 * the manifest is read again, as the browser does (StaleIndex).
 */
async function readIndex(server: BlogServer, retries = 5): Promise<Index> {
  const res = await server.page('/search.json');
  expect(res.status).toBe(200);
  const manifest = JSON.parse(res.text) as SearchManifest;
  const terms = new Map<string, Set<number>>();
  for (const [, file] of manifest.shards) {
    const got = await server.page('/' + file);
    if (got.status === 404 && retries > 0) return readIndex(server, retries - 1);
    const shard = JSON.parse(got.text) as ShardFile;
    for (const [term, ...fields] of shard) {
      const ids = new Set<number>();
      for (let i = 1; i < fields.length; i += 2) {
        let id = 0;
        const flat = fields[i] as number[];
        for (let j = 0; j < flat.length; j += 2) ids.add((id += flat[j]!));
      }
      terms.set(term, ids);
    }
  }
  const deltaText = manifest.delta.map((d) => [d.title, d.headings, d.tags, d.text].join(' ')).join('\n');
  return { manifest, terms, deltaText };
}

/** Every title the base's meta files name (by base id). */
async function baseTitles(server: BlogServer, manifest: SearchManifest): Promise<(string | null)[]> {
  const out: (string | null)[] = [];
  for (const file of manifest.meta) for (const row of JSON.parse((await server.page('/' + file)).text) as ([string, string] | null)[]) out.push(row ? row[1] : null);
  return out;
}

describe('CONTRACT §9: what the index holds', () => {
  it('published notes only: titles, headings, tags and text; never drafts, templates, hidden collections or %% comments', async () => {
    const { terms, manifest } = await readIndex(blog);
    for (const word of ['zebrapublished', 'zebraheading', 'gardens', 'shared', 'temples']) expect(terms.has(word), word).toBe(true);
    for (const word of ['zebracommentcanary', 'zebradraftcanary', 'zebratemplatecanary', 'zebrahiddencanary', 'unfinished', 'template']) expect(terms.has(word), word).toBe(false);
    const titles = await baseTitles(blog, manifest);
    expect(titles).toContain('Café society');
    expect(titles).not.toContain('Unfinished draft');
    expect(titles).not.toContain('Hidden shelf');
    expect(manifest.delta).toEqual([]);
  });

  it('words are folded: case and accents, Arabic diacritics, tatweel and alef/teh marbuta forms', async () => {
    const { terms } = await readIndex(blog);
    for (const word of ['cafe', 'creme', 'brulee', 'احمد', 'مدرسه', 'كتاب', 'جديد', 'المدرسه']) expect(terms.has(word), word).toBe(true);
    for (const word of ['Café', 'café', 'crème', 'أحمد', 'مدرسة', 'كِتَابٌ', 'كـتـاب']) expect(terms.has(word), word).toBe(false);
  });

  it('words are split at math, currency and modifier symbols as at punctuation; other symbols stay in their word', async () => {
    const { terms } = await readIndex(blog);
    for (const word of ['key', 'zebravalue', 'zebrahome', 'zebraleft', 'zebraright', 'zebrapower', '25°zebradegree']) expect(terms.has(word), word).toBe(true);
    for (const word of ['key=zebravalue', '$zebrahome', 'zebraleft+zebraright', 'x^zebrapower', 'zebradegree']) expect(terms.has(word), word).toBe(false);
  });

  it('is served as JSON: the manifest revalidated, the base files immutable', async () => {
    const manifest = await blog.page('/search.json');
    expect(manifest.headers.get('content-type')).toMatch(/^application\/json/);
    expect(manifest.headers.get('cache-control')).toBe('no-cache');
    const file = (JSON.parse(manifest.text) as SearchManifest).shards[0]![1];
    expect(file).toMatch(/^_s\/search\/shard\.[0-9a-f]{12}\.json$/);
    const shard = await blog.page('/' + file);
    expect(shard.headers.get('content-type')).toMatch(/^application\/json/);
    expect(shard.headers.get('cache-control')).toContain('immutable');
  });
});

describe('an edit reaches the index through its delta', () => {
  it('a new word is findable after one save; the base files stay as they were', async () => {
    const before = await readIndex(blog);
    await fs.writeFile(path.join(blog.vault, 'Search/Cafe.md'), note('Café society', 'Now about zebraeditedword instead.'));
    const after = await waitForIndex(blog, (i) => i.deltaText.includes('zebraeditedword'));
    expect(after.manifest.shards).toEqual(before.manifest.shards);
    expect(after.manifest.lengths).toBe(before.manifest.lengths);
    expect(after.manifest.delta.map((d) => d.title)).toEqual(['Café society']);
    expect(after.manifest.delta[0]!.meta[0]).toBe('/Search/Cafe');
    // The base's own copy of the note is gone from results.
    const titles = await baseTitles(blog, after.manifest);
    expect(after.manifest.gone.map((id) => before.manifest.docs > id && titles[id])).toEqual([null]);
    expect(after.manifest.gone).toHaveLength(1);
  });

  it('at the next pause the base takes the note as it is now: its new words in the shards, its old ones out, the delta empty', async () => {
    const before = await readIndex(blog);
    const id = before.manifest.gone[0]!;
    const patched = await waitForIndex(blog, (i) => i.manifest.delta.length === 0 && i.terms.has('zebraeditedword'), 20_000);
    expect(patched.manifest.gone).toEqual([]);
    expect(patched.manifest.docs).toBe(before.manifest.docs);
    expect(patched.terms.get('zebraeditedword')).toEqual(new Set([id]));
    for (const word of ['zebrapublished', 'zebraheading', 'brulee']) expect(patched.terms.has(word), word).toBe(false);
    expect(patched.manifest.lengths).not.toBe(before.manifest.lengths);
    // Its result row is back under its own base id.
    expect((await baseTitles(blog, patched.manifest))[id]).toBe('Café society');
  });

  it('an unpublished note takes its words out of the base at once; a draft published joins the results', async () => {
    expect(await baseTitles(blog, (await readIndex(blog)).manifest)).toContain('Private parts');
    await fs.writeFile(path.join(blog.vault, 'Search/Draft.md'), note('A draft', 'zebradraftcanary now public'));
    await fs.writeFile(path.join(blog.vault, 'Search/Private.md'), '---\ntitle: Private parts\npublish: false\n---\nGone.\n');
    const findable = (i: Index) => i.terms.has('zebradraftcanary') || i.deltaText.includes('zebradraftcanary');
    // The two saves may reach the builder in either order (a new file's event can come after
    // a change's): the draft then lands in the new base or in the delta after it.
    // (A pass may replace the base's files while they are read: such a read is tried again.)
    const index = await waitForIndex(blog, async (i) => findable(i) && !(await baseTitles(blog, i.manifest).catch(() => ['Private parts'])).includes('Private parts'));
    // A new base was made in the pass that unpublished it: nothing of it is left to download.
    expect(index.manifest.gone).toEqual([]);
    expect(index.deltaText).not.toContain('Public words');
    expect(index.terms.has('zebraeditedword') || index.deltaText.includes('zebraeditedword')).toBe(true);
  });

  it('once the delta has grown, a quiet moment makes a new base holding every change', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 18; i++) files[`Search/Many ${i}.md`] = note(`Many ${i}`, `zebramany${i} words`);
    for (const [rel, text] of Object.entries(files)) await fs.writeFile(path.join(blog.vault, rel), text);
    const grown = await waitForIndex(blog, (i) => i.deltaText.includes('zebramany17'));
    const rebased = await waitForIndex(blog, (i) => i.manifest.delta.length === 0, 20_000);
    expect(rebased.manifest.shards).not.toEqual(grown.manifest.shards);
    expect(rebased.manifest.gone).toEqual([]);
    for (const word of ['zebramany0', 'zebramany17', 'zebraeditedword', 'zebradraftcanary']) expect(rebased.terms.has(word), word).toBe(true);
    for (const word of ['zebrapublished', 'zebracommentcanary']) expect(rebased.terms.has(word), word).toBe(false);
    // The old base's files are gone with it.
    expect((await blog.page('/' + grown.manifest.shards[0]![1])).status).toBe(404);
  });
});

describe('the search page', () => {
  it('without scripts it says search needs them and lists the topics; the masthead box leads there on every page', async () => {
    const page = (await blog.page('/search?q=anything')).text;
    expect(page).toContain('<noscript><p class="s-search-note">Search runs in your browser and needs JavaScript');
    expect(page).toContain('<a class="s-chip" dir="auto" href="/topic/shared">#shared</a>');
    expect(page).toMatch(/<form class="s-search s-search-page-form" role="search" aria-label="Search" action="\/search" method="get">/);
    expect(page).toContain('<meta name="robots" content="noindex">');
    const home = (await blog.page('/')).text;
    expect(home).toMatch(/<form class="s-search s-masthead-search" role="search" aria-label="Search" action="\/search" method="get">/);
    expect(home).toContain('aria-keyshortcuts="/"');
  });
});

async function waitForIndex(server: BlogServer, check: (i: Index) => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<Index> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const index = await readIndex(server);
    if (await check(index)) return index;
    if (Date.now() > deadline) throw new Error(`the index never matched: ${JSON.stringify({ ...index.manifest, delta: index.manifest.delta.map((d) => d.title) })}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
