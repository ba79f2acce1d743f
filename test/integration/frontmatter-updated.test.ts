// A note's frontmatter may name its last change: Hugo's `lastmod`, the Obsidian Linter's
// `date modified`, Quartz's `updated`. The site took git's last commit (or the file's time)
// instead, so a vault committed in one go showed every note "Updated" on the commit's day.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { log } from '../../shared/log.ts';
import { git } from '../fixtures/blog/helpers.ts';
import { buildVault, type BuiltVault } from '../helpers/site-build.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

let built: BuiltVault;
const page = (name: string) => fs.readFile(path.join(built.out, `${name}.html`), 'utf8');
const NOTES = ['Lastmod', 'Linter', 'Plain'];

beforeAll(async () => {
  const files = {
    'Lastmod.md': '---\npublish: true\ndate: 2024-01-15\nlastmod: 2024-06-01\n---\nText.\n',
    'Linter.md': '---\npublish: true\ndate: 2024-01-15\ndate modified: Saturday, June 1st 2024, 10:30:00 am\n---\nText.\n',
    'Plain.md': '---\npublish: true\ndate: 2024-01-15\n---\nText.\n',
  };
  built = await buildVault('vs-fm-updated-', files, {
    useGit: true,
    // All at once, then a second commit of each note a year on: git's last change of each file.
    prepare: async (vault) => {
      git(vault, ['init', '-q']);
      git(vault, ['add', '-A']);
      git(vault, ['commit', '-qm', 'all at once'], Date.UTC(2025, 2, 3, 12) / 1000);
      for (const name of NOTES) await fs.appendFile(path.join(vault, `${name}.md`), 'More.\n');
      git(vault, ['commit', '-qam', 'later'], Date.UTC(2026, 2, 3, 12) / 1000);
    },
  });
});

describe("a last change the note's frontmatter names", () => {
  it('is its "Updated" day and its sitemap lastmod, before git\'s last commit', async () => {
    for (const name of ['Lastmod', 'Linter']) {
      const html = await page(name);
      expect(html, name).toContain('>Updated June 1, 2024</time>');
      expect(html, name).toContain('<meta property="article:modified_time" content="2024-06-01');
    }
    expect(await fs.readFile(path.join(built.out, 'sitemap.xml'), 'utf8')).toMatch(/\/Lastmod<\/loc><lastmod>2024-06-01T/);
  });

  it('without one, git\'s last commit stands', async () => {
    expect(await page('Plain')).toContain('>Updated March 3, 2026</time>');
  });
});
