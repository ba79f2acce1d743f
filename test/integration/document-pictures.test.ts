// A picture only a canvas shows (an image card, `![[b.png]]` in a text card) was drawn on
// the page but never published: plan.ts copies the files registered while the pages are
// planned, and a canvas was drawn later, when its page was written (a probe's find: every
// image node of a Kubernetes notes vault's canvas answered 404).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const CANVAS = JSON.stringify({
  nodes: [
    { id: 'f1', type: 'file', file: 'Images/shot.png', x: 0, y: 0, width: 300, height: 200 },
    { id: 't1', type: 'text', text: 'In a card:\n\n![[card.png]]', x: 400, y: 0, width: 300, height: 260 },
  ],
  edges: [],
});

let out = '';
beforeAll(async () => {
  const root = await tempDir('vs-document-pictures-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, { 'Board notes.md': '---\npublish: true\n---\n# Board notes\n\n![[Map.canvas]]\n', 'Map.canvas': CANVAS, 'Unshown.png': 'x' });
  await fs.mkdir(path.join(vault, 'Images'), { recursive: true });
  await fs.writeFile(path.join(vault, 'Images/shot.png'), PNG);
  await fs.writeFile(path.join(vault, 'Images/card.png'), PNG);
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
    expect((await fs.stat(path.join(out, 'Images/shot.png'))).size).toBe(PNG.length);
    expect((await fs.stat(path.join(out, 'Images/card.png'))).size).toBe(PNG.length);
    // What no page shows stays private.
    await expect(fs.stat(path.join(out, 'Unshown.png'))).rejects.toThrow();
  });
});
