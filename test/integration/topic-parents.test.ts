// A nested tag's parents have topic pages (spec 2.8, as Obsidian's `tag:#a` finds `#a/b`):
// `#a/b/c` in a published note, inline or in `tags:`, makes `/topic/a`, `/topic/a/b` and
// `/topic/a/b/c`. A parent lists the notes under it, each once, newest first, and its nested
// topics with their counts; a nested topic links up to the topics it nests in. Only published
// notes count: an unpublished note's tags make no page and put nothing on one.
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blogForFile, linksWithClass } from '../fixtures/blog/helpers.ts';
import { CLI_BUILD, childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const note = (date: string, front: string, body: string, publish = true) => `---\npublish: ${publish}\ndate: ${date}\n${front}---\n${body}\n`;

const FILES = {
  'Nested/Older.md': note('2025-01-01', 'title: Older nested\ntags: [parent/child]\n', 'OLDER-NESTED-TEXT, tagged in its properties.'),
  'Nested/Newer.md': note('2025-02-01', 'title: Newer nested\n', 'NEWER-NESTED-TEXT, tagged inline #parent/child and #Parent/other/deep, twice under #parent.'),
  'Nested/Private.md': note('2025-03-01', 'title: Private nested\ntags: [hidden/inner, parent/secretchild]\n', 'PRIVATE-NESTED-TEXT.', false),
};

/** The cards' titles of a list page, in order. */
const cardTitles = (html: string) => [...html.matchAll(/<h2 class="s-card-title"><a[^>]*>([^<]*)</g)].map((m) => m[1]);
const subtopics = (html: string) => [...html.matchAll(/<a class="s-chip s-subtopic" href="([^"]*)">.*?<span aria-hidden="true">([^<]*)</g)].map((m) => `${m[1]} ${m[2]}`);

const blog = blogForFile({ env: { PUBLIC_LAYOUT: 'blog' }, files: FILES });
const missing = async () => (await blog.page('/Posts/Nothing-here')).text;

describe('the topic page of a parent tag', () => {
  it('lists every published note under it once, newest first, and its nested topics with their counts', async () => {
    const page = await blog.page('/topic/parent');
    expect(page.status).toBe(200);
    expect(cardTitles(page.text)).toEqual(['Newer nested', 'Older nested']);
    expect(page.text).toContain('2 published notes');
    expect(subtopics(page.text)).toEqual(['/topic/parent/child 2', '/topic/Parent/other 1']);
    expect(page.text).toContain('>Nested topics</h2>');
    // Its own feed, as every topic's.
    expect((await blog.page('/topic/parent/feed.xml')).text).toContain('Older nested');
  });

  it('a middle tag has its page too; a nested topic links up to each topic it nests in', async () => {
    const middle = await blog.page('/topic/Parent/other');
    expect(middle.status).toBe(200);
    expect(cardTitles(middle.text)).toEqual(['Newer nested']);
    const deep = await blog.page('/topic/Parent/other/deep');
    expect(linksWithClass(deep.text, 's-topic-up')).toEqual(['/topic/parent', '/topic/Parent/other']);
    expect(deep.text).toContain('aria-label="Parent topics"');
    // A leaf has no nested topics to list.
    expect(deep.text).not.toContain('s-subtopics');
  });

  it('the topic row keeps to the tags notes carry; the search page lists the parents too', async () => {
    const row = /<ul class="s-topic-list">([\s\S]*?)<\/ul>/.exec((await blog.page('/About')).text)![1]!;
    expect(row).toContain('href="/topic/parent/child"');
    // `#parent` is written in a note; `Parent/other` only nests `Parent/other/deep`.
    expect(row).toContain('href="/topic/parent"');
    expect(row).not.toContain('href="/topic/Parent/other"');
    const listed = /<section class="s-search-topics"[\s\S]*?<\/section>/.exec((await blog.page('/search')).text)![0];
    expect(listed).toContain('href="/topic/parent"');
    expect(listed).toContain('href="/topic/Parent/other"');
  });

  it("an unpublished note's nested tags make no page and put nothing on a parent's", async () => {
    const parent = await blog.page('/topic/parent');
    expect(parent.status).toBe(200);
    expect(parent.text).not.toContain('secretchild');
    expect(parent.text).not.toContain('PRIVATE-NESTED');
    const gone = await missing();
    for (const route of ['/topic/hidden', '/topic/hidden/inner', '/topic/parent/secretchild']) {
      const page = await blog.page(route);
      expect([route, page.status]).toEqual([route, 404]);
      expect(page.text).toBe(gone);
    }
  });

  it('answers 404 once no published note uses a tag under it, and comes back with one', async () => {
    const put = (file: string, text: string) => blog.admin('PUT', `/api/note?path=${encodeURIComponent(file)}`, { content: text });
    await put('Nested/Newer.md', note('2025-02-01', 'title: Newer nested\n', 'NEWER-NESTED-TEXT, no tags now.'));
    await blog.waitForPage('/topic/Parent/other', (p) => p.status === 404);
    expect((await blog.page('/topic/Parent/other/deep')).status).toBe(404);
    expect(subtopics((await blog.page('/topic/parent')).text)).toEqual(['/topic/parent/child 1']);
    await put('Nested/Older.md', note('2025-01-01', 'title: Older nested\ntags: [parent/child]\n', 'OLDER-NESTED-TEXT.', false));
    const gone = await blog.waitForPage('/topic/parent', (p) => p.status === 404);
    expect(gone.text).toBe(await missing());
    expect((await blog.page('/topic/parent/feed.xml')).status).toBe(404);
    await put('Nested/Older.md', note('2025-01-01', 'title: Older nested\ntags: [parent/child]\n', 'OLDER-NESTED-TEXT.'));
    await blog.waitForPage('/topic/parent', (p) => p.status === 200 && p.text.includes('Older nested'));
  });
});

/** The vault above built by the command line, in `layout`, the site language `lang` and the digits of `locale`. */
async function build(layout: string, lang: string, locale = 'en') {
  const root = await tempDir('vs-topic-parents-');
  await writeFiles(path.join(root, 'vault'), FILES);
  const out = path.join(root, 'site');
  const res = spawnSync(process.execPath, [...CLI_BUILD], {
    cwd: PROJECT_DIR,
    env: childEnv({ VAULT: path.join(root, 'vault'), SERVICE_DATA: path.join(root, 'data'), SITE_OUT: out, SITE_URL: 'https://static.example', PUBLIC_LAYOUT: layout, SITE_LANG: lang, BLOG_LOCALE: locale }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  expect(res.status, res.stderr).toBe(0);
  return (file: string) => fs.readFile(path.join(out, file), 'utf8');
}

describe('in the garden layout and on an Arabic site', () => {
  it('the garden has the parent page with its notes and nested topics', async () => {
    const read = await build('default', 'en');
    const parent = await read('topic/parent.html');
    expect(cardTitles(parent)).toEqual(['Newer nested', 'Older nested']);
    expect(subtopics(parent)).toEqual(['/topic/parent/child 2', '/topic/Parent/other 1']);
    expect(linksWithClass(await read('topic/Parent/other/deep.html'), 's-topic-up')).toEqual(['/topic/parent', '/topic/Parent/other']);
  });

  it('an Arabic site names the nested and parent topics in Arabic, counts in its digits', async () => {
    const read = await build('blog', 'ar', 'ar');
    const parent = await read('topic/parent.html');
    expect(parent).toContain('>مواضيع متفرعة</h2>');
    expect(subtopics(parent)).toEqual(['/topic/parent/child ٢', '/topic/Parent/other ١']);
    expect(parent).toContain('ملاحظتان منشورتان');
    expect(await read('topic/Parent/other/deep.html')).toContain('aria-label="المواضيع الأعلى"');
  });
});
