// GET /api/site/warnings (CONTRACT §13): the newest build's warnings in stable words,
// each naming its note and, where there is one, the other file; paged by 200; admin only.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/git-remotes.ts';
import { forFile, startServer, waitFor } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const post = (body: string, extra = '') => `---\npublish: true\ndate: 2026-02-01\n${extra}---\n${body}\n`;
const tags = Array.from({ length: 105 }, (_, i) => `t${i}`).join(', ');

// Twelve notes of 25 broken links each: 20 warnings and a counting line apiece, 252 in all with the rest.
const many: Record<string, string> = {};
for (let n = 0; n < 12; n++) many[`Many/N${String(n).padStart(2, '0')}.md`] = post(Array.from({ length: 25 }, (_, i) => `[[Gone ${n}-${i}]]`).join(' '));

const server = forFile(async () => {
  const base = await tempDir('vs-health-');
  const vault = path.join(base, 'vault');
  await writeFiles(vault, {
    'Home.md': post('Welcome.'),
    'Secret.md': '---\npublish: false\n---\nNot yet.\n',
    'Posts/Links.md': post('See [[Secret]] and [[Nowhere]].\n\n![[Secret]]\n\n![[lost.png]]'),
    'Posts/Old.md': '---\npublish: true\ndate: 2020-01-01\npermalink: same\n---\nOld.\n',
    'Posts/New.md': '---\npublish: true\ndate: 2025-01-01\npermalink: same\n---\nNew.\n',
    'Posts/Tagged.md': post('Many tags.', `tags: [${tags}]\n`),
    'Posts/Odd.md': post('An odd permalink.', 'permalink: a/../b\n'),
    'Posts/Lecture.md': post(Array.from({ length: 5_003 }, (_, i) => `$x_{${i}}$`).join(' ')),
    // Files a static snapshot would not copy (a page a host would run, a drawing with a script), beside two it would.
    'Posts/Files.md': post('![[Att/page.html]]\n\n![[Att/hostile.svg]]\n\n![[Att/calm.svg]]\n\n![[Att/photo.png]]'),
    'Att/page.html': '<p>hello</p>\n',
    'Att/hostile.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>\n',
    'Att/calm.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>\n',
    'Att/photo.png': 'not really a png\n',
    'Side/inner.md': 'Inside another repository.\n',
    'Guide/Target.md': post('## Install\n\nSteps. ^steps\n\n## Usage\n\nUse it.'),
    'Guide/Pointers.md': post('[[Target#Install]] [[Target#Instal]] [[#Here]]\n\n## Here\n\n![[Target#^steps]]\n\n![[Target#Usages]]'),
    ...many,
  });
  git(vault, 'init', '-q');
  git(path.join(vault, 'Side'), 'init', '-q');
  return startServer({ vault, data: path.join(base, 'data') });
});

type Page = { warnings: { path: string; kind: string; message: string; target?: string; link?: string; more?: number; [field: string]: unknown }[]; total: number; page: number; pages: number };
const page = async (n?: number) => (await server.admin<Page>('GET', `/api/site/warnings${n === undefined ? '' : `?page=${n}`}`)).body;
const all = async () => [...(await page(1)).warnings, ...(await page(2)).warnings];

describe('GET /api/site/warnings', () => {
  it('is for the admin only', async () => {
    const res = await server.api('GET', '/api/site/warnings');
    expect(res.status).toBe(401);
  });

  it('names each problem by a stable kind, its note and the other file', async () => {
    await waitFor(async () => (await page()).total > 0, 30_000);
    const list = await all();
    const of = (p: string) => list.filter((w) => w.path === p);
    expect(of('Posts/Links.md')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'unpublished_link', target: 'Secret.md', link: 'Secret' }),
        expect.objectContaining({ kind: 'missing_link', link: 'Nowhere' }),
        expect.objectContaining({ kind: 'unpublished_embed', target: 'Secret.md' }),
        expect.objectContaining({ kind: 'missing_attachment', link: 'lost.png' }),
      ]),
    );
    expect(of('Posts/New.md')).toEqual([expect.objectContaining({ kind: 'address_clash', target: 'Posts/Old.md', address: '/same' })]);
    // The figures an interface says the sentence by in its own language come as fields, beside the English message.
    expect(of('Posts/Tagged.md')).toEqual([expect.objectContaining({ kind: 'too_many_tags', message: expect.stringContaining('105 tags'), count: 105, max: 100 })]);
    expect(of('Posts/Lecture.md')).toEqual([expect.objectContaining({ kind: 'too_much_math', count: 3, max: 5_000 })]);
    expect(of('Posts/Odd.md')).toEqual([expect.objectContaining({ kind: 'bad_permalink', value: 'a/../b', address: expect.stringMatching(/^\/Posts\/Odd/) })]);
    expect(of('Side')).toEqual([expect.objectContaining({ kind: 'nested_repository' })]);
    // The server makes no snapshot, and says what one would leave out, by the note linking it.
    const leftOut = of('Posts/Files.md').filter((w) => w.kind === 'left_out_of_snapshot');
    expect(leftOut.map((w) => w.target).sort()).toEqual(['Att/hostile.svg', 'Att/page.html']);
    expect(leftOut.find((w) => w.target === 'Att/page.html')!.message).toBe(
      'links to Att/page.html, which a static snapshot would leave out: only images, audio, video, PDFs, fonts and plain text are copied; a static host could run this file as a page of the site',
    );
    expect(leftOut.find((w) => w.target === 'Att/hostile.svg')!.message).toMatch(/^links to Att\/hostile\.svg, which a static snapshot would leave out: .*script/);
    expect(leftOut.find((w) => w.target === 'Att/page.html')!.detail).toMatch(/^only images, audio, video/);
    for (const w of list) expect(w.kind).toMatch(/^[a-z]+(?:_[a-z]+)*$/);
  });

  it('gives 200 a page, the rest on the next, and counts them all', async () => {
    const first = await page();
    expect(first.warnings).toHaveLength(200);
    expect(first.pages).toBe(2);
    const second = await page(2);
    expect(second.total).toBe(first.total);
    expect(200 + second.warnings.length).toBe(first.total);
    // Each note's 21st entry counts the five links past the cap.
    expect(second.warnings.filter((w) => w.more === 5).length + first.warnings.filter((w) => w.more === 5).length).toBe(12);
    expect((await page(3)).warnings).toEqual([]);
  });

  it('refuses a page that is not a whole number from 1', async () => {
    for (const bad of ['0', '-1', 'two', '1.5', '']) {
      const res = await server.admin('GET', `/api/site/warnings?page=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('bad_page');
    }
  });

  it('names links and embeds into headings and blocks a note does not have, and follows an edit of that note', async () => {
    const anchors = async () => (await all()).filter((w) => w.path === 'Guide/Pointers.md').map((w) => [w.kind, w.link, w.variant ?? null]);
    expect(await anchors()).toEqual([
      ['missing_heading', 'Target#Usages', 'embed'],
      ['missing_heading', 'Target#Instal', null],
    ]);
    // The heading renamed and the block id changed, in one save: the note keeps its shape, and the quick pass tells.
    const edited = post('## Setup\n\nSteps. ^first\n\n## Usages\n\nUse it.');
    expect((await server.admin('PUT', '/api/note?path=Guide/Target.md', { content: edited })).status).toBe(200);
    expect(await anchors()).toEqual([
      ['missing_heading', 'Target#Instal', null],
      ['missing_heading', 'Target#Install', null],
      ['missing_block', 'Target#^steps', 'embed'],
    ]);
  });

  it('forgets a problem once it is fixed through the note API', async () => {
    const before = await all();
    expect(before.some((w) => w.kind === 'unpublished_link' && w.path === 'Posts/Links.md')).toBe(true);
    const res = await server.admin('PUT', '/api/note?path=Secret.md', { content: '---\npublish: true\n---\nNow out.\n' });
    expect(res.status).toBe(200);
    // The answer waits for the build to take in the write: no polling needed.
    const after = await all();
    expect(after.filter((w) => w.path === 'Posts/Links.md').map((w) => w.kind)).toEqual(expect.arrayContaining(['missing_link', 'missing_attachment']));
    expect(after.some((w) => w.kind === 'unpublished_link' || w.kind === 'unpublished_embed')).toBe(false);
    await fs.access(path.join(server.vault, 'Secret.md'));
  });
});

describe('the start banner', () => {
  it('prints the admin address beside the site address', () => {
    expect(server.output()).toContain(`listening on ${server.url} `);
    expect(server.output()).toContain(`\n  admin: ${server.url}/admin/\n`);
  });
});
