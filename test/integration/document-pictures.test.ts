// A picture only a canvas shows (an image card, `![[b.png]]` in a text card) was drawn on
// the page but never published: plan.ts copies the files registered while the pages are
// planned, and a canvas was drawn later, when its page was written (a probe's find: every
// image node of a Kubernetes notes vault's canvas answered 404). Once published, a card's
// picture promised its smaller copies (a webp srcset) that no one made: only a note's own embeds
// had them planned.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBlog, type BlogServer } from '../fixtures/blog/helpers.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#4a7' } }).png().toBuffer();
let sizes: Record<string, number> = {};
const CANVAS = JSON.stringify({
  nodes: [
    { id: 'f1', type: 'file', file: 'Images/shot.png', x: 0, y: 0, width: 300, height: 200 },
    { id: 't1', type: 'text', text: 'In a card:\n\n![[card.png]]', x: 400, y: 0, width: 300, height: 260 },
    { id: 'g1', type: 'group', label: 'Backdrop', x: -20, y: -60, width: 760, height: 380, background: "Images/it's bg.png", backgroundStyle: 'ratio' },
  ],
  edges: [],
});

let out = '';
beforeAll(async () => {
  const root = await tempDir('vs-document-pictures-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, { 'Board notes.md': '---\npublish: true\n---\n# Board notes\n\n![[Map.canvas]]\n', 'Map.canvas': CANVAS, 'Unshown.png': 'x' });
  await fs.mkdir(path.join(vault, 'Images'), { recursive: true });
  const [shot, card] = await Promise.all([png(900, 600), png(700, 420)]);
  await fs.writeFile(path.join(vault, 'Images/shot.png'), shot);
  await fs.writeFile(path.join(vault, 'Images/card.png'), card);
  await fs.writeFile(path.join(vault, "Images/it's bg.png"), card);
  sizes = { shot: shot.length, card: card.length };
  const built = buildSnapshot(root, vault);
  expect(built.res.status, built.res.stderr).toBe(0);
  out = built.out;
}, 120_000);

describe('the pictures a canvas shows are published', () => {
  it('an image card and an image a text card embeds, on the canvas\'s page and in the note embedding it', async () => {
    for (const page of ['Map.html', 'Board-notes.html']) {
      const html = await fs.readFile(path.join(out, page), 'utf8');
      expect(html, page).toContain('src="/Images/shot.png"');
      expect(html, page).toMatch(/src="\/Images\/card\.png"/);
    }
    expect((await fs.stat(path.join(out, 'Images/shot.png'))).size).toBe(sizes.shot);
    expect((await fs.stat(path.join(out, 'Images/card.png'))).size).toBe(sizes.card);
    // A group's background (JSON Canvas 1.0 `background`, `backgroundStyle`), published too.
    const map = await fs.readFile(path.join(out, 'Map.html'), 'utf8');
    expect(map).toMatch(/<div class="s-canvas-node s-canvas-group" style="[^"]*background-image:url\(&quot;\/Images\/it's%20bg\.png&quot;\);background-position:center;background-size:contain;[^"]*" data-node="g1">/);
    expect((await fs.stat(path.join(out, "Images/it's bg.png"))).size).toBe(sizes.card);
    // What no page shows stays private.
    await expect(fs.stat(path.join(out, 'Unshown.png'))).rejects.toThrow();
  });
});

describe('the smaller copies a canvas\'s picture promises, on the running server', () => {
  let blog: BlogServer | null = null;
  beforeAll(async () => {
    const [shot, card] = await Promise.all([png(900, 600), png(700, 420)]);
    blog = await startBlog({
      fixture: false,
      files: {
        'Shelf.md': '---\npublish: true\n---\n# Shelf\n\n![[Shelves.base]]\n\n![[Map.canvas]]\n',
        'Shelves.base': 'filters: file.inFolder("Books")\nviews:\n  - type: cards\n    name: Covers\n    image: note.cover\n',
        'Books/Dune.md': '---\npublish: true\ncover: "[[dune.png]]"\n---\nSpice.\n',
        'Map.canvas': CANVAS,
      },
      beforeStart: async (vault) => {
        await fs.mkdir(path.join(vault, 'Images'), { recursive: true });
        await fs.writeFile(path.join(vault, 'Images/shot.png'), shot);
        await fs.writeFile(path.join(vault, 'Images/card.png'), card);
        await fs.writeFile(path.join(vault, 'Images/dune.png'), shot);
      },
    });
  }, 120_000);
  afterAll(() => blog?.stop());

  it('are served: once the pages show them, every address in a srcset answers', async () => {
    // The pictures' copies are made after the first build; the pages then show them.
    const page = await blog!.waitForPage('/Shelf', (p) => p.status === 200 && p.text.includes('srcset='), 20_000);
    const promised = [...page.text.matchAll(/srcset="([^"]*)"/g)].flatMap((m) => m[1]!.split(',').map((c) => c.trim().split(/\s+/)[0]!));
    expect(promised.length).toBeGreaterThan(0);
    for (const url of promised) expect((await blog!.page(url)).status, url).toBe(200);
  }, 40_000);
});
