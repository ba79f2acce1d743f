// One note must never take the whole site down (issue: hostile vaults). A tag or a file
// name that no file system can hold as a page (a name over 255 bytes once `.html` or
// the topic folder is added, a `..` segment) and a title with a lone surrogate from a
// YAML escape each failed the whole build (ENAMETOOLONG, "bad output path", URIError):
// every address answered 503. Now such a note or tag is left out, with a warning, and
// the rest of the site is built.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);


const post = (extra: string, body = 'Text.') => `---\npublish: true\ndate: 2026-03-01\n${extra}\n---\n${body}\n`;

it('builds the site around notes and tags whose pages cannot be files, naming them in warnings', async () => {
  const root = await tempDir('vs-hostile-names-');
  const vault = path.join(root, 'vault');
  const longName = 'x'.repeat(252) + '.md';
  await writeFiles(vault, {
    'Fine.md': post('title: A fine post\ntags: [fine]'),
    'Long tag.md': post(`tags: [${'t'.repeat(251)}, kept]`),
    'Arabic tag.md': post('title: Arabic', `An inline tag #${'ب'.repeat(126)} here.`),
    'Dots.md': post('tags: ["..", "a/../b", "c/./d"]'),
    'Surrogate.md': post('title: "\\ud800 bad"'),
    [longName]: post('title: Long file name'),
    'Escaping.md': post('permalink: ../../outside/x'),
  });
  const { res, out } = buildSnapshot(root, vault);
  expect(res.status, res.stderr).toBe(0);
  const files = ((await fs.readdir(out, { recursive: true })) as string[]).sort();
  for (const f of ['index.html', 'Fine.html', 'Long-tag.html', 'Arabic-tag.html', 'Dots.html', 'Surrogate.html', 'topic/fine.html', 'topic/kept.html']) expect(files).toContain(f);
  // The tags that cannot be pages are no topics: no file, no chip linking to one.
  expect(files.some((f) => f.startsWith('topic/ttt') || f.startsWith('topic/ببب') || f.includes('..'))).toBe(false);
  const longTagPage = await fs.readFile(path.join(out, 'Long-tag.html'), 'utf8');
  expect(longTagPage).toContain('/topic/kept');
  expect(longTagPage).not.toContain('/topic/ttt');
  // The note whose own page cannot be a file is not published, and the build says why.
  expect(files.some((f) => f.startsWith('xxxx'))).toBe(false);
  expect(res.stderr).toMatch(new RegExp(`${longName}: is not published: its address \\S+ cannot be a file`));
  // A permalink that is no address is said to be one, and the note keeps its own.
  expect(files).toContain('Escaping.html');
  expect(res.stderr).toMatch(/Escaping\.md: permalink "\.\.\/\.\.\/outside\/x" is not an address .* the note keeps \/Escaping/);
  // The surrogate is replaced, the title kept.
  expect(await fs.readFile(path.join(out, 'Surrogate.html'), 'utf8')).toContain('\uFFFD bad');
}, 120_000);

it('a note with thousands of tags carries the first 100 onto the site, with a warning; the build stays small', async () => {
  const root = await tempDir('vs-many-tags-');
  const vault = path.join(root, 'vault');
  const tags = Array.from({ length: 2_000 }, (_, i) => `t${i}`);
  await writeFiles(vault, { 'Many.md': post(`tags: [${tags.join(', ')}]`), 'Fine.md': post('tags: [t0]') });
  const { res, out } = buildSnapshot(root, vault);
  expect(res.status, res.stderr).toBe(0);
  expect(res.stderr).toMatch(/Many\.md: has 2000 tags; only the first 100 are topics on the site/);
  const topics = ((await fs.readdir(path.join(out, 'topic'))) as string[]).filter((f) => f.endsWith('.html'));
  expect(topics).toHaveLength(100);
  expect(topics).toContain('t99.html');
  expect(topics).not.toContain('t100.html');
}, 120_000);

// Each name within 255 bytes, the whole path not: a tag nested 5,000 deep made a topic page
// 10 KB long and its write stopped the build; a permalink or a folder deep enough does the
// same for a note's page or an attachment's copy.
it('builds the site around a tag, a permalink and an attachment whose paths are too long for a file, naming them', async () => {
  const root = await tempDir('vs-long-paths-');
  const vault = path.join(root, 'vault');
  const deepFolder = Array.from({ length: 9 }, (_, i) => `${i}${'f'.repeat(240)}`).join('/');
  await writeFiles(vault, {
    'Fine.md': post('title: A fine post\ntags: [fine]'),
    'Deep tag.md': post('tags: [kept]', `Nested #${Array.from({ length: 5_000 }, () => 'a').join('/')} tag.`),
    'Long permalink.md': post(`permalink: /${Array.from({ length: 12 }, () => 'p'.repeat(200)).join('/')}`),
    'Shows.md': post('title: Shows', `![[${deepFolder}/picture.svg]]`),
    [`${deepFolder}/picture.svg`]: '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>',
  });
  const { res, out } = buildSnapshot(root, vault);
  expect(res.status, res.stderr).toBe(0);
  const files = ((await fs.readdir(out, { recursive: true })) as string[]).sort();
  for (const f of ['index.html', 'Fine.html', 'Deep-tag.html', 'Shows.html', 'topic/fine.html', 'topic/kept.html']) expect(files).toContain(f);
  expect(files.some((f) => f.startsWith('topic/a/') || f.startsWith('ppp') || f.includes('picture'))).toBe(false);
  // The note whose permalink cannot be a file is not published; the picture a note shows is said to be left out.
  expect(res.stderr).toMatch(/Long permalink\.md: is not published: its address \S+ cannot be a file/);
  expect(res.stderr).toMatch(/Shows\.md: shows \S+picture\.svg, which is not published: its path is too long for a file of the site/);
}, 120_000);
