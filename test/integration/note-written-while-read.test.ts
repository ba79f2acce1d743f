// A big note written in one write() while the live server reads the vault: the read may
// come while the write runs. What the live site ends with is what a build of the finished
// file gives: a note over 16 MB is left out, one under it shows whole. The watcher once
// took the write's end for no change (one write() sets the ctime as it begins) and the
// reader read past the size it had checked, so half a note, or one over the limit, stayed
// live (a reviewer's find; shared/vault-watcher.ts, shared/model/note-reader.ts). The race
// itself depends on the moment of a look: this checks the end state it must always reach.
import { promises as fs, writeFileSync, appendFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { waitFor } from '../helpers/server.ts';

const blog = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'blog' }, files: { 'Posts/Beta.md': '---\ntitle: Beta\npublish: true\ndate: 2026-01-01\n---\nBeta.\n' } });

// `words` words in paragraphs of 500: the size the race needs, without the cost of rendering
// hundreds of thousands of paragraphs (which made this the suite's slowest file).
const big = (title: string, words: number) =>
  `---\ntitle: ${title}\npublish: true\ndate: 2026-03-01\n---\n${`${'zebrahuge lorem ipsum '.repeat(500)}\n\n`.repeat(Math.ceil(words / 500))}ENDMARKER\n`;

it('notes written in one write while the server reads end as a build of the finished files gives them', async () => {
  await blog.waitForPage('/Posts/Beta', (p) => p.status === 200);
  const dir = path.join(blog.vault, 'Posts');
  // Over 16 MB each; the next write right after makes the builder read while the big one may still be landing.
  for (let i = 0; i < 3; i++) {
    writeFileSync(path.join(dir, `Huge${i}.md`), big(`Huge${i}`, 900_000));
    appendFileSync(path.join(dir, 'Beta.md'), `\nmore ${i}\n`);
  }
  // Under it: shown whole.
  writeFileSync(path.join(dir, 'Large.md'), big('Large', 350_000));
  appendFileSync(path.join(dir, 'Beta.md'), '\nlast\n');
  const large = await blog.waitForPage('/Posts/Large', (p) => p.status === 200 && p.text.includes('ENDMARKER'), 60_000);
  // Whole: every word (the excerpt and description hold a few more).
  expect(large.text.split('zebrahuge').length - 1).toBeGreaterThanOrEqual(350_000);
  await blog.waitForPage('/Posts/Beta', (p) => p.text.includes('last'), 30_000);
  // Every write has been seen by now (the later ones were): the over-limit notes are out.
  await waitFor(async () => {
    for (let i = 0; i < 3; i++) if ((await fetch(`${blog.url}/Posts/Huge${i}`)).status !== 404) return false;
    return true;
  }, 30_000);
  await fs.rm(path.join(dir, 'Large.md'));
}, 120_000);
