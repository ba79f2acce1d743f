// A date written with its zone (`2023-07-22T00:00:00+08:00`, as ox-hugo dates a date-only post;
// Jekyll's `2016-07-12 11:00:00 +1200`) reads as the day written, as Hugo shows it: the site
// showed the UTC day, July 21, on the article, the home page and the search results. The
// machine-readable moment stays the moment.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

let out = '';
beforeAll(async () => {
  const root = await tempDir('vs-zoned-dates-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, {
    'East.md': '---\npublish: true\ndate: 2023-07-22T00:00:00+08:00\nlastmod: 2023-07-25T23:00:00+08:00\n---\nWritten in Shanghai.\n',
    'West.md': '---\npublish: true\ndate: "2021-03-04T22:30:00-05:00"\n---\nWritten in New York.\n',
  });
  const built = buildSnapshot(root, vault);
  expect(built.res.status, built.res.stderr).toBe(0);
  out = built.out;
}, 120_000);

describe('a date written with its zone', () => {
  it('shows the day written on the article, with its moment in the datetime, and "Updated" in the same zone', async () => {
    const east = await fs.readFile(path.join(out, 'East.html'), 'utf8');
    expect(east).toMatch(/<time[^>]*datetime="2023-07-21T16:00:00\.000Z"[^>]*>July 22, 2023<\/time>/);
    expect(east).toContain('July 25, 2023');
    expect(east).not.toContain('July 21, 2023');
    const west = await fs.readFile(path.join(out, 'West.html'), 'utf8');
    expect(west).toContain('March 4, 2021');
    expect(west).not.toContain('March 5, 2021');
  });

  it('on the home page too', async () => {
    const home = await fs.readFile(path.join(out, 'index.html'), 'utf8');
    expect(home).toContain('July 22, 2023');
    expect(home).toContain('March 4, 2021');
    expect(home).not.toMatch(/July 21, 2023|March 5, 2021/);
  });
});
