// spec D.2 on a real git vault: frontmatter date, then a numeric id, then the
// first creation time remembered in created.json — filled from the commit that
// first added the file — then the file's own time.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../helpers/server.ts';
import { blogForFile, git } from '../fixtures/blog/helpers.ts';

const T_ADDED = Date.UTC(2024, 0, 2, 3, 4, 5) / 1000;
const T_EDITED = Date.UTC(2025, 5, 6) / 1000;
const REMEMBERED = Date.UTC(2023, 6, 7, 8, 0, 0);
const LATER = Date.UTC(2025, 0, 1);

let startedAt: number;

const blog = blogForFile(() => {
  startedAt = Date.now();
  return {
    fixture: false,
    env: { PUBLIC_LAYOUT: 'blog' },
    files: {
      'Dated/Committed.md': '---\ntitle: Committed\npublish: true\n---\nNo date in the frontmatter.\n',
      'Dated/Frontmatter wins.md': '---\ntitle: Frontmatter wins\npublish: true\npublished: 2022-02-02\n---\nA published key.\n',
    },
    beforeStart: async (vault) => {
      git(vault, ['init', '-q', '-b', 'main']);
      git(vault, ['add', '-A']);
      git(vault, ['commit', '-q', '-m', 'first'], T_ADDED);
      await fs.appendFile(path.join(vault, 'Dated/Committed.md'), '\nEdited later.\n');
      git(vault, ['commit', '-q', '-am', 'edit'], T_EDITED);
      // Never committed: only the instance's memory knows when it was first met.
      await fs.writeFile(path.join(vault, 'Dated/Remembered.md'), '---\ntitle: Remembered\npublish: true\n---\nNot in git.\n');
      await fs.writeFile(path.join(vault, 'Dated/With id.md'), '---\ntitle: With id\npublish: true\nid: 0001700000000000\n---\nA template id.\n');
      await fs.writeFile(path.join(vault, 'Dated/Unknown.md'), '---\ntitle: Unknown\npublish: true\n---\nNothing remembered.\n');
      const data = path.join(vault, '..', 'data');
      await fs.writeFile(path.join(data, 'created.json'), JSON.stringify({ 'Dated/Remembered.md': REMEMBERED, 'Dated/Committed.md': LATER }));
    },
  };
});

async function dates(): Promise<Record<string, string>> {
  const res = await blog.admin('GET', '/api/posts');
  return Object.fromEntries(res.body.map((p: { title: string; date: string }) => [p.title, p.date]));
}

describe('spec D.2: post dates in a git vault', () => {
  it('frontmatter date keys win over everything', async () => {
    expect((await dates())['Frontmatter wins']).toBe('2022-02-02T00:00:00.000Z');
  });

  it('a numeric id (zero-padded) is the creation moment', async () => {
    expect((await dates())['With id']).toBe(new Date(1_700_000_000_000).toISOString());
  });

  it('a committed note without a date takes the time of the commit that first added it', async () => {
    expect((await dates())['Committed']).toBe(new Date(T_ADDED * 1000).toISOString());
    const article = (await blog.page('/Dated/Committed')).text;
    expect(article).toContain(`<time datetime="${new Date(T_ADDED * 1000).toISOString()}">January 2, 2024</time>`);
  });

  it('the git time fills created.json (the earlier time is kept)', async () => {
    const file = path.join(blog.data, 'created.json');
    const created = await waitFor(async () => {
      const map = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, number>;
      return map['Dated/Committed.md'] === T_ADDED * 1000 ? map : null;
    });
    expect(created!['Dated/Remembered.md']).toBe(REMEMBERED);
  });

  it('a note git never saw takes its remembered first meeting from created.json', async () => {
    expect((await dates())['Remembered']).toBe(new Date(REMEMBERED).toISOString());
  });

  it('with nothing else known, the file time', async () => {
    const ms = Date.parse((await dates())['Unknown']!);
    expect(ms).toBeGreaterThanOrEqual(startedAt - 5_000);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });

  it('a note changed by a later commit shows "Updated" with that commit\'s day, and the sitemap lastmod follows it', async () => {
    const edited = new Date(T_EDITED * 1000).toISOString();
    const article = (await blog.page('/Dated/Committed')).text;
    expect(article).toContain(`<time class="s-updated" datetime="${edited}">Updated June 6, 2025</time>`);
    expect(article).toContain(`<meta property="article:modified_time" content="${edited}">`);
    const sitemap = (await blog.page('/sitemap.xml')).text;
    expect(sitemap).toContain(`/Dated/Committed</loc><lastmod>${edited}</lastmod>`);
  });

  it('a note committed once is not "updated", even when its frontmatter date is older than the commit', async () => {
    const article = (await blog.page('/Dated/Frontmatter-wins')).text;
    expect(article).toContain('<time datetime="2022-02-02T00:00:00.000Z">');
    expect(article).not.toContain('s-updated');
    expect((await blog.page('/sitemap.xml')).text).toContain('/Dated/Frontmatter-wins</loc><lastmod>2022-02-02T00:00:00.000Z</lastmod>');
  });
});
