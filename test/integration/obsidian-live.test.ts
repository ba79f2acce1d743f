// Obsidian's syntax on the real server, as the vault changes: embeds are part of the dependency
// graph (an edit, unpublish or rename of an embedded note re-renders exactly the pages
// that embed it), moved notes and changed permalinks leave a 301 (remembered across a
// restart, until another note takes the address), an inline tag makes its topic page.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBlog, type BlogServer } from '../fixtures/blog/helpers.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

const ENV = { PUBLIC_LAYOUT: 'blog' };
const note = (body: string, extra = '') => `---\npublish: true\ndate: 2026-06-01\n${extra}---\n${body}\n`;
const PART = (section: string) => note(`Intro of the part.\n\n## Section\n\n${section}\n\n## Other\n\nPART-OTHER-TEXT`);

let blog: BlogServer;
let restarted: TestServer | null = null;

/** The built file of a page in the live site folder (for telling whether it was written again). */
async function builtFile(file: string): Promise<string> {
  const root = path.join(blog.data, 'public-site');
  const live = (await fs.readdir(root)).filter((n) => n.startsWith('gen-'));
  expect(live).toHaveLength(1);
  return path.join(root, live[0]!, file);
}
const inode = async (file: string) => (await fs.stat(await builtFile(file))).ino;

async function expectMoved(from: string, to: string): Promise<void> {
  const answer = await blog.waitForPage(from, (p) => p.status === 301);
  expect(answer.headers.get('location')).toBe(to);
}

beforeAll(async () => {
  blog = await startBlog({
    fixture: false,
    env: ENV,
    files: {
      'Live/Host.md': note('HOST-TEXT\n\n![[Part#Section]]', 'title: Host\n'),
      'Live/Part.md': PART('PART-SECTION-ONE'),
      'Live/Unrelated.md': note('UNRELATED-TEXT', 'title: Unrelated\n'),
      'Live/Mover.md': note('MOVER-TEXT'),
      // Renames through the API rewrite these notes' own links: their text changes as they move.
      'Live/Self.md': note('SELF-TEXT\n\n## Heading\n\nSee [[Self#Heading]].'),
      'Book/One.md': note('BOOK-ONE-TEXT, then [[Book/Two]].'),
      'Book/Two.md': note('BOOK-TWO-TEXT, after [[Book/One]].'),
    },
  });
  await blog.waitForPage('/Live/Host', (p) => p.status === 200 && p.text.includes('PART-SECTION-ONE'), 60_000);
}, 90_000);

afterAll(async () => {
  await restarted?.stop();
  await blog.stop();
  await cleanupTempDirs();
});

describe('embeds are part of the dependency graph', () => {
  it('editing an embedded note re-renders the page that embeds it, and not an unrelated page', async () => {
    const before = { host: await inode('Live/Host.html'), unrelated: await inode('Live/Unrelated.html') };
    expect((await blog.admin('PUT', '/api/note?path=Live/Part.md', { content: PART('PART-SECTION-TWO') })).status).toBe(200);
    const host = await blog.waitForPage('/Live/Host', (p) => p.text.includes('PART-SECTION-TWO'));
    expect(host.text).not.toContain('PART-SECTION-ONE');
    expect(host.text).not.toContain('PART-OTHER-TEXT');
    expect(await inode('Live/Host.html')).not.toBe(before.host);
    expect(await inode('Live/Unrelated.html')).toBe(before.unrelated);
  });

  it('unpublishing the embedded note takes all of it off the embedding page', async () => {
    await blog.admin('PUT', '/api/note?path=Live/Part.md', { content: PART('PART-SECTION-PRIVATE').replace('publish: true', 'publish: false') });
    const host = await blog.waitForPage('/Live/Host', (p) => p.text.includes('HOST-TEXT') && !p.text.includes('PART-SECTION'));
    expect(host.text).not.toContain('PART-SECTION-PRIVATE');
    expect((await blog.page('/Live/Part')).status).toBe(404);
    await blog.admin('PUT', '/api/note?path=Live/Part.md', { content: PART('PART-SECTION-THREE') });
    await blog.waitForPage('/Live/Host', (p) => p.text.includes('PART-SECTION-THREE'));
  });

  it('renaming the embedded note through the API: the embed follows, the old address answers 301', async () => {
    expect((await blog.admin('POST', '/api/note/rename', { path: 'Live/Part.md', to: 'Live/Part moved.md' })).status).toBe(200);
    await blog.waitForPage('/Live/Part-moved', (p) => p.status === 200 && p.text.includes('PART-SECTION-THREE'));
    await expectMoved('/Live/Part', '/Live/Part-moved');
    // The rename and the link rewrite in Host may reach the builder in two passes: wait for both.
    await blog.waitForPage('/Live/Host', (p) => p.text.includes('PART-SECTION-THREE'));
  });

  it('renaming it on disk (no link rewrite): the embedding page shows nothing of it any more', async () => {
    await fs.rename(path.join(blog.vault, 'Live', 'Part moved.md'), path.join(blog.vault, 'Live', 'Part elsewhere.md'));
    const host = await blog.waitForPage('/Live/Host', (p) => p.text.includes('HOST-TEXT') && !p.text.includes('PART-SECTION'));
    expect(host.text).not.toContain('PART-OTHER-TEXT');
    await expectMoved('/Live/Part-moved', '/Live/Part-elsewhere');
    // The first move follows the note to where it is now.
    await expectMoved('/Live/Part', '/Live/Part-elsewhere');
  });
});

describe('what a page does not need is not published', () => {
  it('a vault without math or diagrams gets neither KaTeX’s files nor mermaid’s script', async () => {
    const assets = await fs.readdir(path.dirname(await builtFile('_s/x')));
    expect(assets.some((f) => f.startsWith('blog.'))).toBe(true);
    expect(assets.filter((f) => f.startsWith('mermaid.') || f.startsWith('katex'))).toEqual([]);
  });
});

describe('addresses that move keep working', () => {
  it('a self-linking note renamed through the API (its own link rewritten) leaves a 301', async () => {
    const res = await blog.admin('POST', '/api/note/rename', { path: 'Live/Self.md', to: 'Live/Self renamed.md' });
    expect(res.status).toBe(200);
    expect(await fs.readFile(path.join(blog.vault, 'Live', 'Self renamed.md'), 'utf8')).toContain('[[Self renamed#Heading]]');
    await blog.waitForPage('/Live/Self-renamed', (p) => p.status === 200 && p.text.includes('SELF-TEXT'));
    await expectMoved('/Live/Self', '/Live/Self-renamed');
  });

  it('a folder moved through the API, its notes linking each other by path, leaves a 301 for each', async () => {
    expect((await blog.admin('POST', '/api/note/rename', { path: 'Book', to: 'Volume' })).status).toBe(200);
    expect(await fs.readFile(path.join(blog.vault, 'Volume', 'One.md'), 'utf8')).toContain('[[Volume/Two]]');
    await blog.waitForPage('/Volume/Two', (p) => p.status === 200 && p.text.includes('BOOK-TWO-TEXT'));
    await expectMoved('/Book/One', '/Volume/One');
    await expectMoved('/Book/Two', '/Volume/Two');
  });

  it('a note moved on disk to another folder leaves a 301, remembered in the data directory', async () => {
    await fs.mkdir(path.join(blog.vault, 'Elsewhere'), { recursive: true });
    await fs.rename(path.join(blog.vault, 'Live', 'Mover.md'), path.join(blog.vault, 'Elsewhere', 'Mover.md'));
    await blog.waitForPage('/Elsewhere/Mover', (p) => p.status === 200 && p.text.includes('MOVER-TEXT'));
    await expectMoved('/Live/Mover', '/Elsewhere/Mover');
    const stored = JSON.parse(await fs.readFile(path.join(blog.data, 'redirects.json'), 'utf8'));
    expect(stored.moved['/Live/Mover']).toBe('Elsewhere/Mover.md');
    // The sitemap lists only where notes are now.
    const sitemap = (await blog.page('/sitemap.xml')).text;
    expect(sitemap).toContain('/Elsewhere/Mover</loc>');
    expect(sitemap).not.toContain('/Live/Mover</loc>');
  });

  it('a changed permalink leaves the previous one answering 301', async () => {
    await blog.admin('PUT', '/api/note?path=Live/Perma.md', { content: note('PERMA-TEXT', 'permalink: p/one\n') });
    await blog.waitForPage('/p/one', (p) => p.status === 200 && p.text.includes('PERMA-TEXT'));
    await expectMoved('/Live/Perma', '/p/one');
    await blog.admin('PUT', '/api/note?path=Live/Perma.md', { content: note('PERMA-TEXT', 'permalink: p/two\n') });
    await blog.waitForPage('/p/two', (p) => p.status === 200);
    await expectMoved('/p/one', '/p/two');
    await expectMoved('/Live/Perma', '/p/two');
  });

  it('is remembered across a restart', async () => {
    await blog.stop();
    restarted = await startServer({ vault: blog.vault, data: blog.data, env: { ...ENV, SETTINGS_MIRROR_SECONDS: '3600' } });
    const answer = await waitFor(async () => {
      const res = await fetch(restarted!.url + '/Live/Mover', { redirect: 'manual' });
      return res.status === 301 ? res : null;
    }, 30_000);
    expect(answer!.headers.get('location')).toBe('/Elsewhere/Mover');
  });

  it('until another note takes the old address', async () => {
    const server = restarted!;
    await server.admin('PUT', '/api/note?path=Live/Mover.md', { content: note('NEW-AT-THE-OLD-ADDRESS') });
    await waitFor(async () => (await (await fetch(server.url + '/Live/Mover', { redirect: 'manual' })).text()).includes('NEW-AT-THE-OLD-ADDRESS'), 15_000);
    const stored = JSON.parse(await fs.readFile(path.join(blog.data, 'redirects.json'), 'utf8'));
    expect(stored.moved['/Live/Mover']).toBeUndefined();
  });
});

describe('inline tags are tags', () => {
  it('a #tag added to the text makes its topic page appear, listing the note', async () => {
    const server = restarted!;
    await server.admin('PUT', '/api/note?path=Live/Unrelated.md', { content: note('UNRELATED-TEXT with #fresh-inline-tag now.', 'title: Unrelated\n') });
    const topic = await waitFor(async () => {
      const res = await fetch(server.url + '/topic/fresh-inline-tag');
      return res.status === 200 ? res.text() : null;
    }, 15_000);
    expect(topic).toContain('href="/Live/Unrelated"');
    const article = await (await fetch(server.url + '/Live/Unrelated')).text();
    expect(article).toContain('<a class="s-chip s-tag" dir="auto" href="/topic/fresh-inline-tag">#fresh-inline-tag</a>');
  });
});
