// CONTRACT §12, as Quartz's folder pages: in the garden every folder holding a published
// note, directly or deeper, is a page: its folder note, else a page of its own at the
// folder's address listing its folders and published notes as the explorer orders them.
// A folder holding only unpublished notes is no page: 404, as any missing address.
// Read as a visitor reads it, from the real server, and from a static snapshot.
import { existsSync, readFileSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const note = (fm: string, body: string) => `---\npublish: true\n${fm}---\n\n${body}\n`;
const draft = (fm: string, body: string) => `---\npublish: false\n${fm}---\n\n${body}\n`;

const FILES: Record<string, string> = {
  'Home.md': note('title: Welcome\n', 'The home note.'),
  'Garden/Top.md': note('title: Top note\n', 'At the top of the garden.'),
  'Garden/Note 10.md': note('', 'Tenth.'),
  'Garden/Note 2.md': note('', 'Second.'),
  'Garden/Seeds/Alpha.md': note('title: Alpha seed\ndate: 2025-03-04\n', 'A dated seed.'),
  'Garden/Seeds/Beta.md': note('title: Beta seed\n', 'An undated seed.'),
  'Garden/Seeds/Gamma.md': draft('title: Gamma Secret Title\n', 'Nobody reads this.'),
  'Garden/Drafts Only/Hidden.md': draft('title: Hidden Secret Title\n', 'Nor this.'),
  'Drafts/Only.md': draft('title: Only Secret Title\n', 'Nor this.'),
  'Reference/index.md': note('title: Reference Shelf\n', 'The folder note.'),
  'Reference/API.md': note('title: API\n', 'The API.'),
  'Shelf/Shelf.md': note('title: The Shelf\n', 'A folder note named as its folder.'),
  'Shelf/Book.md': note('title: Book\n', 'On the shelf.'),
  'Odd <b> & "q"/Inner.md': note('title: Inner\n', 'Inside an oddly named folder.'),
};

const garden = blogForFile({ fixture: false, files: FILES, env: { PUBLIC_LAYOUT: 'default' }, settings: { siteName: 'Garden', homeNote: 'Home' } });

/** The page's listed entries (folders, then notes) as `href|title`, dated ones `|date`. */
const listed = (html: string) =>
  [...(/<section class="s-folder-page">.*?<\/section>\s*<\/main>/s.exec(html)?.[0] ?? '').matchAll(/<li class="s-folder-entry[^"]*"><a class="s-post-link" dir="auto" href="([^"]*)">([^<]*)<\/a>(?:<span class="s-count">[^<]*<\/span>)?(?:<time class="s-count" datetime="[^"]*">([^<]*)<\/time>)?/g)].map((m) => [m[1], m[2], m[3]].filter(Boolean).join('|'));
const explorerOf = (html: string) => /<nav class="s-explorer"[^>]*>.*?<\/nav>/s.exec(html)?.[0] ?? '';
const breadcrumbsOf = (html: string) => /<nav class="s-breadcrumbs"[^>]*>.*?<\/nav>/s.exec(html)?.[0] ?? '';
const openFolders = (html: string) => [...explorerOf(html).matchAll(/<details data-folder="([^"]*)" open>/g)].map((m) => decodeURIComponent(m[1]!));
const secrets = ['Gamma Secret Title', 'Hidden Secret Title', 'Only Secret Title', 'Drafts Only', 'Drafts'];

describe('CONTRACT §12: a folder without a folder note is a page', () => {
  it('lists exactly its published notes, dated where the garden dates them, with breadcrumbs, the explorer open on it', async () => {
    const res = await garden.page('/Garden/Seeds');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.text).toMatch(/<h1 class="s-list-title"><bdi>Seeds<\/bdi><\/h1>/);
    expect(res.text).toContain('<title>Seeds · Garden</title>');
    expect(listed(res.text)).toEqual(['/Garden/Seeds/Alpha|Alpha seed|March 4, 2025', '/Garden/Seeds/Beta|Beta seed']);
    expect(breadcrumbsOf(res.text)).toContain('<ol><li><a href="/Garden">Garden</a></li></ol>');
    expect(explorerOf(res.text)).toContain('<a href="/Garden/Seeds" aria-current="page">Seeds</a>');
    expect(openFolders(res.text)).toEqual(['Garden', 'Garden/Seeds']);
    for (const secret of secrets) expect(res.text).not.toContain(secret);
  });

  it('lists its folders first, then its notes, by name as the explorer does; a folder of drafts is not among them', async () => {
    const res = await garden.page('/Garden');
    expect(res.status).toBe(200);
    expect(listed(res.text)).toEqual(['/Garden/Seeds|Seeds', '/Garden/Note-2|Note 2', '/Garden/Note-10|Note 10', '/Garden/Top|Top note']);
    expect(res.text).toMatch(/<p class="s-count">5 published notes<\/p>/);
    expect(breadcrumbsOf(res.text)).toBe('');
    for (const secret of secrets) expect(res.text).not.toContain(secret);
  });

  it('a hostile folder name is escaped in its page', async () => {
    const res = await garden.page('/Odd-%3Cb%3E-%26-%22q%22');
    expect(res.status).toBe(200);
    expect(res.text).toContain('<h1 class="s-list-title"><bdi>Odd &lt;b&gt; &amp; &quot;q&quot;</bdi></h1>');
    expect(res.text).not.toContain('<b>');
    expect(listed(res.text)).toEqual(['/Odd-%3Cb%3E-%26-%22q%22/Inner|Inner']);
  });

  it('the explorer and the breadcrumbs of a note link the folder to its page', async () => {
    const html = (await garden.page('/Garden/Seeds/Beta')).text;
    expect(breadcrumbsOf(html)).toContain('<ol><li><a href="/Garden">Garden</a></li><li><a href="/Garden/Seeds">Seeds</a></li></ol>');
    expect(explorerOf(html)).toContain('<summary><a href="/Garden/Seeds">Seeds</a></summary>');
  });

  it('its address with a trailing slash moves there (301); a folder note stays its folder’s page', async () => {
    const slash = await garden.page('/Garden/Seeds/');
    expect(slash.status).toBe(301);
    expect(slash.headers.get('location')).toBe('/Garden/Seeds');
    const shelf = await garden.page('/Reference/');
    expect(shelf.status).toBe(301);
    expect(shelf.headers.get('location')).toBe('/Reference/index');
    expect((await garden.page('/Reference')).text).not.toContain('class="s-folder-page"');
    for (const route of ['/Shelf', '/Shelf/']) {
      const named = await garden.page(route);
      expect(named.status, route).toBe(301);
      expect(named.headers.get('location'), route).toBe('/Shelf/Shelf');
    }
  });

  it('a folder holding only unpublished notes answers as any missing address does', async () => {
    const missing = await garden.page('/No-Such-Folder');
    expect(missing.status).toBe(404);
    for (const route of ['/Drafts', '/Drafts/', '/Garden/Drafts-Only', '/Garden/Drafts-Only/']) {
      const res = await garden.page(route);
      expect(res.status, route).toBe(404);
      expect(res.text, route).toBe(missing.text);
    }
  });

  it('is in the sitemap; a folder of drafts and a folder with a folder note are not there as folders', async () => {
    const sitemap = (await garden.page('/sitemap.xml')).text;
    const locs = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(locs).toContain('/Garden');
    expect(locs).toContain('/Garden/Seeds');
    expect(locs.filter((l) => /Drafts|^\/Reference$|^\/Shelf$/.test(l))).toEqual([]);
  });
});

describe('CONTRACT §12: folder pages follow publishing', () => {
  it("publishing a folder's first note makes its page; unpublishing its last takes the page away", async () => {
    const file = path.join(garden.vault, 'Drafts', 'Only.md');
    const before = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, before.replace('publish: false', 'publish: true'));
    const made = await garden.waitForPage('/Drafts', (p) => p.status === 200);
    expect(listed(made.text)).toEqual(['/Drafts/Only|Only Secret Title']);
    expect((await garden.page('/sitemap.xml')).text).toMatch(/\/Drafts<\/loc>/);
    expect(explorerOf((await garden.page('/Garden/Top')).text)).toContain('<a href="/Drafts">Drafts</a>');
    // A new folder two deep: both folders become pages.
    await writeFiles(garden.vault, { 'Fresh/Deeper/First.md': note('title: First fresh\n', 'New.') });
    expect(listed((await garden.waitForPage('/Fresh/Deeper', (p) => p.status === 200)).text)).toEqual(['/Fresh/Deeper/First|First fresh']);
    expect(listed((await garden.page('/Fresh')).text)).toEqual(['/Fresh/Deeper|Deeper']);
    await fs.writeFile(file, before);
    await garden.waitForPage('/Drafts', (p) => p.status === 404);
    await fs.rm(path.join(garden.vault, 'Fresh'), { recursive: true });
    await garden.waitForPage('/Fresh/Deeper', (p) => p.status === 404);
    expect((await garden.page('/Fresh')).status).toBe(404);
    const sitemap = (await garden.page('/sitemap.xml')).text;
    expect(sitemap).not.toMatch(/\/(?:Drafts|Fresh)/);
  });
});

describe('CONTRACT §12: folder pages in a static snapshot', () => {
  it('each folder without a folder note is a page file; a folder of drafts is none', async () => {
    const root = await tempDir('vs-garden-folders-snap-');
    const vault = path.join(root, 'vault');
    await writeFiles(vault, FILES);
    const { res, out } = buildSnapshot(root, vault, 'default');
    expect(res.status, res.stderr).toBe(0);
    const html = readFileSync(path.join(out, 'Garden/Seeds.html'), 'utf8');
    expect(html).not.toContain('<!--service:nav');
    expect(listed(html)).toEqual(['/Garden/Seeds/Alpha|Alpha seed|March 4, 2025', '/Garden/Seeds/Beta|Beta seed']);
    expect(openFolders(html)).toEqual(['Garden', 'Garden/Seeds']);
    expect(existsSync(path.join(out, 'Garden.html'))).toBe(true);
    // A host answering `/Garden/Seeds/` by the folder finds the page there too (scripts/cli/build.ts indexFolderPages).
    expect(readFileSync(path.join(out, 'Garden/Seeds/index.html'), 'utf8')).toBe(html);
    expect(existsSync(path.join(out, 'Drafts.html'))).toBe(false);
    expect(existsSync(path.join(out, 'Garden/Drafts-Only.html'))).toBe(false);
    expect(readFileSync(path.join(out, 'sitemap.xml'), 'utf8')).toMatch(/\/Garden\/Seeds<\/loc>/);
  });
});
