// The Excalidraw plugin keeps a drawing as a note (`Drawing.excalidraw.md`: its scene as JSON,
// no `publish`), and its Auto-export writes the picture beside it (`Drawing.excalidraw.svg`).
// A published note embedding `![[Drawing.excalidraw]]` showed nothing, and said the drawing
// was not published; Obsidian shows the drawing. The page now shows the exported picture.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '../../shared/log.ts';
import type { BuildWarning } from '../../shared/model/build-warnings.ts';
import { buildVault, type BuiltVault } from '../helpers/site-build.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

const DRAWING = '---\nexcalidraw-plugin: parsed\ntags: [excalidraw]\n---\n==⚠  Switch to EXCALIDRAW VIEW ⚠==\n\n# Text Elements\nSCENE-TEXT ^abc123\n\n%%\n# Drawing\n```json\n{"type":"excalidraw"}\n```\n%%\n';
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><rect width="100" height="50" fill="red"/></svg>';

let built: BuiltVault;
let warnings: BuildWarning[] = [];

beforeAll(async () => {
  built = await buildVault('vs-excalidraw-', {
    'Drawings/Plan.excalidraw.md': DRAWING,
    'Drawings/Plan.excalidraw.svg': SVG,
    'Drawings/Sketch.excalidraw.md': DRAWING,
    'Drawings/Shown.excalidraw.md': DRAWING.replace('excalidraw-plugin: parsed', 'excalidraw-plugin: parsed\npublish: true'),
    'Drawings/Shown.excalidraw.svg': SVG,
    'Drawings/Bare.excalidraw.md': DRAWING.replace('excalidraw-plugin: parsed', 'excalidraw-plugin: parsed\npublish: true'),
    'Post.md': '---\npublish: true\ndate: 2024-03-01\n---\nEMBED ![[Plan.excalidraw]] END\n\nSIZED ![[Plan.excalidraw|300]] END\n\nLINK [[Plan.excalidraw]] END\n\nNONE ![[Sketch.excalidraw]] END\n\nGHOST ![[Ghost.excalidraw]] END\n',
  });
  warnings = built.builder.warnings();
});

describe('an Excalidraw drawing embedded in a published note', () => {
  it('shows the picture the plugin exported beside it, by the drawing’s name; a link leads to the picture', async () => {
    const html = await built.body('Post');
    expect(html).toMatch(/EMBED <img src="\/Drawings\/Plan\.excalidraw\.svg" alt="Plan"[^>]*> END/);
    expect(html).toMatch(/SIZED <img src="\/Drawings\/Plan\.excalidraw\.svg" alt="Plan" width="300"[^>]*> END/);
    expect(html).toContain('LINK <a class="s-attachment internal-link" href="/Drawings/Plan.excalidraw.svg">Plan</a> END');
    await expect(fs.readFile(path.join(built.out, 'Drawings', 'Plan.excalidraw.svg'), 'utf8')).resolves.toBe(SVG);
    // The drawing's note (its scene) is no page.
    expect(html).not.toContain('SCENE-TEXT');
    await expect(fs.access(path.join(built.out, 'Drawings', 'Plan.excalidraw.html'))).rejects.toThrow();
  });

  it('without an exported picture shows nothing, and Site health says how to make one', () => {
    const post = warnings.filter((w) => w.note === 'Post.md');
    // A drawing with no note either is missing, not unexported.
    expect(post.map((w) => [w.note, w.kind, w.variant, w.link])).toEqual([
      ['Post.md', 'missing-attachment', undefined, 'Ghost.excalidraw'],
      ['Post.md', 'missing-attachment', 'drawing', 'Sketch.excalidraw'],
    ]);
    expect(post[1]!.message).toContain('turn on the plugin\'s Auto-export SVG');
    expect(post[0]!.message).toBe('shows or links Ghost.excalidraw, which is not in the vault');
  });
});

describe('a drawing’s own note, published', () => {
  it('is a page named as the plugin names the drawing, showing its exported picture, not the scene the plugin keeps as text', async () => {
    const html = await fs.readFile(path.join(built.out, 'Drawings', 'Shown.excalidraw.html'), 'utf8');
    expect(html).toContain('<h1 class="s-title">Shown</h1>');
    expect(html).toContain('<title>Shown');
    expect(html).toMatch(/<img src="\/Drawings\/Shown\.excalidraw\.svg" alt="Shown"/);
    expect(html).not.toContain('SCENE-TEXT');
    expect(html).not.toContain('Switch to EXCALIDRAW VIEW');
    // A page of a picture alone says nothing of words or reading time.
    expect(html).not.toContain('class="s-words"');
  });

  it('without an exported picture, Site health names it and says how to make one', () => {
    expect(warnings.filter((w) => w.note === 'Drawings/Bare.excalidraw.md').map((w) => [w.kind, w.variant])).toEqual([['missing-attachment', 'drawing']]);
  });
});
