// Bases on a built site as Obsidian shows them (obsidian-help, en/Bases), from the vaults
// a probe found differing: `parent == this` lists the host's children; an embed shows one
// view (`![[X.base#View]]` the one named); a cards view shows its cover image; a kanban
// view or an unsupported formula costs only itself; the `file.name` column is the file's name.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const note = (front: string, body: string) => `---\npublish: true\n${front}---\n${body}\n`;
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const FILES: Record<string, string> = {
  'Ravenhold.md': note('', '# Ravenhold\n\n```base\nformulas:\n  named: link(file, title)\nviews:\n  - type: table\n    name: Children\n    filters:\n      and:\n        - parent == this\n    order:\n      - file.name\n      - formula.named\n```'),
  'Drowned Chapel.md': note('parent: "[[Ravenhold]]"\ntitle: The Drowned Chapel\n', 'A chapel.'),
  'Elsewhere.md': note('', 'No parent.'),
  'Shelf.md': note('', '# Shelf\n\n![[Shelves.base]]\n\n![[Shelves.base#Covers]]'),
  'Shelves.base': 'filters:\n  and:\n    - file.inFolder("Books")\nviews:\n  - type: table\n    name: Table\n    order:\n      - file.name\n      - read\n  - type: cards\n    name: Covers\n    image: note.cover\n    imageAspectRatio: 0.5\n    order:\n      - file.name\n',
  'Books/dune-novel.md': note('read: true\ncover: "[[dune.png]]"\n', '# Dune\n\nSpice.'),
  'Books/emma.md': note('title: Emma\ncover: https://example.org/emma.jpg\n', 'Highbury.'),
  'Books/hostile.md': note('cover: "javascript:alert(1)"\n', 'Nothing to show.'),
  'Books/plain.md': note('', 'No cover.'),
  'Mixing.md': note('', '![[Mixed.base]]'),
  'Mixed.base': 'formulas:\n  age: file.mtime.relative()\n  size: file.size\nviews:\n  - type: table\n    name: Table\n    filters: file.inFolder("Books")\n    order: [file.name, formula.age]\n  - type: kanban\n    name: Board\n',
};

let out = '';
const page = (file: string) => fs.readFile(path.join(out, file), 'utf8');
const text = (html: string) => html.replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
/** Each `.s-base` block of a page: its views' classes. */
const basesOf = (html: string) => [...html.matchAll(/<div class="s-base">([\s\S]*?)\n<\/div>\n/g)].map((m) => [...m[1]!.matchAll(/<section class="s-base-view ([^"]+)">/g)].map((s) => s[1]));
const rowsOf = (html: string) => [...html.matchAll(/<tbody>([\s\S]*?)<\/tbody>/g)].flatMap((t) => [...t[1]!.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((r) => [...r[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((c) => text(c[1]!))));

beforeAll(async () => {
  const root = await tempDir('vs-bases-parity-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, FILES);
  await fs.mkdir(path.join(vault, 'Images'), { recursive: true });
  await fs.writeFile(path.join(vault, 'Images/dune.png'), PNG);
  const built = buildSnapshot(root, vault);
  expect(built.res.status, built.res.stderr).toBe(0);
  out = built.out;
}, 120_000);

describe('Bases on the built site, as Obsidian shows them', () => {
  it('`parent == this` lists the host note\'s children only, and `link(file, title)` links each by its title', async () => {
    const html = await page('Ravenhold.html');
    expect(rowsOf(html)).toEqual([['Drowned Chapel', 'The Drowned Chapel']]);
    expect(html).toMatch(/<td><a class="internal-link" href="\/Drowned(?:%20|-)Chapel">The Drowned Chapel<\/a><\/td>/);
  });

  it('an embed shows one view: the first, or the one named after `#`; the base\'s own page shows them all', async () => {
    expect(basesOf(await page('Shelf.html'))).toEqual([['s-base-view-table'], ['s-base-view-cards']]);
    expect(basesOf(await page('Shelves.html'))).toEqual([['s-base-view-table', 's-base-view-cards']]);
  });

  it('the `file.name` column is the file\'s name, not the note\'s title', async () => {
    const rows = rowsOf(await page('Shelf.html'));
    expect(rows.map((r) => r[0]).sort()).toEqual(['dune-novel', 'emma', 'hostile', 'plain']);
  });

  it('a cards view shows each card\'s cover: a vault image at its published address, an https URL as written, nothing else', async () => {
    const html = await page('Shelf.html');
    const covers = [...html.matchAll(/<li class="s-base-item">(<div class="s-base-cover[^"]*" style="([^"]*)"><img src="([^"]*)"[^>]*><\/div>)?<p class="s-base-item-title"><a [^>]*>([^<]*)</g)].map((m) => [m[4], m[3] ?? null]);
    expect(covers.sort()).toEqual([
      ['dune-novel', '/Images/dune.png'],
      ['emma', 'https://example.org/emma.jpg'],
      ['hostile', null],
      ['plain', null],
    ]);
    expect(html).toContain('style="aspect-ratio:1/0.5"');
    expect(html).not.toContain('javascript:');
    // The vault image is published where the card points.
    expect((await fs.stat(path.join(out, 'Images/dune.png'))).size).toBe(PNG.length);
  });

  it('a kanban view and an unsupported formula cost only themselves: the table is shown, its cells of that formula empty', async () => {
    const html = await page('Mixing.html');
    expect(html).not.toContain('<div class="s-base s-base-unsupported"');
    expect(rowsOf(html).map((r) => r[1])).toEqual(['', '', '', '']);
    expect(text(html)).toContain('This base uses the function relative(), which the site cannot show.');
    // An embed shows the first view only: the kanban's sentence is on the base's own page, below the table.
    expect(text(html)).not.toContain('kanban');
    const own = await page('Mixed.html');
    expect(basesOf(own)).toEqual([['s-base-view-table', 's-base-view-refused']]);
    expect(text(own)).toContain('Board This base uses the kanban view, which the site cannot show.');
    expect(rowsOf(own)).toHaveLength(4);
  });
});
