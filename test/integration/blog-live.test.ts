// Rebuilds on vault change: a note saved through the API or edited on disk shows
// up on its article, the lists it appears in and the feed; unpublishing, renaming
// and deleting take pages away; visitors never read a half-written page.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import Parser from 'rss-parser';
import { describe, expect, it } from 'vitest';
import { linksWithClass, blogForFile } from '../fixtures/blog/helpers.ts';

/** What a missing address answers now (the topic row on it changes as topics come and go). */
const missing = async () => (await blog.page('/Posts/Nothing-here')).text;

const note = (title: string, body: string, extra = '') => `---\ntitle: ${title}\npublish: true\ndate: 2026-06-01\ntags: [live]\n${extra}---\n${body}\n`;

const blog = blogForFile({ env: { PUBLIC_LAYOUT: 'blog' } });

describe('a save through the API', () => {
  it('reaches the article, the home page, the topic page and the feed', async () => {
    const put = await blog.admin('PUT', '/api/note?path=Live/Fresh note.md', { content: note('Fresh note', 'FRESH-TEXT-ONE is the opening.') });
    expect(put.status).toBe(200);
    await blog.waitForPage('/Live/Fresh-note', (p) => p.status === 200 && p.text.includes('FRESH-TEXT-ONE'));
    expect((await blog.page('/')).text).toContain('FRESH-TEXT-ONE');
    expect((await blog.page('/topic/live')).text).toContain('FRESH-TEXT-ONE');
    const feed = await new Parser().parseString((await blog.page('/feed.xml')).text);
    expect(feed.items[0]!.title).toBe('Fresh note');
    expect((await blog.page('/sitemap.xml')).text).toContain('/Live/Fresh-note</loc>');
    // The new topic joins the topic row on every page.
    expect((await blog.page('/About')).text).toContain('href="/topic/live"');
  });

  it('an edit replaces the text everywhere it shows', async () => {
    const put = await blog.admin('PUT', '/api/note?path=Live/Fresh note.md', { content: note('Fresh note', 'FRESH-TEXT-TWO replaced it.') });
    expect(put.status).toBe(200);
    const article = await blog.waitForPage('/Live/Fresh-note', (p) => p.text.includes('FRESH-TEXT-TWO'));
    expect(article.text).not.toContain('FRESH-TEXT-ONE');
    await blog.waitForPage('/', (p) => p.text.includes('FRESH-TEXT-TWO') && !p.text.includes('FRESH-TEXT-ONE'));
    const feed = await new Parser().parseString((await blog.waitForPage('/feed.xml', (p) => p.text.includes('FRESH-TEXT-TWO'))).text);
    const item = feed.items.find((i) => i.title === 'Fresh note');
    expect(item?.contentSnippet ?? item?.content).toContain('FRESH-TEXT-TWO');
    expect(JSON.stringify(feed.items)).not.toContain('FRESH-TEXT-ONE');
    const topic = await blog.waitForPage('/topic/live', (p) => p.text.includes('FRESH-TEXT-TWO'));
    expect(topic.text).not.toContain('FRESH-TEXT-ONE');
  });

  it('a renamed title reaches the neighbours’ previous/next links and Related', async () => {
    await blog.admin('PUT', '/api/note?path=Posts/Second.md', {
      content: '---\ntitle: Second, renamed\npublish: true\ncreated: 2026-02-10\ntags: [beta]\n---\nThe second post.\n',
    });
    await blog.waitForPage('/Posts/Third', (p) => p.text.includes('Second, renamed'));
    const first = await blog.waitForPage('/Posts/First-post', (p) => p.text.includes('Second, renamed'));
    expect(first.text).toMatch(/<section class="s-related"[^>]*>.*Second, renamed/s);
  });

  it('GET /api/posts answers from the same model as the site: a saved post is listed as soon as the save is answered', async () => {
    const put = await blog.admin('PUT', '/api/note?path=Live/Listed at once.md', { content: note('Listed at once', 'LISTED-AT-ONCE text.') });
    expect(put.status).toBe(200);
    const posts = await blog.admin('GET', '/api/posts');
    expect(posts.body.find((p: { title: string }) => p.title === 'Listed at once')).toMatchObject({ title: 'Listed at once', path: 'Live/Listed at once.md', url: '/Live/Listed-at-once' });
    // …and the site already serves what the list names.
    expect((await blog.page('/Live/Listed-at-once')).status).toBe(200);
    await blog.admin('DELETE', '/api/note?path=Live/Listed at once.md');
    expect((await blog.admin('GET', '/api/posts')).body.map((p: { title: string }) => p.title)).not.toContain('Listed at once');
  });

  it('template syntax in a note is text, never run', async () => {
    await blog.admin('PUT', '/api/note?path=Live/Braces.md', { content: note('Braces', 'Literal {{ title }} and {% if x %}tags{% endif %} stay.') });
    const page = await blog.waitForPage('/Live/Braces', (p) => p.status === 200);
    expect(page.text).toContain('Literal {{ title }} and {% if x %}tags{% endif %} stay.');
  });
});

describe('what other notes change', () => {
  it('unpublishing a linked note turns the link on the linking article into plain text', async () => {
    await blog.admin('PUT', '/api/note?path=Live/Target.md', { content: note('Target', 'The target.') });
    await blog.admin('PUT', '/api/note?path=Live/Linker.md', { content: note('Linker', 'Points at [[Target]].') });
    await blog.waitForPage('/Live/Linker', (p) => p.text.includes('<a class="s-wikilink internal-link" href="/Live/Target">Target</a>'));
    await blog.admin('PUT', '/api/note?path=Live/Target.md', { content: note('Target', 'The target.').replace('publish: true', 'publish: false') });
    const linker = await blog.waitForPage('/Live/Linker', (p) => p.text.includes('<span class="s-wikilink s-unresolved">Target</span>'));
    expect(linker.text).not.toContain('href="/Live/Target"');
  });

  it('a new label on a tag page note reaches the tag chips of every article carrying the tag', async () => {
    await blog.admin('PUT', '/api/note?path=Topics/live.md', { content: '---\ntitle: Live Wire\n---\n' });
    const article = await blog.waitForPage('/Live/Fresh-note', (p) => p.text.includes('#Live Wire'));
    expect(article.text).toContain('<a class="s-chip s-tag" dir="auto" href="/topic/live">#Live Wire</a>');
    expect((await blog.page('/')).text).toContain('#Live Wire');
  });
});

describe('taking a page away', () => {
  it('unpublishing makes the address answer exactly what a missing one answers, and empties the lists', async () => {
    await blog.admin('PUT', '/api/note?path=Live/Gone soon.md', { content: note('Gone soon', 'GONE-SOON-TEXT here.') });
    await blog.waitForPage('/Live/Gone-soon', (p) => p.status === 200);
    await blog.admin('PUT', '/api/note?path=Live/Gone soon.md', { content: note('Gone soon', 'GONE-SOON-TEXT here.').replace('publish: true', 'publish: false') });
    const gone = await blog.waitForPage('/Live/Gone-soon', (p) => p.status === 404);
    expect(gone.text).toBe(await missing());
    for (const route of ['/', '/topic/live', '/feed.xml', '/sitemap.xml']) expect((await blog.page(route)).text, route).not.toContain('GONE-SOON');
  });

  it('a rename moves the article to its new address; the old one answers 301 there (CONTRACT §7)', async () => {
    await blog.admin('PUT', '/api/note?path=Live/Old name.md', { content: note('Moving note', 'MOVING-TEXT.') });
    await blog.waitForPage('/Live/Old-name', (p) => p.status === 200);
    const moved = await blog.admin('POST', '/api/note/rename', { path: 'Live/Old name.md', to: 'Live/New name.md' });
    expect(moved.status).toBe(200);
    await blog.waitForPage('/Live/New-name', (p) => p.status === 200 && p.text.includes('MOVING-TEXT'));
    const old = await blog.waitForPage('/Live/Old-name', (p) => p.status === 301);
    expect(old.headers.get('location')).toBe('/Live/New-name');
  });

  it('a deleted note is gone; a note whose frontmatter breaks is no longer public, and the build survives', async () => {
    await blog.admin('DELETE', '/api/note?path=Live/New name.md');
    expect((await blog.waitForPage('/Live/New-name', (p) => p.status === 404)).text).toBe(await missing());
    // Its old address no longer leads anywhere either: it answers as a missing one.
    expect((await blog.waitForPage('/Live/Old-name', (p) => p.status === 404)).text).toBe(await missing());
    // The API refuses a malformed block; an editor on disk does not.
    await fs.writeFile(path.join(blog.vault, 'Live', 'Braces.md'), '---\ntitle: [broken\npublish: true\n---\nBody\n');
    await blog.waitForPage('/Live/Braces', (p) => p.status === 404);
    expect((await blog.page('/Posts/First-post')).status).toBe(200);
  });
});

describe('a change made outside the server', () => {
  it('an edit on disk (another editor, git) is picked up by the watcher', async () => {
    await fs.mkdir(path.join(blog.vault, 'Outside'), { recursive: true });
    await fs.writeFile(path.join(blog.vault, 'Outside', 'Direct.md'), note('Direct', 'DIRECT-DISK-TEXT.'));
    await blog.waitForPage('/Outside/Direct', (p) => p.status === 200 && p.text.includes('DIRECT-DISK-TEXT'));
    const topic = await blog.page('/topic/live');
    expect(linksWithClass(topic.text, 's-post-link')).toContain('/Outside/Direct');
  });
});

describe('atomic pages', () => {
  it('while a note is saved again and again, every answer is a whole page with the old or the new text', async () => {
    const route = '/Live/Fresh-note';
    let stop = false;
    const seen = new Set<string>();
    const reader = (async () => {
      while (!stop) {
        const res = await blog.page(route);
        expect(res.status).toBe(200);
        expect(res.text.trimEnd().endsWith('</html>')).toBe(true);
        const m = /ROUND-(\d+)-END/.exec(res.text);
        if (m) seen.add(m[1]!);
      }
    })();
    for (let i = 0; i < 12; i++) {
      await blog.admin('PUT', '/api/note?path=Live/Fresh note.md', { content: note('Fresh note', `ROUND-${i}-END ${'long words '.repeat(400)}`) });
      await blog.waitForPage(route, (p) => p.text.includes(`ROUND-${i}-END`));
    }
    stop = true;
    await reader;
    expect(seen.size).toBeGreaterThan(3);
  });
});
