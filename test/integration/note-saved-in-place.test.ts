// Another program saves a published note in place: truncate, then write (an editor's plain
// save, a script's `>`), or move it aside, then write (an editor keeping a backup; git's
// checkout unlinks first). The builder's read could come in between and took the page down
// until the write's own event: readers met a 404 for a published note. Such a read is looked
// at again a moment later (shared/model/vault-store.ts); a note emptied or deleted for good
// still leaves the site.
import { openSync, closeSync, ftruncateSync, writeSync, renameSync, writeFileSync, truncateSync, rmSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';

const note = (body: string) => `---\ntitle: Kept\npublish: true\ndate: 2026-01-01\n---\n${body}\n`;
const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog' },
  files: { 'Posts/Kept.md': note('Version 0.'), 'Posts/Gone.md': note('Going.'), 'Posts/Emptied.md': note('Emptying.') },
});

/** Every status `address` answered while `save` ran, polled back to back, until its page shows `text`. */
async function statusesWhile(address: string, text: string, save: () => Promise<void>): Promise<Set<number>> {
  const seen = new Set<number>();
  let done = false;
  const poll = (async () => {
    while (!done) {
      const res = await fetch(`${blog.url}${address}`);
      const body = await res.text();
      seen.add(res.status);
      if (res.status === 200 && body.includes(text)) done = true;
    }
  })();
  await save();
  const deadline = setTimeout(() => (done = true), 20_000);
  await poll;
  clearTimeout(deadline);
  return seen;
}

it('a published note saved in place by another program stays served throughout', async () => {
  await blog.waitForPage('/Posts/Kept', (p) => p.status === 200);
  const file = path.join(blog.vault, 'Posts/Kept.md');
  for (let i = 1; i <= 3; i++) {
    // Truncate, a pause long enough for the builder to read the empty file, then the write.
    const truncated = await statusesWhile('/Posts/Kept', `Version ${i}.`, async () => {
      const fd = openSync(file, 'r+');
      ftruncateSync(fd, 0);
      await sleep(25);
      writeSync(fd, note(`Version ${i}.`), 0);
      closeSync(fd);
    });
    expect([...truncated]).toEqual([200]);
  }
  const moved = await statusesWhile('/Posts/Kept', 'Version 4.', async () => {
    renameSync(file, `${file}~`);
    await sleep(25);
    writeFileSync(file, note('Version 4.'));
  });
  expect([...moved]).toEqual([200]);
}, 60_000);

it('a note deleted or emptied for good leaves the site', async () => {
  await blog.waitForPage('/Posts/Gone', (p) => p.status === 200);
  await blog.waitForPage('/Posts/Emptied', (p) => p.status === 200);
  rmSync(path.join(blog.vault, 'Posts/Gone.md'));
  truncateSync(path.join(blog.vault, 'Posts/Emptied.md'), 0);
  await blog.waitForPage('/Posts/Gone', (p) => p.status === 404);
  await blog.waitForPage('/Posts/Emptied', (p) => p.status === 404);
});
