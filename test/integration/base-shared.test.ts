// A base reads every published note, so the notes embedding one multiplied its work: three
// hundred notes embedding a costly base took minutes to build. A base whose expressions do
// not name `this` shows the same in every note, and is worked out once a pass; one that does
// (a note's own backlinks) is still worked out for each note showing it.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const note = (body: string) => `---\npublish: true\ndate: 2026-01-01\n---\n${body}\n`;

describe('a base embedded in many notes', () => {
  it('not naming `this`: worked out once, whatever the notes embedding it; naming it: each note its own rows', async () => {
    const root = await tempDir('vs-base-shared-');
    const vault = path.join(root, 'vault');
    // Costly by design: 450 parts of a filter, in 20 views, over every note.
    const filters = Array.from({ length: 450 }, (_, i) => `    - file.hasLink("zz${i}")`).join('\n');
    const views = Array.from({ length: 20 }, (_, v) => `  - type: table\n    name: V${v}`).join('\n');
    const files: Record<string, string> = {
      'Heavy.base': `filters:\n  or:\n${filters}\nviews:\n${views}\n`,
      'Backlinks.base': 'filters: file.hasLink(this.file)\nviews:\n  - type: list\n',
      'A.md': note('Linked from B.\n\n![[Backlinks.base]]'),
      'B.md': note('Links [[A]].\n\n![[Backlinks.base]]'),
      'C.md': note('Links [[B]] and [[A]].'),
      // Two notes of one name: a link to the other one is no backlink.
      'Projects/Index.md': note('The projects.\n\n![[Backlinks.base]]'),
      'Archive/Index.md': note('The archive.'),
      'D.md': note('Links [[Archive/Index]].'),
      'E.md': note('Links [[Projects/Index|the projects]].'),
    };
    for (let i = 0; i < 300; i++) files[`Many/N${i}.md`] = note(`Note ${i}.\n\n![[Heavy.base]]`);
    await writeFiles(vault, files);
    const started = Date.now();
    const { res, out } = buildSnapshot(root, vault);
    expect(res.status, res.stderr).toBe(0);
    // Once a pass: the base's own page and one working out for the 300 notes (minutes, once per note).
    expect(Date.now() - started).toBeLessThan(30_000);
    const shown = await fs.readFile(path.join(out, 'Many/N7.html'), 'utf8');
    expect(shown).toContain('class="s-base"');
    const rowsOf = async (page: string) => [...(await fs.readFile(path.join(out, page), 'utf8')).matchAll(/class="s-base-item-title"><a [^>]*>([^<]*)</g)].map((m) => m[1]).sort();
    expect(await rowsOf('A.html')).toEqual(['B', 'C']);
    expect(await rowsOf('B.html')).toEqual(['C']);
    expect(await rowsOf('Projects/Index.html')).toEqual(['E']);
  }, 60_000);
});
