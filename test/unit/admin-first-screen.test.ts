// The admin app's first screen: the JavaScript its page loads before anything is clicked
// (the entry and the chunks it imports, as index.html preloads them) stays under its
// limit, and holds none of what only a rendered note needs: the note renderer brings
// sanitize-html and postcss, about 95 KB gzipped (283 KB of first screen against 183 KB).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { DIST, FIRST_SCREEN_LIMIT } from '../../admin/ui/build.ts';
import { ensureUiBuilt } from '../helpers/browser.ts';

/** The first screen's files, as index.html names them (its script and module preloads). */
function firstScreen(): string[] {
  const html = readFileSync(path.join(DIST, 'index.html'), 'utf8');
  return [...html.matchAll(/(?:src|href)="\/admin\/(assets\/[^"]+\.js)"/g)].map((m) => path.join(DIST, m[1]!));
}

/** The source files a built file was made from (its linked source map). */
const sourcesOf = (file: string): string[] => (JSON.parse(readFileSync(`${file}.map`, 'utf8')) as { sources: string[] }).sources;

describe("the admin app's first screen", () => {
  it('is under its limit gzipped, and loads the note renderer only when a note is shown rendered', { timeout: 120_000 }, async () => {
    await ensureUiBuilt();
    const files = firstScreen();
    // Positive first: the entry and the editor are there.
    expect(files.length).toBeGreaterThan(0);
    const sources = files.flatMap(sourcesOf);
    expect(sources.some((s) => s.includes('node_modules/@codemirror/view/'))).toBe(true);
    expect(sources.some((s) => s.endsWith('editor/EditorPane.tsx'))).toBe(true);
    for (const heavy of ['node_modules/sanitize-html/', 'node_modules/postcss/', 'render/RenderedNote.tsx', 'shared/note/slots.ts']) {
      expect(sources.filter((s) => s.includes(heavy)), heavy).toEqual([]);
    }
    const gzipped = files.reduce((sum, f) => sum + gzipSync(readFileSync(f), { level: 9 }).length, 0);
    expect(gzipped).toBeLessThan(FIRST_SCREEN_LIMIT);
  });
});
