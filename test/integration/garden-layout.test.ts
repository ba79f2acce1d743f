// CONTRACT §12: the garden layout (PUBLIC_LAYOUT=default) reads a vault of notes: a file
// explorer of published notes and folders, breadcrumbs, notes without date lines or a
// previous/next chain, `/` the home note. Read as a visitor reads it, from the real server.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';
import { GARDEN_FILES } from '../fixtures/garden/vault.ts';

const garden = blogForFile({ fixture: false, files: GARDEN_FILES, env: { PUBLIC_LAYOUT: 'default' }, settings: { siteName: 'Garden', homeNote: 'Home' } });

// Temp folders go with the file's last server (forFile): removing them under a running server races its writes.

const explorerOf = (html: string) => /<nav class="s-explorer"[^>]*>.*?<\/nav>/s.exec(html)?.[0] ?? '';
const breadcrumbsOf = (html: string) => /<nav class="s-breadcrumbs"[^>]*>.*?<\/nav>/s.exec(html)?.[0] ?? '';
/** Each `<a>` of the explorer as `href|text|current`. */
const explorerLinks = (html: string) =>
  [...explorerOf(html).matchAll(/<a href="([^"]*)"( aria-current="page")?>([^<]*)<\/a>/g)].map((m) => `${m[1]}|${m[3]}${m[2] ? '|current' : ''}`);
/** The `data-folder` of every folder of the explorer shown open. */
const openFolders = (html: string) => [...explorerOf(html).matchAll(/<details data-folder="([^"]*)" open>/g)].map((m) => decodeURIComponent(m[1]!));

describe('CONTRACT §12: the file explorer', () => {
  it('lists every published note and folder, nested, folder notes titling their folders, by name, folders first', async () => {
    const html = (await garden.page('/Guide/Install')).text;
    const nav = explorerOf(html);
    expect(nav).not.toBe('');
    expect(explorerLinks(html)).toEqual([
      '/Guide/Guide|The Guide',
      '/Guide/Advanced|Advanced',
      '/Guide/Advanced/Configure|Configure',
      '/Guide/Advanced/Tuning|Tuning',
      '/Guide/Install|Install|current',
      '/Loose|Loose',
      '/Loose/Stray|Stray thought',
      '/Reference/index|Reference Shelf',
      '/Reference/API|API',
      '/|Welcome',
    ]);
    // Nesting: Advanced (no folder note: its name, linking its folder page) sits inside Guide, its notes inside it.
    expect(nav).toMatch(/data-folder="Guide"[^>]*><summary><a[^>]*>The Guide<\/a><\/summary><ul><li><details data-folder="Guide%2FAdvanced"[^>]*><summary><a href="\/Guide\/Advanced">Advanced<\/a>/);
    expect(nav).toMatch(/data-folder="Loose"><summary><a href="\/Loose">Loose<\/a><\/summary><ul><li><a href="\/Loose\/Stray">Stray thought<\/a>/);
  });

  it('marks the current note and opens its folders, and only those', async () => {
    const html = (await garden.page('/Guide/Advanced/Configure')).text;
    expect(explorerLinks(html).filter((l) => l.endsWith('|current'))).toEqual(['/Guide/Advanced/Configure|Configure|current']);
    expect(openFolders(html)).toEqual(['Guide', 'Guide/Advanced']);
    const folderNote = (await garden.page('/Reference/index')).text;
    expect(explorerLinks(folderNote).filter((l) => l.endsWith('|current'))).toEqual(['/Reference/index|Reference Shelf|current']);
    expect(openFolders(folderNote)).toEqual(['Reference']);
  });

  it('never lists a draft, nor its title, nor a folder holding only drafts', async () => {
    for (const route of ['/', '/Guide/Install', '/Reference/API', '/search']) {
      const html = (await garden.page(route)).text;
      expect(html, route).not.toContain('Secret Plan Title');
      expect(html, route).not.toContain('Hidden Draft Title');
      expect(html, route).not.toContain('data-folder="Drafts"');
    }
  });

  it('is server-rendered inside a fold a phone opens with its button, with no script needed', async () => {
    const html = (await garden.page('/Guide/Install')).text;
    expect(html).toMatch(/<aside class="s-sidebar"><details class="s-explorer-fold"><summary class="s-explorer-toggle">Notes<\/summary>\s*<nav class="s-explorer" aria-label="Notes">/);
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)/);
  });

  it('/ opens the home note, current in the explorer; the blog topic row is not there', async () => {
    const home = await garden.page('/');
    expect(home.status).toBe(200);
    expect(home.text).toContain('This garden grows notes.');
    expect(explorerLinks(home.text)).toContain('/|Welcome|current');
    expect(home.text).not.toContain('class="s-topics"');
  });
});

describe('CONTRACT §12: breadcrumbs', () => {
  it("one link per folder above the note: its folder note, else the folder's own page", async () => {
    const html = (await garden.page('/Guide/Advanced/Configure')).text;
    const crumbs = breadcrumbsOf(html);
    expect(crumbs).toContain('<ol><li><a href="/Guide/Guide">The Guide</a></li><li><a href="/Guide/Advanced">Advanced</a></li></ol>');
    // A folder at the top without a folder note.
    expect(breadcrumbsOf((await garden.page('/Loose/Stray')).text)).toContain('<ol><li><a href="/Loose">Loose</a></li></ol>');
    expect(breadcrumbsOf((await garden.page('/Reference/API')).text)).toContain('<ol><li><a href="/Reference/index">Reference Shelf</a></li></ol>');
  });

  it('a folder note has only the folders above its own; a note at the root has none', async () => {
    expect(breadcrumbsOf((await garden.page('/Guide/Guide')).text)).toBe('');
    expect(breadcrumbsOf((await garden.page('/')).text)).toBe('');
  });

  it('sit above the title', async () => {
    expect((await garden.page('/Guide/Install')).text).toMatch(/<nav class="s-breadcrumbs"[^>]*>.*<\/nav>\s*<h1 class="s-title"/s);
  });
});

describe('Related, beside the backlinks', () => {
  const connectionsOf = (html: string) => /<div class="s-connections">.*?<\/div>/s.exec(html)?.[0] ?? '';
  const relatedLinks = (html: string) => [.../<section class="s-related"[^>]*>.*?<\/section>/s.exec(connectionsOf(html))?.[0].matchAll(/<a class="s-post-link" href="([^"]*)">([^<]*)<\/a>/g) ?? []].map((m) => `${m[1]}|${m[2]}`);

  it('sits beside "Linked from" and lists the linked notes it does not list already, by title', async () => {
    const html = (await garden.page('/Guide/Install')).text;
    // Install is linked from API, Configure and The Guide, and links Tuning.
    expect(connectionsOf(html)).toMatch(/^<div class="s-connections"><section class="s-backlinks"[^>]*>.*<\/section><section class="s-related" lang="en" dir="ltr"><h2>Related<\/h2>/s);
    expect(relatedLinks(html)).toEqual(['/Guide/Advanced/Tuning|Tuning']);
  });

  it('stands alone for a note nothing links to, and is left out when the backlinks list every related note', async () => {
    const home = (await garden.page('/')).text;
    expect(home).not.toContain('class="s-backlinks"');
    expect(relatedLinks(home)).toEqual(['/Reference/API|API', '/Guide/Guide|The Guide']);
    const tuning = (await garden.page('/Guide/Advanced/Tuning')).text;
    expect(connectionsOf(tuning)).toContain('class="s-backlinks"');
    expect(tuning).not.toContain('class="s-related"');
  });
});

describe('CONTRACT §12: notes read as notes', () => {
  it('no date line unless the frontmatter gives one; no previous/next', async () => {
    const undated = (await garden.page('/Guide/Install')).text;
    const meta = /<p class="s-meta".*?<\/p>/s.exec(undated)![0];
    expect(meta).not.toMatch(/<time datetime/);
    expect(undated).not.toContain('s-prevnext');
    expect(undated).not.toContain('article:published_time');
    const dated = (await garden.page('/Guide/Advanced/Configure')).text;
    expect(/<p class="s-meta".*?<\/p>/s.exec(dated)![0]).toMatch(/<time datetime="2025-03-04T[^"]*">March 4, 2025<\/time>/);
    expect(dated).not.toContain('s-prevnext');
  });
});

// Lists and search show a note's date where its page does: only when its frontmatter gives one.
const tagged = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'default' },
  settings: { siteName: 'Garden' },
  files: {
    'Dated.md': '---\npublish: true\ndate: 2025-03-04\ntags: [plants]\n---\nA dated note.\n',
    'Undated.md': '---\npublish: true\ntags: [plants]\n---\nA note without a date.\n',
  },
});

describe('CONTRACT §12: a garden note without a date has none anywhere', () => {
  it("a topic's cards and the search results date only the note whose frontmatter gives a date", async () => {
    const topic = (await tagged.page('/topic/plants')).text;
    const cards = [...topic.matchAll(/<li class="s-card".*?<\/li>/gs)].map((m) => m[0]);
    expect(cards).toHaveLength(2);
    expect(cards.find((c) => c.includes('/Dated"'))).toMatch(/<time datetime="2025-03-04T[^"]*">March 4, 2025<\/time>/);
    expect(cards.find((c) => c.includes('/Undated"'))).not.toMatch(/<time|s-card-date/);
    const manifest = JSON.parse((await tagged.page('/search.json')).text) as { meta: string[] };
    const rows = (await Promise.all(manifest.meta.map(async (file) => JSON.parse((await tagged.page('/' + file)).text) as ([string, string, string] | null)[]))).flat();
    expect(rows.filter((r) => r !== null).map((r) => [r![1], r![2]]).sort()).toEqual([['Dated', 'March 4, 2025'], ['Undated', '']]);
  });
});

describe('CONTRACT §12: a static snapshot of the garden', () => {
  it('each page holds the explorer with itself marked, and breadcrumbs', async () => {
    const root = await tempDir('vs-garden-snap-');
    const vault = path.join(root, 'vault');
    await writeFiles(vault, GARDEN_FILES);
    const { res, out } = buildSnapshot(root, vault, 'default');
    expect(res.status, res.stderr).toBe(0);
    const html = readFileSync(path.join(out, 'Guide/Advanced/Configure.html'), 'utf8');
    expect(html).not.toContain('<!--service:nav');
    expect(explorerLinks(html).filter((l) => l.endsWith('|current'))).toEqual(['/Guide/Advanced/Configure|Configure|current']);
    expect(openFolders(html)).toEqual(['Guide', 'Guide/Advanced']);
    expect(breadcrumbsOf(html)).toContain('<a href="/Guide/Guide">The Guide</a></li><li><a href="/Guide/Advanced">Advanced</a>');
    expect(explorerOf(html)).toContain('<summary><a href="/Guide/Advanced">Advanced</a></summary>');
    expect(html).not.toContain('Secret Plan Title');
  });
});

describe('CONTRACT §12: hostile folder and note names', () => {
  const odd = blogForFile({
    fixture: false,
    env: { PUBLIC_LAYOUT: 'default' },
    files: {
      'Home.md': '---\npublish: true\n---\n\nHome.\n',
      'Odd "<b>" & \'q\' --> $&/Odd "<b>" & \'q\' --> $&.md': '---\npublish: true\ntitle: Folder "<i>" $\' note\n---\n\nIts folder note.\n',
      'Odd "<b>" & \'q\' --> $&/Inner %2F name.md': '---\npublish: true\ntitle: Inner <script>x</script>\n---\n\nInside.\n',
    },
  });

  it('are escaped in the explorer and breadcrumbs, and the page is still marked current', async () => {
    const res = await odd.waitForPage('/', (p) => p.status === 200);
    expect(res.text).not.toContain('<script>x');
    const inner = await odd.page('/Odd-%22%3Cb%3E%22-%26-\'q\'---%3E-%24%26/Inner-%252F-name');
    expect(inner.status).toBe(200);
    expect(inner.text).not.toContain('<script>x');
    expect(inner.text).not.toContain('<!--service:');
    expect(explorerLinks(inner.text).filter((l) => l.endsWith('|current'))).toHaveLength(1);
    expect(explorerLinks(inner.text).find((l) => l.endsWith('|current'))).toContain('Inner &lt;script&gt;x&lt;/script&gt;');
    expect(openFolders(inner.text)).toEqual([`Odd "<b>" & 'q' --> $&`]);
    expect(breadcrumbsOf(inner.text)).toContain('>Folder &quot;&lt;i&gt;&quot; $&#39; note</a>');
  });
});
