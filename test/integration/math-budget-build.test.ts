// A note with more math than a page renders (shared/note/render-budget.ts), built by
// `vault-service build`: its page stays bounded, the rest of its formulas show as TeX, and the
// build says which note and how many, once.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_FORMULAS_PER_NOTE } from '../../shared/note/render-budget.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('a note of more formulas than a page renders', () => {
  it('builds a bounded page, its last formulas as TeX, and a warning naming the note and the count', async () => {
    const root = await tempDir('vs-math-');
    const vault = path.join(root, 'vault');
    const extra = 2_500;
    // 2.5 MB of TeX made a 277 MB page in 36 s before.
    const formulas = Array.from({ length: MAX_FORMULAS_PER_NOTE + extra }, (_, i) => `$x_{${i}}^2$`).join(' ');
    await writeFiles(vault, {
      'Lecture.md': `---\npublish: true\ndate: 2026-01-01\n---\n${formulas}\n`,
      'Other.md': '---\npublish: true\ndate: 2026-01-02\n---\nA formula: $e^{i\\pi} + 1 = 0$. The board: [[Board.canvas]].\n',
      // A canvas's text nodes share one budget: 500 of them were 500 notes' worth of math.
      'Board.canvas': JSON.stringify({
        nodes: Array.from({ length: 500 }, (_, n) => ({ id: `n${n}`, type: 'text', x: (n % 25) * 300, y: Math.floor(n / 25) * 200, width: 280, height: 180, text: Array.from({ length: 12 }, (_, i) => `$y_{${n}.${i}}$`).join(' ') })),
        edges: [],
      }),
    });
    const started = Date.now();
    const { res, out } = buildSnapshot(root, vault);
    expect(res.status, res.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(60_000);
    const page = await fs.readFile(path.join(out, 'Lecture.html'), 'utf8');
    expect(page.length).toBeLessThan(12 * 1024 * 1024);
    expect(page.match(/<code class="math-source" dir="ltr">/g)?.length).toBe(extra);
    expect(await fs.readFile(path.join(out, 'Other.html'), 'utf8')).toContain('class="katex"');
    const board = await fs.readFile(path.join(out, 'Board.html'), 'utf8');
    expect(board.match(/<span class="katex" dir="ltr">/g)?.length).toBe(MAX_FORMULAS_PER_NOTE);
    expect(board.match(/<code class="math-source" dir="ltr">/g)?.length).toBe(500 * 12 - MAX_FORMULAS_PER_NOTE);
    const said = `${res.stdout}${res.stderr}`;
    expect(said).toContain(`Lecture.md: has ${extra} formulas past the ${MAX_FORMULAS_PER_NOTE}`);
    expect(said).not.toContain('Other.md:');
  }, 90_000);
});
