// CONTRACT §12 on a big vault: a garden page carries its cut of the explorer, whose size does
// not grow with the vault (the page marked, its folders open, the rest one link away), and
// the full tree is one page (/folder) rendered once, served with an ETag. A note added shows
// in other pages' explorers while their built files stay as they were: the explorer is the
// shared fragment, filled in when a page is served. The static snapshot cuts it the same way.
import { promises as fs, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { FLAT_NOTES, largeGardenFiles } from '../fixtures/garden/large-vault.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const garden = blogForFile({ fixture: false, files: largeGardenFiles(), env: { PUBLIC_LAYOUT: 'default' }, settings: { siteName: 'Big garden', homeNote: 'Home' } });

/** A page's explorer: the sidebar's, or the full explorer page's own. */
const explorerOf = (html: string) => /<nav class="s-explorer[ "][^>]*>.*?<\/nav>/s.exec(html)?.[0] ?? '';
const links = (html: string) => [...explorerOf(html).matchAll(/<a href="([^"]*)"/g)].map((m) => m[1]!);
const current = (html: string) => [...explorerOf(html).matchAll(/<a href="([^"]*)" aria-current="page"/g)].map((m) => m[1]);
const opened = (html: string) => [...explorerOf(html).matchAll(/<details data-folder="([^"]*)" open>/g)].map((m) => decodeURIComponent(m[1]!));
/** The explorer's bytes a page carries: independent of the vault's size (the whole tree here is over 100 KB). */
const EXPLORER_MAX_BYTES = 12_000;

describe('CONTRACT §12: a big vault’s explorer, page by page', () => {
  it('a note in a flat folder of 1,500: bounded, the note marked among its neighbours, its folder open', async () => {
    const html = (await garden.page('/Flat/N0700')).text;
    const explorer = explorerOf(html);
    expect(Buffer.byteLength(explorer)).toBeLessThan(EXPLORER_MAX_BYTES);
    expect(current(html)).toEqual(['/Flat/N0700']);
    expect(opened(html)).toEqual(['Flat']);
    expect(links(html)).toEqual(expect.arrayContaining(['/Flat/N0699', '/Flat/N0701', '/Reading', '/Map', '/']));
    expect(links(html)).not.toContain('/Flat/N0000');
    // What is left out: counted, one link away on the full explorer page.
    expect(explorer).toMatch(/<li class="s-explorer-more"><a href="\/folder#s-folder-Flat" data-folder="Flat">680 more<\/a><\/li>/);
    expect(explorer).toMatch(/<li class="s-explorer-more"><a href="\/folder#s-folder-Flat" data-folder="Flat">780 more<\/a><\/li>/);
    // Another folder is closed, its entries left out.
    expect(explorer).toMatch(/<details data-folder="Deep" data-partial><summary>.*?<\/summary><ul><li class="s-explorer-more"><a href="\/folder#s-folder-Deep"/);
  });

  it('a nested note: every folder above it open, the page marked, the same bound', async () => {
    const html = (await garden.page('/Deep/F1/G3/M0004')).text;
    expect(Buffer.byteLength(explorerOf(html))).toBeLessThan(EXPLORER_MAX_BYTES);
    expect(current(html)).toEqual(['/Deep/F1/G3/M0004']);
    expect(opened(html)).toEqual(['Deep', 'Deep/F1', 'Deep/F1/G3']);
    expect(links(html)).toEqual(expect.arrayContaining(['/Deep/F1/G3/M0000', '/Deep/F1/G3/M0009']));
  });

  it('the full explorer page lists every note, the base and the canvas, and answers 304 to its ETag', async () => {
    const all = await garden.page('/folder');
    expect(all.status).toBe(200);
    const listed = links(all.text);
    expect(listed.filter((l) => l.startsWith('/Flat/'))).toHaveLength(FLAT_NOTES);
    expect(listed.filter((l) => /^\/Deep\/F\d\/G\d\/M/.test(l))).toHaveLength(300);
    // Its folders (no folder notes) link their folder pages: 3 F folders of 10 G folders each, and Deep.
    expect(listed.filter((l) => /^\/Deep(?:\/F\d(?:\/G\d)?)?$/.test(l))).toHaveLength(34);
    expect(listed).toEqual(expect.arrayContaining(['/Reading', '/Map', '/']));
    // Each folder has an id the "more" links lead to; the page has no second, cut explorer.
    expect(all.text).toContain('id="s-folder-Flat"');
    expect(all.text).not.toContain('s-sidebar');
    const etag = all.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect((await garden.page('/folder', { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('a note added shows in other pages’ explorers and on the full page, their built files untouched', async () => {
    const built = await builtFile('Flat/N0700.html');
    const before = statSync(built).mtimeMs;
    await writeFiles(path.join(garden.vault, 'Flat'), { 'N0700b.md': '---\npublish: true\ntitle: Flat 0700b\n---\n\nAdded.\n' });
    const page = await garden.waitForPage('/Flat/N0700', (p) => links(p.text).includes('/Flat/N0700b'));
    expect(current(page.text)).toEqual(['/Flat/N0700']);
    expect(links((await garden.page('/folder')).text)).toContain('/Flat/N0700b');
    expect(statSync(await builtFile('Flat/N0700.html')).mtimeMs).toBe(before);
  });
});

/** A page's file in the server's live generation. */
async function builtFile(file: string): Promise<string> {
  const root = path.join(garden.data, 'public-site');
  const generations = readdirSync(root).filter((d) => d.startsWith('gen-'));
  for (const g of generations) {
    const p = path.join(root, g, file);
    if (await fs.stat(p).then(() => true, () => false)) return p;
  }
  throw new Error(`no built ${file} under ${root}`);
}

describe('CONTRACT §12: a big vault’s static snapshot', () => {
  it('cuts each page’s explorer the same way and writes the full explorer page', async () => {
    const root = await tempDir('vs-garden-large-snapshot-');
    const vault = path.join(root, 'vault');
    await writeFiles(vault, largeGardenFiles());
    const { res, out } = buildSnapshot(root, vault, 'default');
    expect(res.status, res.stderr).toBe(0);
    const html = await fs.readFile(path.join(out, 'Flat/N0700.html'), 'utf8');
    expect(Buffer.byteLength(explorerOf(html))).toBeLessThan(EXPLORER_MAX_BYTES);
    expect(current(html)).toEqual(['/Flat/N0700']);
    expect(opened(html)).toEqual(['Flat']);
    expect(explorerOf(html)).toContain('href="/folder#s-folder-Flat"');
    const all = await fs.readFile(path.join(out, 'folder.html'), 'utf8');
    expect(links(all).filter((l) => l.startsWith('/Flat/'))).toHaveLength(FLAT_NOTES);
  }, 180_000);
});
