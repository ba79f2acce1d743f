// CONTRACT §7: a vault written in Obsidian's dialect (test/fixtures/obsidian:
// one note per row, private %% cases, an unpublished note holding canary strings that
// another note embeds) publishes as Obsidian shows it. Checked on the real server's
// built pages: no raw syntax on any published page once code is set aside, and no
// canary in any public output (pages, feed, sitemap, topic pages, /api/posts, every
// file of the built site, the search index's words).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchManifest, ShardFile } from '../../shared/search/index-format.ts';
import { decodeHtml, startBlog, type BlogServer } from '../fixtures/blog/helpers.ts';
import { cleanupTempDirs, filesUnder } from '../helpers/tmp.ts';

const VAULT = path.join(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/obsidian/vault');
const CANARIES = [
  'CANARY-UNPUBLISHED-EMBED',
  'CANARY-UNPUBLISHED-SECTION',
  'CANARY-COMMENT-INLINE',
  'CANARY-COMMENT-BLOCK',
  'CANARY-COMMENT-HEADING',
  'CANARY-COMMENT-CODE',
  'CANARY-COMMENT-TAIL',
  'CANARY-SCRIPT',
  'secret-draft-tag',
];

let blog: BlogServer;
let addresses: string[];

/** The article body of a page, as HTML. */
function bodyOf(html: string): string {
  const start = html.indexOf('<div class="s-article-body"');
  const end = html.indexOf('<aside class="s-share"', start) >= 0 ? html.indexOf('<aside class="s-share"', start) : html.indexOf('</article>', start);
  return start < 0 ? '' : html.slice(start, end);
}

/** What a reader sees of a body as text, code and math set aside (they may show syntax on purpose). */
function visibleText(body: string): string {
  const text = body
    .replace(/<pre[\s\S]*?<\/pre>/g, ' ')
    .replace(/<code[\s\S]*?<\/code>/g, ' ')
    .replace(/<span class="katex-mathml">[\s\S]*?<\/math><\/span>/g, ' ')
    // Inline tags are shown as #tag on purpose: a link (or, excluded, a span) of their own.
    .replace(/<(a|span) class="tag s-inline-tag"[^>]*>[^<]*<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ');
  return decodeHtml(text);
}

const RAW_SYNTAX: [string, RegExp][] = [
  ['a highlight', /==\S/],
  ['a comment mark', /%%/],
  ['a wikilink or embed', /\[\[|\]\]/],
  ['a callout marker', /\[![\w-]+\]/],
  ['a footnote reference', /\[\^[^\]]+\]/],
  ['an inline footnote', /\^\[/],
  ['a block id', /(^|\s)\^[A-Za-z0-9-]+(?=\s|$)/],
  ['math delimiters', /\$[^$\s][^$]*\$/],
  ['a task box', /(^|\s)\[[ xX?]\](\s|$)/],
  ['an image', /!\[/],
  ['an image size', /\|\d+(x\d+)?\]/],
  ['an inline tag as text', /(^|\s)#[\p{L}][\p{L}\p{N}_/-]*/u],
];

beforeAll(async () => {
  blog = await startBlog({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', EXCLUDE_TAGS: 'hidden-inline' }, beforeStart: async (vault) => {
    await fs.cp(VAULT, vault, { recursive: true });
    // The designer's stylesheet, linked after the vault's publish.css.
    await fs.writeFile(path.join(vault, '../data/custom.css'), '.s-blog-powered { display: none; }\n');
  } });
  const sitemap = await blog.waitForPage('/sitemap.xml', (p) => p.status === 200, 60_000);
  addresses = [...sitemap.text.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => new URL(decodeHtml(m[1]!)).pathname);
}, 90_000);

afterAll(async () => {
  await blog.stop();
  await cleanupTempDirs();
});

describe('no raw syntax reaches a reader', () => {
  it('on any published page, code and math set aside', async () => {
    expect(addresses.length).toBeGreaterThan(20);
    for (const address of addresses) {
      if (address === '/') continue;
      const page = await blog.page(address);
      expect(page.status, address).toBe(200);
      const text = visibleText(bodyOf(page.text));
      for (const [what, pattern] of RAW_SYNTAX) expect(text, `${address} shows ${what}`).not.toMatch(pattern);
    }
  });

  it('in the excerpts, the meta descriptions and the feed', async () => {
    const feed = (await blog.page('/feed.xml')).text;
    const descriptions = [...feed.matchAll(/<description>([^<]*)<\/description>/g)].map((m) => decodeHtml(m[1]!));
    const home = (await blog.page('/')).text;
    const excerpts = [...home.matchAll(/<p class="s-card-excerpt">([^<]*)<\/p>/g)].map((m) => decodeHtml(m[1]!));
    const metas: string[] = [];
    for (const address of addresses) metas.push(decodeHtml(/<meta name="description" content="([^"]*)"/.exec((await blog.page(address)).text)?.[1] ?? ''));
    for (const text of [...descriptions, ...excerpts, ...metas]) {
      for (const [what, pattern] of RAW_SYNTAX) if (what !== 'math delimiters') expect(text, `"${text}" shows ${what}`).not.toMatch(pattern);
    }
    expect(excerpts).toContain('A sentence with highlighted words in it and another one.');
  });
});

describe('private text never reaches a visitor', () => {
  it('no canary in any page, the feed, the sitemap, topic pages or GET /api/posts', async () => {
    const routes = ['/', '/feed.xml', '/sitemap.xml', '/topic/inline-topic', '/topic/parent/child', ...addresses];
    for (const route of routes) {
      const text = (await blog.page(route)).text;
      for (const canary of CANARIES) expect(text, `${route} holds ${canary}`).not.toContain(canary);
    }
    // (Admin-only on this server; the same published posts either way.)
    const posts = await blog.admin('GET', '/api/posts');
    expect(posts.status).toBe(200);
    for (const canary of CANARIES) expect(posts.text).not.toContain(canary);
  });

  it('no canary in any file of the built site (whatever a later output adds)', async () => {
    const files = await filesUnder(path.join(blog.data, 'public-site'));
    expect(files.length).toBeGreaterThan(20);
    for (const file of files) {
      const text = await fs.readFile(file, 'latin1');
      for (const canary of CANARIES) expect(text, `${file} holds ${canary}`).not.toContain(canary);
    }
  });

  it('no canary among the search index’s words (its shards hold folded words, split at hyphens)', async () => {
    const manifest = JSON.parse((await blog.page('/search.json')).text) as SearchManifest;
    const terms = new Set<string>();
    for (const [, file] of manifest.shards) for (const [term] of JSON.parse((await blog.page('/' + file)).text) as ShardFile) terms.add(term);
    const delta = manifest.delta.map((d) => [d.title, d.headings, d.tags, d.text].join(' ')).join('\n');
    // The index holds the published notes' words (each canary would be indexed as `canary`, `comment`…).
    for (const word of ['highlighted', 'public', 'opening']) expect(terms.has(word) || delta.toLowerCase().includes(word), word).toBe(true);
    expect(terms.has('canary')).toBe(false);
    expect(delta).not.toMatch(/canary/i);
  });

  it('%% in code is literal, and the section after it stays a section', async () => {
    const body = bodyOf((await blog.page('/Rows/Private-comments')).text);
    expect(body).toContain('<code>%% this %%</code>');
    expect(body).toContain('Some text %% a literal comment in a code block %% more.');
    expect(body).toContain('<h2 id="after-the-code">After the code<a class="s-anchor" href="#after-the-code" aria-labelledby="s-anchor-label after-the-code"></a></h2>');
    expect(body).toContain('<p id="^after-code">This section must stay a section, not code.</p>');
  });
});

describe('each row of CONTRACT §7 on its page', () => {
  const page = async (address: string) => (await blog.page(address)).text;

  it('callouts: every type and alias, its data-callout, folding, nesting, titles with links, Arabic', async () => {
    const html = await page('/Rows/Callouts');
    for (const type of ['note', 'abstract', 'summary', 'tldr', 'info', 'todo', 'tip', 'hint', 'important', 'success', 'check', 'done', 'question', 'faq', 'help', 'warning', 'caution', 'attention', 'failure', 'fail', 'missing', 'danger', 'error', 'bug', 'example', 'quote', 'cite', 'custom-kind']) {
      expect(html, type).toMatch(new RegExp(`class="callout s-callout" data-callout="${type}"`));
    }
    expect(html).toContain('<details class="callout s-callout" data-callout="question" data-callout-fold="-">');
    expect(html).toContain('data-callout="faq" data-callout-fold="+" open>');
    expect(html).toContain('A tip with <strong>bold</strong> and a link to <a class="s-wikilink internal-link" href="/Rows/Highlights">Highlights</a>');
    expect(html.indexOf('data-callout="danger"')).toBeGreaterThan(html.indexOf('data-callout="warning"'));
    const arabic = await page('/Rows/Callouts-in-Arabic');
    expect(arabic).toMatch(/<article class="s-article" lang="ar" dir="rtl">/);
    expect(arabic).toContain('<span class="callout-title-inner" dir="auto">سؤال مطوي</span>');
  });

  it('embeds: the note, a section (down to the next heading of its level), a block, a list item; nothing of an unpublished or missing note; cycles stop', async () => {
    const body = bodyOf(await page('/Rows/Embeds'));
    expect(body).toContain('EMBED-WHOLE-OPENING');
    const section = body.slice(body.indexOf('data-embed="Embedded source#Section two"'));
    const sectionEnd = section.indexOf('</div>');
    expect(section.slice(0, sectionEnd)).toContain('EMBED-SECTION-TWO-DEEPER');
    expect(section.slice(0, sectionEnd)).not.toContain('EMBED-SECTION-THREE');
    expect(body).toMatch(/data-embed="Embedded source#\^para-id">[\s\S]*?EMBED-BLOCK-TEXT<\/p>\n<\/div>/);
    expect(body).toMatch(/data-embed="Embedded source#\^item-id">[\s\S]*?<ul>\n<li>EMBED-ITEM-TEXT second item<\/li>\n<\/ul>\n<\/div>/);
    expect(body).toContain('<p>Unpublished:</p>\n<p>Missing:</p>');
    expect(body.match(/CYCLE-A-TEXT/g)).toHaveLength(1);
    expect(body.match(/CYCLE-B-TEXT/g)).toHaveLength(1);
    // Ids stay unique on the page: the embedded heading took a free one.
    const ids = [...body.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("embeds of a note's own block and other section show on its page; of the section holding them or the whole note, nothing", async () => {
    const body = bodyOf(await page('/Rows/Self-embeds'));
    expect(body.match(/SELF-ALPHA/g)).toHaveLength(3);
    expect(body.match(/SELF-PART-B/g)).toHaveLength(1);
    expect(body).toContain('data-embed="Self embeds#^alpha"');
    expect(body).toContain('data-embed="Self embeds#Part A"');
    expect(body).not.toContain('data-embed="Self embeds#Part B"');
    expect(body).not.toContain('data-embed="Self embeds"');
    const ids = [...body.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('![[manual.pdf]] is a frame of the file the page may show: the file answers as a PDF, framable by the site alone, and a link to it', async () => {
    const pdf = await blog.page('/Rows/Pdf-embeds');
    const body = bodyOf(pdf.text);
    const frames = [...body.matchAll(/<iframe class="s-pdf-frame" src="([^"]+)" title="([^"]+)" loading="lazy"><\/iframe>/g)].map((m) => [m[1], m[2]]);
    expect(frames).toEqual([
      ['/Files/manual.pdf', 'manual.pdf'],
      ['/Files/manual.pdf#page=3', 'The manual, page 3'],
    ]);
    expect(body).toContain('<a class="s-attachment internal-link" href="/Files/manual.pdf" download>manual.pdf</a>');
    // The page's policy lets it frame its own origin (an http site too), and no other origin frame the page.
    const policy = pdf.headers.get('content-security-policy')!;
    expect(policy.split('; ').find((d) => d.startsWith('frame-src'))!.split(' ')).toContain("'self'");
    expect(policy).toContain("frame-ancestors 'self'");
    expect(blog.url.startsWith('http://')).toBe(true);
    const file = await fetch(blog.url + frames[1]![0]);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('application/pdf');
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
    // Nothing forbids framing it: no X-Frame-Options, no sandbox or frame-ancestors of its own (a PDF viewer refuses a sandbox).
    expect(file.headers.get('x-frame-options')).toBeNull();
    expect(file.headers.get('content-security-policy')).toBeNull();
    expect(file.headers.get('x-content-type-options')).toBe('nosniff');
    // A PDF only an unpublished note shows is not served.
    expect((await blog.page('/Files/unshown.pdf')).status).toBe(404);
  });

  it('block ids are hidden and become element ids; [[Note#A#B]] and [[Note#^id]] land there', async () => {
    const blocks = bodyOf(await page('/Rows/Block-ids'));
    expect(blocks).toContain('<p id="^para-one">A paragraph that can be linked to.</p>');
    expect(blocks).toContain('<li id="^item-one">an item with an id</li>');
    expect(blocks).toContain('<table id="^table-one">');
    expect(blocks).toContain('href="/Rows/Embedded-source#^para-id">the embedded paragraph</a>');
    const paths = bodyOf(await page('/Rows/Heading-paths'));
    expect(paths).toContain('href="/Rows/Embedded-source#sub"');
    expect(paths).toContain('href="/Rows/Embedded-source#deeper">deeper</a>');
    expect(paths).toContain('href="#local-heading"');
  });

  it('highlights, footnotes with back-links, task boxes, sized images', async () => {
    expect(await page('/Rows/Highlights')).toContain('<mark>highlighted words</mark>');
    const notes = await page('/Rows/Footnotes');
    expect(notes).toContain('<a href="#fn3" id="fnref3">[3]</a>');
    expect(notes).toContain('<li id="fn3" class="footnote-item"><p>Written in place. <a href="#fnref3" class="footnote-backref">');
    const tasks = await page('/Rows/Tasks');
    expect(tasks).toContain('<label class="task-list-label"><input type="checkbox" class="task-list-item-checkbox" disabled checked> a done task</label>');
    expect(tasks).toContain('<label class="task-list-label"><input type="checkbox" class="task-list-item-checkbox" disabled> an open task</label>');
    const images = await page('/Rows/Images');
    // (Its smaller copies, once made, add the original's height in proportion: image-variants tests.)
    expect(images).toContain('<img src="/pic.png" alt="pic.png" width="300" height="200" loading="lazy" decoding="async">');
    expect(images).toContain('<img src="/pic.png" alt="A picture" width="120"');
    expect((await blog.page('/pic.png')).status).toBe(200);
  });

  it('math is HTML from the server, KaTeX’s stylesheet and fonts only where math is', async () => {
    const math = await page('/Rows/Math');
    expect(bodyOf(math)).toContain('<span class="katex" dir="ltr">');
    const css = /<link rel="stylesheet" href="(\/_s\/katex\.[0-9a-f]+\.css)" data-katex>/.exec(math)?.[1];
    expect(css).toBeTruthy();
    const sheet = await blog.page(css!);
    expect(sheet.headers.get('content-type')).toMatch(/text\/css/);
    // Its fonts are named relative to it (a site under a path finds them too).
    const font = /url\((katex\/KaTeX_Main-Regular\.[0-9a-f]+\.woff2)\)/.exec(sheet.text)?.[1];
    expect(font).toBeTruthy();
    expect((await blog.page(new URL(font!, `http://site${css!}`).pathname)).status).toBe(200);
    expect(await page('/Rows/Highlights')).not.toContain('data-katex');
  });

  it('mermaid: the code stays readable; the script only on the page with a diagram', async () => {
    const diagrams = await page('/Rows/Diagrams');
    expect(diagrams).toContain('<pre class="mermaid">graph TD\n  A[Write] --&gt; B[Publish]');
    const script = /<script src="(\/_s\/mermaid\.[0-9a-f]+\.js)" defer><\/script>/.exec(diagrams)?.[1];
    expect(script).toBeTruthy();
    expect(diagrams.indexOf(script!)).toBeLessThan(diagrams.indexOf('/_s/blog.'));
    expect((await blog.page(script!)).status).toBe(200);
    expect(await page('/Rows/Math')).not.toContain('/_s/mermaid.');
  });

  it('inline tags are tags: topic pages (nested too), chips; EXCLUDE_TAGS applies to them; not in code or URLs', async () => {
    const article = await page('/Rows/Inline-tags');
    expect(article).toContain('<a class="s-chip s-tag" dir="auto" href="/topic/inline-topic">#inline-topic</a>');
    expect(article).toContain('<a class="tag s-inline-tag" dir="auto" href="/topic/parent/child">#parent/child</a>');
    expect(article).toContain('<span class="tag s-inline-tag" dir="auto">#hidden-inline</span>');
    // An excluded inline tag gets no chip and no place in the topic row, which lists the others.
    const chips = [...article.matchAll(/<a class="s-chip[^"]*"(?: dir="auto")? href="([^"]*)"/g)].map((m) => m[1]);
    expect(chips).toContain('/topic/inline-topic');
    expect(chips.filter((href) => href!.includes('hidden-inline'))).toEqual([]);
    const row = article.slice(article.indexOf('<ul class="s-topic-list">'), article.indexOf('</nav>'));
    expect(row).toContain('href="/topic/inline-topic"');
    expect(row).not.toContain('hidden-inline');
    expect(await page('/topic/inline-topic')).toContain('href="/Rows/Inline-tags"');
    expect(await page('/topic/parent/child')).toContain('href="/Rows/Inline-tags"');
    expect((await blog.page('/topic/hidden-inline')).status).toBe(404);
    for (const notATag of ['in-code', 'fragment', '2026']) expect((await blog.page(`/topic/${notATag}`)).status, notATag).toBe(404);
  });

  it('wikilinks resolve as Obsidian does: case, shortest unique path, aliases, attachments, a permalink', async () => {
    const body = bodyOf(await page('/Rows/Wikilink-targets'));
    expect(body).toContain('<a class="s-wikilink internal-link" href="/Rows/Highlights">highlights</a>');
    // Shown as written, as Obsidian shows a link without display text.
    expect(body).toContain('href="/Deep/Folder/Unique-name">Folder/Unique name</a> and <a class="s-wikilink internal-link" href="/Deep/Sub/Same">Sub/Same</a>');
    expect(body).toContain('shortest path: <a class="s-wikilink internal-link" href="/Other/Same">Same</a>');
    expect(body).toContain('By alias: <a class="s-wikilink internal-link" href="/Deep/Folder/Unique-name">Another name</a>');
    expect(body).toContain('<a class="s-attachment internal-link" href="/Files/manual.pdf">the manual</a>');
    expect((await blog.page('/Files/manual.pdf')).status).toBe(200);
    expect(body).toContain('<a class="s-wikilink internal-link" href="/guides/start-here">Permalink</a>');
  });

  it('a dot in a note’s name is part of its name: [[Node.js]] links the note, ![[Node.js]] embeds it, both count as links', async () => {
    expect(bodyOf(await page('/Rows/Wikilink-targets'))).toContain('A dot in a note’s name: <a class="s-wikilink internal-link" href="/Rows/Node.js">Node.js</a>.');
    expect(bodyOf(await page('/Rows/Embeds'))).toMatch(/<div class="s-embed markdown-embed" data-embed="Node.js">[\s\S]*?NODE-JS-NOTE-TEXT/);
    const note = await page('/Rows/Node.js');
    expect(bodyOf(note)).toContain('NODE-JS-NOTE-TEXT');
    // Related: the notes that link to it or embed it.
    const related = note.slice(note.indexOf('<section class="s-related"'));
    expect(related).toContain('href="/Rows/Wikilink-targets"');
    expect(related).toContain('href="/Rows/Embeds"');
  });

  it('cssclasses are classes of the article; a heading never takes the page’s own ids', async () => {
    expect(await page('/Rows/Css-classes')).toContain('<article class="s-article wide-page fancy"');
    const comments = await page('/Rows/Comments-heading');
    // The page's own #comments section (comments on) is tested beside a heading like this one in comments-moderation.test.ts.
    expect(comments.match(/ id="comments"/g)).toBeNull();
    expect(comments).toContain('<h2 id="comments-1">Comments<a class="s-anchor" href="#comments-1" aria-labelledby="s-anchor-label comments-1"></a></h2>');
  });

  it('permalink: the note lives there, its own address answers 301, the sitemap lists only the new one', async () => {
    expect(await page('/guides/start-here')).toContain('This note lives at its permalink.');
    const old = await blog.page('/Rows/Permalink');
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe('/guides/start-here');
    expect(addresses).toContain('/guides/start-here');
    expect(addresses).not.toContain('/Rows/Permalink');
  });

  it('raw HTML is sanitised; the renderer’s own markup beside it survives', async () => {
    const body = bodyOf(await page('/Rows/Raw-HTML'));
    expect(body).not.toMatch(/<script|alert/);
    expect(body).toContain('<details><summary>More</summary>');
    expect(body).toContain('data-callout="tip"');
  });

  it('the vault’s publish.css loads after the blog’s stylesheet and before custom.css; its favicon.png is /favicon.ico', async () => {
    const html = await page('/Rows/Highlights');
    const blogCss = html.indexOf('/_s/blog.');
    const vaultCss = html.indexOf('<link rel="stylesheet" href="/publish.css">');
    expect(vaultCss).toBeGreaterThan(blogCss);
    expect(vaultCss).toBeLessThan(html.indexOf('/custom.css'));
    const css = await blog.page('/publish.css');
    expect(css.text).toContain('--vault-publish-css');
    const icon = await fetch(blog.url + '/favicon.ico');
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer())).toEqual(await fs.readFile(path.join(VAULT, 'favicon.png')));
  });
});
