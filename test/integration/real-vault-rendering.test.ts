// What real vaults hold, rendered as Obsidian shows it: a heading that holds a wikilink,
// a link to the heading that became the title, a block id ending a list item's first line,
// two notes claiming one address, and a home note that would otherwise be read twice.
import { describe, expect, it } from 'vitest';
import { blogForFile, decodeHtml, linksWithClass } from '../fixtures/blog/helpers.ts';

const fm = (extra = '') => `---\npublish: true\n${extra}---\n`;

const files: Record<string, string> = {
  'Publish.md': fm('date: 2024-03-01\n') + 'The Publish note.\n',
  'Docs/Sites.md':
    fm('date: 2024-04-01\ntags: [docs]\n') +
    '# [[Publish|Obsidian Publish]] sites\n\nIntro with **bold**.\n\n## Setting up [[Publish]]\n\nSee [[#Obsidian Publish sites|the top]] and [[Sites#Obsidian Publish sites]] and [[#Setting up Publish]].\n\n' +
    '- step four\n- step five … ^8cdfd9\n\t![[Publish]]\n\tand more of step five\n- step six, after [[#^8cdfd9|step 5]]\n',
  'Docs/Other.md': fm('date: 2024-05-01\n') + 'Back to [[Sites#Obsidian Publish sites]] and [[Guide#Guide]].\n',
  'Guide.md': fm('date: 2024-02-01\n') + '# Guide\n\nTop: [[#Guide]].\n',
  // Two notes claim /Claimed: the older keeps it, whatever their paths' order.
  'A newer.md': fm('date: 2025-06-01\npermalink: /Claimed\n') + 'I came later.\n',
  'Claimed.md': fm('date: 2023-01-01\n') + 'I was here first.\n',
  // `permalink: /` makes a note the front page.
  'Welcome.md': fm('permalink: /\n') + '# Welcome\n\nThe front page text.\n',
};

const blog = blogForFile({ fixture: false, files, env: { PUBLIC_LAYOUT: 'blog' }, settings: { siteName: 'Real' } });

describe('a heading that holds a wikilink', () => {
  it('titles and every text made from it show the display text; the article body keeps the link', async () => {
    const page = await blog.page('/Docs/Sites');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<title>Obsidian Publish sites · Real</title>');
    expect(page.text).toMatch(/<h1 class="s-title" id="obsidian-publish-sites">Obsidian Publish sites<\/h1>/);
    expect(page.text).not.toMatch(/\[\[/);
    // The second heading is a heading with a link in it, as Obsidian shows it.
    expect(page.text).toMatch(/<h2 id="setting-up-publish">Setting up <a class="s-wikilink internal-link" href="\/Publish">Publish<\/a><a class="s-anchor" href="#setting-up-publish" aria-labelledby="s-anchor-label setting-up-publish"><\/a><\/h2>/);
    for (const route of ['/', '/topic/docs', '/feed.xml', '/Docs/Other']) {
      const other = await blog.page(route);
      expect(other.text, route).not.toContain('[[');
    }
    expect((await blog.page('/')).text).toContain('Obsidian Publish sites');
    expect((await blog.page('/feed.xml')).text).toContain('<title>Obsidian Publish sites</title>');
  });

  it('the search index holds the display text of titles and headings', async () => {
    const manifest = (await blog.page('/search.json')).text;
    const meta = JSON.parse(manifest) as { meta: string[]; shards: [string, string][] };
    const texts = await Promise.all([...meta.meta, ...meta.shards.map((s) => s[1])].map(async (f) => (await blog.page(`/${f}`)).text));
    const all = texts.join('\n');
    expect(all).toContain('Obsidian Publish sites');
    expect(all).not.toMatch(/\[\[(Publish|Obsidian)/);
  });
});

describe('a link to the heading that became the title', () => {
  it('lands on the title, which carries the id its heading would have', async () => {
    const page = await blog.page('/Docs/Sites');
    const ids = new Set([...page.text.matchAll(/\bid="([^"]+)"/g)].map((m) => decodeHtml(m[1]!)));
    const anchors = [...page.text.matchAll(/<a class="s-wikilink internal-link" href="([^"]*#[^"]+)"/g)].map((m) => decodeHtml(decodeURIComponent(m[1]!)));
    expect(anchors.length).toBeGreaterThanOrEqual(4);
    for (const href of anchors) {
      const [where, id] = href.split('#') as [string, string];
      if (where === '' || where === '/Docs/Sites') expect(ids, href).toContain(id);
    }
    // From another note, by the heading as shown.
    const other = await blog.page('/Docs/Other');
    expect(linksWithClass(other.text, 's-wikilink')).toEqual(['/Docs/Sites#obsidian-publish-sites', '/Guide#guide']);
    const guide = await blog.page('/Guide');
    expect(guide.text).toContain('<h1 class="s-title" id="guide">Guide</h1>');
    expect(linksWithClass(guide.text, 's-wikilink')).toEqual(['#guide']);
  });
});

describe('a block id ending a list item first line, with indented lines after it', () => {
  it('is hidden from the text and names the list item, so a link to it lands', async () => {
    const page = await blog.page('/Docs/Sites');
    expect(page.text).not.toContain('^8cdfd9</');
    expect(page.text).not.toMatch(/…\s*\^8cdfd9/);
    expect(page.text).toMatch(/<li id="\^8cdfd9">step five …/);
    expect(page.text).toContain('href="#^8cdfd9">step 5</a>');
  });
});

describe('two notes claiming one address', () => {
  it('the older claimant keeps it, and a warning names both notes', async () => {
    const page = await blog.page('/Claimed');
    expect(page.status).toBe(200);
    expect(page.text).toContain('I was here first.');
    expect(blog.output()).toMatch(/A newer\.md: is not published: Claimed\.md also claims the address \/Claimed, and the older note keeps it/);
    const posts = (await blog.api('GET', '/api/posts')).body as { posts?: { path: string }[] } | { path: string }[];
    const list = Array.isArray(posts) ? posts : (posts.posts ?? []);
    expect(list.map((p) => p.path)).toContain('Claimed.md');
  });
});

describe('a home note read at /', () => {
  it('`permalink: /` makes it the front page; its own address answers 301 to /, and nothing links there', async () => {
    const home = await blog.page('/');
    expect(home.text).toContain('The front page text.');
    const own = await blog.page('/Welcome');
    expect(own.status).toBe(301);
    expect(own.headers.get('location')).toBe('/');
    expect((await blog.page('/sitemap.xml')).text).not.toContain('/Welcome');
    expect(blog.output()).not.toMatch(/Welcome\.md: permalink/);
  });
});

const garden = blogForFile({
  fixture: false,
  files: { 'Start.md': fm() + '# Start here\n\nGarden front.\n', 'Notes/A.md': fm() + 'Back to [[Start]].\n' },
  env: { PUBLIC_LAYOUT: 'default', HOME_NOTE: 'Start' },
});

describe('the configured home note in the default layout', () => {
  it('is read at / only: its own address answers 301 there, and links to it lead to /', async () => {
    const home = await garden.page('/');
    expect(home.text).toContain('Garden front.');
    expect(home.text).toContain('<link rel="canonical" href="');
    const own = await garden.page('/Start');
    expect(own.status).toBe(301);
    expect(own.headers.get('location')).toBe('/');
    expect(linksWithClass((await garden.page('/Notes/A')).text, 's-wikilink')).toEqual(['/']);
  });
});
