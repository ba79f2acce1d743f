// A note's frontmatter may name its last change: Hugo's `lastmod`, the Obsidian Linter's
// `date modified`, Quartz's `updated`. The site took git's last commit (or the file's time)
// instead, so a vault committed in one go showed every note "Updated" on the commit's day.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { SiteBuilder } from '../../site/build/site-builder.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

let out = '';
const page = (name: string) => fs.readFile(path.join(out, `${name}.html`), 'utf8');

beforeAll(async () => {
  const root = await tempDir('vs-fm-updated-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, {
    'Lastmod.md': '---\npublish: true\ndate: 2024-01-15\nlastmod: 2024-06-01\n---\nText.\n',
    'Linter.md': '---\npublish: true\ndate: 2024-01-15\ndate modified: Saturday, June 1st 2024, 10:30:00 am\n---\nText.\n',
    'Plain.md': '---\npublish: true\ndate: 2024-01-15\n---\nText.\n',
  });
  const git = (...args: string[]) => execFileSync('git', args, { cwd: vault, env: { ...process.env, GIT_AUTHOR_DATE: '2025-03-03T12:00:00Z', GIT_COMMITTER_DATE: '2025-03-03T12:00:00Z' } });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'add', '-A');
  git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'all at once');
  // A second commit of each note, a year on: git's last change of each file.
  for (const name of ['Lastmod', 'Linter', 'Plain']) await fs.appendFile(path.join(vault, `${name}.md`), 'More.\n');
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qam', 'later'], { cwd: vault, env: { ...process.env, GIT_AUTHOR_DATE: '2026-03-03T12:00:00Z', GIT_COMMITTER_DATE: '2026-03-03T12:00:00Z' } });
  const data = path.join(root, 'data');
  await fs.mkdir(data, { recursive: true });
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: data, PUBLIC_LAYOUT: 'blog' }, []);
  out = (await new SiteBuilder({ config, outRoot: path.join(root, 'out'), buildThread: false, useGit: true }).full()).dir;
});

describe("a last change the note's frontmatter names", () => {
  it('is its "Updated" day and its sitemap lastmod, before git\'s last commit', async () => {
    for (const name of ['Lastmod', 'Linter']) {
      const html = await page(name);
      expect(html, name).toContain('>Updated June 1, 2024</time>');
      expect(html, name).toContain('<meta property="article:modified_time" content="2024-06-01');
    }
    expect(await fs.readFile(path.join(out, 'sitemap.xml'), 'utf8')).toMatch(/\/Lastmod<\/loc><lastmod>2024-06-01T/);
  });

  it('without one, git\'s last commit stands', async () => {
    expect(await page('Plain')).toContain('>Updated March 3, 2026</time>');
  });
});
