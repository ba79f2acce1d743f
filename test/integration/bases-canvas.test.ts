// CONTRACT §12: Obsidian Bases and JSON Canvas pages, read as a visitor reads them from the
// real server. A base's rows and counts hold published notes only; a canvas shows a draft
// as a neutral placeholder; what the site cannot show says so in a sentence, never as YAML.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MetaRow, SearchManifest, ShardFile } from '../../shared/search/index-format.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { DOCUMENT_FILES } from '../fixtures/documents/vault.ts';

/** The fixture's base with what the site lacks, in one formula and one view: each costs only itself (Obsidian shows the rest). */
const UNSUPPORTED_BASE = 'formulas:\n  twice: "values.map(value * 2)"\nviews:\n  - type: table\n    name: Books\n    filters: file.hasTag("book")\n    order: [file.name, formula.twice]\n  - type: kanban\n    name: Board\n';
const site = blogForFile({ fixture: false, files: { ...DOCUMENT_FILES, 'Library/Unsupported.base': UNSUPPORTED_BASE }, env: { PUBLIC_LAYOUT: 'default' }, settings: { siteName: 'Reading room', homeNote: 'Home' } });

const bodyOf = (html: string) => /<div class="s-article-body"[^>]*>([\s\S]*?)<\/article>/.exec(html)?.[1] ?? '';
/** Each view of the base markup: its rows (tbody) as cell texts. */
const tableRows = (html: string) =>
  [...html.matchAll(/<table class="s-base-table">([\s\S]*?)<\/table>/g)].map((t) =>
    [...(/<tbody>([\s\S]*?)<\/tbody>/.exec(t[1]!)?.[1] ?? '').matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => c[1]!.replace(/<[^>]+>/g, ''))),
  );
const headers = (html: string) => [...(/<thead>([\s\S]*?)<\/thead>/.exec(html)?.[1] ?? '').matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1]);
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
const SECRETS = ['Secret Draft Title', 'secret draft text', 'Hidden Draft'];

describe('CONTRACT §12: a .base file is a page of its views', () => {
  it('lives at its address, filters on a property, sorts, computes formulas, and labels columns by displayName', async () => {
    const page = await site.page('/Library/Reading');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<h1 class="s-title">Reading</h1>');
    expect(page.text).toContain('<div class="s-base">');
    expect(headers(page.text)).toEqual(['Name', 'Status', 'rating', 'Stars', 'label']);
    // type == "book" in Library/Books, by rating descending: the essay (a paper) is out.
    expect(tableRows(page.text)[0]).toEqual([
      ['Dune', 'done', '5', '10', 'Dune (done)'],
      ['Middlemarch', 'done', '4', '8', 'Middlemarch (done)'],
      ['Emma', 'reading', '3', '6', 'Emma (reading)'],
    ]);
    // A cards view with its limit, the count before it.
    expect([...page.text.matchAll(/<li class="s-base-item">/g)]).toHaveLength(2);
    expect([...page.text.matchAll(/<p class="s-base-count" lang="en" dir="ltr">3 results<\/p>/g)]).toHaveLength(3);
  });

  it('groups rows by a property with a summary row per group, a placeholder for a summary it does not know', async () => {
    const html = (await site.page('/Library/Reading')).text;
    const groups = [...html.matchAll(/<tbody class="s-base-group">([\s\S]*?)<\/tbody>/g)].map((g) => ({
      head: text(/<tr class="s-base-group-head">([\s\S]*?)<\/tr>/.exec(g[1]!)![1]!),
      rows: [...g[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => text(r[1]!.replace(/<\/td><td>/g, ' | '))),
      summary: [...(/<tr class="s-base-summary">([\s\S]*?)<\/tr>/.exec(g[1]!)?.[1] ?? '').matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => text(c[1]!)),
    }));
    // status ascending, by name within; the draft (done, rating 9) neither a row nor in the average.
    expect(groups).toEqual([
      { head: 'done 2', rows: ['Dune | 5 | 10', 'Middlemarch | 4 | 8'], summary: ['The summary “Mode” is not supported', 'Average 4.5', 'top 10'] },
      { head: 'reading 1', rows: ['Emma | 3 | 6'], summary: ['The summary “Mode” is not supported', 'Average 3', 'top 6'] },
    ]);
    expect(html).toContain('<th scope="rowgroup" colspan="3">done <span class="s-base-group-count">2</span></th>');
  });

  it('a list view groups too, each group with its summaries beneath', async () => {
    const body = bodyOf((await site.page('/Library/Lengths')).text);
    const groups = [...body.matchAll(/<div class="s-base-group">([\s\S]*?)<\/div>\n(?=<div class="s-base-group">|\n?<p class="s-base-count")/g)].map((g) => ({
      head: text(/<p class="s-base-group-head">([\s\S]*?)<\/p>/.exec(g[1]!)![1]!),
      items: [...g[1]!.matchAll(/<p class="s-base-item-title">([\s\S]*?)<\/p>/g)].map((m) => text(m[1]!)),
      summaries: text(/<dl class="s-base-summaries"[^>]*>([\s\S]*?)<\/dl>/.exec(g[1]!)?.[1] ?? ''),
    }));
    // status descending: reading, then done; the draft (done) in no group and no count.
    expect(groups.map((g) => [g.head, g.items.length, g.summaries])).toEqual([
      ['reading 1', 1, 'size · Filled1'],
      ['done 2', 2, 'size · Filled2'],
    ]);
    expect(groups[1]!.items.sort()).toEqual(['Dune', 'Middlemarch']);
  });

  it('never shows nor counts a note that is not published, though it matches the filter', async () => {
    for (const route of ['/Library/Reading', '/Library/Library']) {
      const html = (await site.page(route)).text;
      for (const secret of SECRETS) expect(html, route).not.toContain(secret);
      expect(html, route).not.toContain('rating: 9');
    }
  });

  it('is published only when a published note links or embeds it; the raw file is never served', async () => {
    expect((await site.page('/Private')).status).toBe(404);
    expect((await site.page('/Private.base')).status).toBe(404);
    expect((await site.page('/Library/Reading.base')).status).toBe(404);
    // A base named like one of the site's own pages never takes its place.
    const search = await site.page('/search');
    expect(search.text).toContain('s-page-search');
    expect(search.text).not.toContain('class="s-base"');
    const library = (await site.page('/Library/Library')).text;
    expect(library).toContain('<a class="s-attachment internal-link" href="/Library/Reading">Reading</a>');
  });
});

describe('CONTRACT §12: a ```base block and an embedded base render in place', () => {
  it('a block in a note renders its view over published notes', async () => {
    const body = bodyOf((await site.page('/Library/Library')).text);
    expect(body).not.toContain('```');
    expect(body).not.toContain('filters:');
    expect(tableRows(body)[0]).toEqual([
      ['Dune', '5'],
      ['Middlemarch', '4'],
    ]);
    // In the site's language and direction, whatever the note's (in an Arabic note "2 results" read "results 2").
    expect(body).toContain('<p class="s-base-count" lang="en" dir="ltr">2 results</p>');
    // Its summary in the table's footer, of the published rows only (the draft's 9 is not in it).
    expect(body).toContain('<tfoot><tr class="s-base-summary"><td></td><td><span class="s-base-summary-name">Sum</span> <span class="s-base-summary-value">9</span></td></tr></tfoot>');
  });

  it('an unsupported function empties its column under a sentence naming it, never the YAML; the embed shows the first view only', async () => {
    const body = bodyOf((await site.page('/Library/Library')).text);
    expect(body).toContain('<p class="s-base-gap" role="note" lang="en" dir="ltr">This base uses the function map(), which the site cannot show.</p>');
    expect(tableRows(body)[1]).toEqual([
      ['Dune', ''],
      ['Emma', ''],
      ['Middlemarch', ''],
    ]);
    expect(body).not.toContain('s-base s-base-unsupported');
    expect(body).not.toContain('kanban');
    expect(body).not.toContain('values.map');
    expect(body).not.toContain('formulas');
  });

  it("the base's own page shows every view, one it cannot show (a kanban) as a sentence in its place", async () => {
    const body = bodyOf((await site.page('/Library/Unsupported')).text);
    expect(tableRows(body)).toHaveLength(1);
    expect(body).toContain('<section class="s-base-view s-base-view-refused">\n<p class="s-base-view-name">Board</p>\n<div class="s-base-unsupported" role="note"><p lang="en" dir="ltr">This base uses the kanban view, which the site cannot show.</p></div>');
  });
});

describe('CONTRACT §12: a .canvas file is a page of its nodes and edges', () => {
  it('draws text, file, link and group nodes and the edges between them, without scripts', async () => {
    const page = await site.page('/Maps/Overview');
    expect(page.status).toBe(200);
    const body = bodyOf(page.text);
    expect(body).toContain('<div class="s-canvas"');
    const nodes = [...body.matchAll(/<div class="s-canvas-node s-canvas-(\w+)[^"]*"[^>]*data-node="([^"]+)"/g)].map((m) => `${m[2]}:${m[1]}`);
    expect(nodes.sort()).toEqual(['draft:file', 'dune:file', 'group:group', 'plan:text', 'site:link']);
    // Text nodes are the site's Markdown, sanitised: links resolve, scripts go.
    expect(body).toMatch(/<h2 id="reading-plan">Reading plan/);
    expect(body).toContain('<a class="s-wikilink internal-link" href="/Library/Books/Dune">Dune</a>');
    expect(body).toContain('<strong>the rest</strong>');
    expect(body).not.toMatch(/<script/i);
    // A file node: the published note's title and excerpt, linked.
    expect(body).toContain('<p class="s-canvas-file-title"><a class="internal-link" href="/Library/Books/Dune">Dune</a></p><p class="s-canvas-excerpt" dir="auto">A desert planet and its spice.</p>');
    expect(body).toContain('<a class="s-canvas-url" href="https://example.org/reading" rel="noopener nofollow">');
    expect(body).toContain('<p class="s-canvas-group-label" dir="auto">Books to read</p>');
    // Three edges: preset and hex colours, an arrow at each end that asks for one, a label.
    expect([...body.matchAll(/<g class="s-canvas-edge/g)]).toHaveLength(3);
    expect([...body.matchAll(/class="s-canvas-arrow"/g)]).toHaveLength(3);
    expect(body).toContain('<g class="s-canvas-edge s-canvas-color-1">');
    expect(body).toContain('style="--s-canvas-color:#3366ff;"');
    expect(body).toMatch(/<div class="s-canvas-edge-label s-canvas-color-1"[^>]*>first<\/div>/);
  });

  it('a file node naming a draft is a neutral placeholder, never its title or text', async () => {
    const html = (await site.page('/Maps/Overview')).text;
    expect(html).toMatch(/data-node="draft"><p class="s-canvas-hidden" dir="auto">A note that is not published<\/p><\/div>/);
    for (const secret of SECRETS) expect(html).not.toContain(secret);
  });

  it('"Linked from" on its page lists the published notes linking or embedding it (Obsidian counts an embed), never a draft', async () => {
    const html = (await site.page('/Maps/Overview')).text;
    const section = /<section class="s-backlinks"[^>]*>.*?<\/section>/s.exec(html)?.[0] ?? '';
    expect([...section.matchAll(/<a class="s-backlink" href="([^"]*)">([^<]*)<\/a>/g)].map((m) => `${m[1]}|${m[2]}`)).toEqual(['/Loose/Map-reader|Map reader', '/Maps/Maps|Maps']);
    expect(html).not.toContain('Secret Map Draft');
  });

  it('"Linked from" on its page gives each linking note the sentence around its link, as a note\'s page does', async () => {
    const section = /<section class="s-backlinks"[^>]*>.*?<\/section>/s.exec((await site.page('/Maps/Overview')).text)?.[0] ?? '';
    const items = [...section.matchAll(/<a class="s-backlink" href="([^"]*)">[^<]*<\/a><p class="s-backlink-snippet" dir="auto">([^<]*)<\/p>/g)].map((m) => `${m[1]}|${m[2]!.replace(/[\u2068\u2069]/g, '')}`);
    expect(items).toEqual(['/Loose/Map-reader|See Maps/Overview.canvas.', '/Maps/Maps|The reading map: Overview.canvas.']);
  });

  it('a canvas that breaks the format is refused with a sentence where it is embedded', async () => {
    const body = bodyOf((await site.page('/Maps/Maps')).text);
    expect(body).toContain('<div class="s-canvas s-canvas-unsupported" role="note"><p lang="en" dir="ltr">This canvas cannot be shown: a node whose x is out of bounds.</p></div>');
    expect(body).not.toContain('1e300');
  });
});

/** What the visitor search finds: every word it indexes (the base's terms and the delta's words) and each page's result row. */
async function searchable(): Promise<{ words: Set<string>; rows: MetaRow[] }> {
  const manifest = JSON.parse((await site.page('/search.json')).text) as SearchManifest;
  const words = new Set<string>();
  for (const [, file] of manifest.shards) for (const [term] of JSON.parse((await site.page('/' + file)).text) as ShardFile) words.add(term);
  const rows: MetaRow[] = [];
  for (const file of manifest.meta) rows.push(...(JSON.parse((await site.page('/' + file)).text) as (MetaRow | null)[]).filter((r): r is MetaRow => r !== null));
  for (const doc of manifest.delta) {
    for (const word of [doc.title, doc.headings, doc.tags, doc.text].join(' ').toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (word) words.add(word);
    rows.push(doc.meta);
  }
  return { words, rows };
}

describe('CONTRACT §12: published bases and canvases are in the sitemap and the search index', () => {
  it('the sitemap lists each published base and canvas page, and no other', async () => {
    const sitemap = (await site.page('/sitemap.xml')).text;
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    for (const page of ['/Library/Reading', '/Library/Lengths', '/Library/Unsupported', '/Maps/Overview', '/Maps/Broken']) expect(locs).toContain(page);
    // Not linked from a published note, or named like the site's own search page.
    expect(locs).not.toContain('/Private');
    expect(locs.filter((l) => l === '/search')).toEqual([]);
    expect(sitemap).toMatch(/<loc>[^<]*\/Maps\/Overview<\/loc><lastmod>\d{4}-\d{2}-\d{2}T00:00:00\.000Z<\/lastmod>/);
  });

  it("the search finds a canvas by its text and a base by its name and views, never by a draft's words", async () => {
    const { words, rows } = await searchable();
    const row = (url: string) => rows.find((r) => r[0] === url);
    expect(row('/Maps/Overview')?.slice(1, 3)).toEqual(['Overview', '']);
    expect(row('/Library/Reading')?.slice(1, 3)).toEqual(['Reading', '']);
    expect(row('/Private')).toBeUndefined();
    // The canvas's text node, group label and edge label; the base's view name.
    for (const word of ['plan', 'rest', 'books', 'first', 'cards', 'status']) expect(words, word).toContain(word);
    // The draft the canvas names and the script in its text node are no words of it.
    for (const word of ['secret', 'hidden', 'alert']) expect(words, word).not.toContain(word);
  });
});

describe('CONTRACT §12: a base follows the notes it reads', () => {
  it("a book's new rating reorders the base's rows on the live site", async () => {
    const file = path.join(site.vault, 'Library/Books/Emma.md');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('rating: 3', 'rating: 7'));
    const page = await site.waitForPage('/Library/Reading', (p) => tableRows(p.text)[0]?.[0]?.[0] === 'Emma');
    expect(tableRows(page.text)[0]!.map((r) => r[0])).toEqual(['Emma', 'Dune', 'Middlemarch']);
  });

  it("a canvas's new words are found by the live site's search", async () => {
    const file = path.join(site.vault, 'Maps/Overview.canvas');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('the rest', 'the zebracanvasword'));
    await site.waitForPage('/search.json', (p) => p.text.includes('zebracanvasword'));
    const { words } = await searchable();
    expect(words).toContain('zebracanvasword');
  });

  it("the base file's own edit (its sort turned around) shows on the live site", async () => {
    const file = path.join(site.vault, 'Library/Reading.base');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('direction: DESC', 'direction: ASC'));
    const page = await site.waitForPage('/Library/Reading', (p) => tableRows(p.text)[0]?.[0]?.[0] === 'Middlemarch');
    expect(tableRows(page.text)[0]!.map((r) => r[0])).toEqual(['Middlemarch', 'Dune', 'Emma']);
  });
});
