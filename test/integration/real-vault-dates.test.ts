// spec D.2 on a copied vault (no dates, no git): the files' own times date the notes,
// never the moment this server first met them; notes of one moment follow their paths;
// an edit never moves a note in a list, and shows as "Updated".
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/server.ts';
import { blogForFile, linksWithClass } from '../fixtures/blog/helpers.ts';

const MARCH = Date.UTC(2021, 2, 4, 10, 0, 0);
const JANUARY = Date.UTC(2020, 0, 1, 9, 0, 0);
const undated = (text: string) => `---\npublish: true\n---\n${text}\n`;

const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog' },
  files: {
    'Guide/Install.md': undated('How to install.'),
    'Guide/Zebra.md': undated('Same moment as Alpha.'),
    'Guide/Alpha.md': undated('Same moment as Zebra.'),
  },
  // As `cp -p`, an unzip or rsync leave them: modification times from the past, birth times of today.
  beforeStart: async (vault) => {
    await fs.utimes(path.join(vault, 'Guide/Install.md'), MARCH / 1000, MARCH / 1000);
    for (const name of ['Zebra', 'Alpha']) await fs.utimes(path.join(vault, `Guide/${name}.md`), JANUARY / 1000, JANUARY / 1000);
  },
});

async function posts(): Promise<{ path: string; date: string }[]> {
  return (await blog.admin('GET', '/api/posts')).body;
}

describe('spec D.2: a copied vault without dates', () => {
  it('each note is dated by its file time, not by the day the server met it', async () => {
    const dates = Object.fromEntries((await posts()).map((p) => [p.path, p.date]));
    expect(dates['Guide/Install.md']).toBe(new Date(MARCH).toISOString());
    expect(dates['Guide/Alpha.md']).toBe(new Date(JANUARY).toISOString());
    expect((await blog.page('/Guide/Install')).text).toContain(`<time datetime="${new Date(MARCH).toISOString()}">March 4, 2021</time>`);
  });

  it('what the instance remembers on meeting a note is that file time', async () => {
    const file = path.join(blog.data, 'created.json');
    const created = await waitFor(async () => {
      const map = JSON.parse(await fs.readFile(file, 'utf8').catch(() => '{}')) as Record<string, number>;
      return Object.keys(map).length === 3 ? map : null;
    });
    expect(created).toEqual({ 'Guide/Install.md': MARCH, 'Guide/Zebra.md': JANUARY, 'Guide/Alpha.md': JANUARY });
  });

  it('notes of one moment are listed by path, and no note shows "Updated" for having been copied', async () => {
    expect(linksWithClass((await blog.page('/')).text, 's-post-link').slice(0, 3)).toEqual(['/Guide/Install', '/Guide/Alpha', '/Guide/Zebra']);
    expect((await blog.page('/Guide/Alpha')).text).not.toContain('s-updated');
  });

  it('an edit through the app keeps the date and the place in every list, and shows "Updated" with the day of the edit', async () => {
    const before = (await blog.page('/')).text;
    const loaded = await blog.admin('GET', '/api/note?path=Guide%2FAlpha.md');
    const saved = await blog.admin('PUT', '/api/note?path=Guide%2FAlpha.md', { content: '---\npublish: true\ntitle: Aardvark first\n---\nA new title that sorts first.\n', baseMtimeMs: loaded.body.mtimeMs });
    expect(saved.status).toBe(200);
    const article = await blog.waitForPage('/Guide/Alpha', (p) => p.text.includes('Aardvark first'));
    expect(article.text).toContain(`<time datetime="${new Date(JANUARY).toISOString()}">January 1, 2020</time>`);
    expect(article.text).toMatch(/<time class="s-updated" datetime="[^"]+">Updated [A-Z][a-z]+ \d+, \d{4}<\/time>/);
    expect(article.text).toContain('<meta property="article:modified_time"');
    const home = (await blog.page('/')).text;
    expect(linksWithClass(home, 's-post-link')).toEqual(linksWithClass(before, 's-post-link'));
    const day = new Date().toISOString().slice(0, 10);
    expect((await blog.page('/sitemap.xml')).text).toMatch(new RegExp(`/Guide/Alpha</loc><lastmod>${day}T`));
  });
});
