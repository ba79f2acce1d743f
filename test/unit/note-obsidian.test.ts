// CONTRACT §7, one rule at a time: Obsidian's syntax through the one renderer, and
// the plain text every derived output is made from.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { publicMarkdown } from '../../shared/note/comments.ts';
import { countWords, excerptOf } from '../../shared/note/excerpt.ts';
import { renderEmbedHtml, renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { findHeading, RESERVED_IDS } from '../../shared/note/obsidian/headings.ts';
import { publicText } from '../../shared/note/public-text.ts';
import { parseWikiRef } from '../../shared/wikilinks.ts';
import { seeded } from '../helpers/seeded.ts';

const links: RenderLinks = {
  note: (t) =>
    ['other', 'deep'].includes(t.toLowerCase())
      ? { href: `/${t}`, title: t, headings: [{ level: 1, text: 'A', id: 'a' }, { level: 2, text: 'B', id: 'b-1' }] }
      : null,
  attachment: (t) => (['pic.png', 'file.pdf', 'Files/doc.pdf'].includes(t) ? `/${t}` : null),
  tag: (t) => (t === 'private' ? null : `/topic/${t}`),
};
const render = (body: string) => renderNoteHtml(body, 'Title', links);

describe('%% comments %% are private (the parser decides what is code)', () => {
  it('inline and spanning lines, removed', () => {
    expect(render('Public %% secret %% words.')).toBe('<p>Public  words.</p>\n');
    const html = render('Before.\n\n%%\nSECRET one\n\n## SECRET heading\n\nSECRET two\n%%\n\nAfter.');
    expect(html).not.toContain('SECRET');
    expect(html).toContain('<p>Before.</p>');
    expect(html).toContain('<p>After.</p>');
  });
  it('literal inside code spans, code blocks and math', () => {
    expect(render('Use `%%` to comment.')).toContain('<code>%%</code> to comment.');
    const html = render('```\nx %% y\n```\n\nText `a %% b` and %% gone %% kept.');
    expect(html).toContain('x %% y');
    expect(html).toContain('<code>a %% b</code> and  kept.');
    expect(html).not.toContain('gone');
  });
  it('literal inside indented code in a quote or a list item: the rest of the note stays', () => {
    const quoted = render('> Example:\n>\n>     x = 1 %% a cell\n\nThe rest of the note.\n');
    expect(quoted).toContain('x = 1 %% a cell');
    expect(quoted).toContain('<p>The rest of the note.</p>');
    expect(render('-     a %% b\n\nRest.\n')).toContain('<p>Rest.</p>');
  });
  it('a note that needs no parse to tell reads as the parser reads it', () => {
    // Quote and list markers, tabs and spaces, words and `%%`: without a backtick, a `$` or a
    // fence the parse is skipped when no line may be indented code. A paragraph of code added
    // after the note makes the parse run and changes nothing before it.
    const next = seeded(5);
    const random = () => next(1000) / 1000;
    const pick = (xs: string[]) => xs[next(xs.length)]!;
    const PREFIX = ['', '', '>', '> ', '- ', '-', '* ', '+\t', '1. ', '2) ', '  ', '>>', '- > ', '\t- '];
    const GAP = ['', ' ', '  ', '   ', '    ', '     ', '\t', ' \t', '\t\t', '   \t'];
    const parsed = '\n\n`x`\n';
    const wrong: string[] = [];
    for (let k = 0; k < 2000; k++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 5) }, () => (random() < 0.2 ? '' : pick(PREFIX) + pick(PREFIX) + pick(GAP) + pick(['a %% b', '%% c', 'd %%', 'e'])));
      const body = lines.join('\n');
      const alone = publicMarkdown(body);
      const withParse = publicMarkdown(body + parsed);
      if (withParse !== alone + parsed && withParse !== alone) wrong.push(JSON.stringify(body));
    }
    expect(wrong.slice(0, 5)).toEqual([]);
  });
  it('the issue’s case: `%%` in code never opens a comment that eats a following section', () => {
    const body = '## Comments\n\nWrite `%%` around text.\n\n```md\n%% hidden %%\n```\n\n## Next section\n\nStill here.';
    const html = render(body);
    expect(html).toContain('<h2 id="next-section">Next section<a class="s-anchor" href="#next-section" aria-labelledby="s-anchor-label next-section"></a></h2>');
    expect(html).toContain('<p>Still here.</p>');
    expect(html).toContain('%% hidden %%');
  });
  it('an unclosed comment hides everything after it', () => {
    expect(publicMarkdown('Shown %% hidden\n\nhidden too')).toBe('Shown ');
  });
  it('a comment around a code block hides the code block too', () => {
    expect(render('A\n\n%%\n```\nSECRET\n```\n%%\n\nB')).not.toContain('SECRET');
  });
  it('comments inside raw HTML, link text, callouts and footnotes are removed as well', () => {
    const html = render('<div>%% SECRET1 %%open</div>\n\n[text %% SECRET2 %%](https://x.y)\n\n> [!note] T %% SECRET3 %%\n> b\n\nN^[inline %% SECRET4 %%]\n');
    expect(html).not.toMatch(/SECRET/);
  });
  it('never reaches the excerpt, the word count or the plain text', () => {
    const body = 'Opening %% SECRET %% words.\n\n%%\nSECRET block\n%%';
    expect(excerptOf(body)).toBe('Opening words.');
    expect(countWords(body)).toBe(2);
    expect(publicText(body)).not.toContain('SECRET');
  });
});

describe('highlights, footnotes, tasks, math, diagrams', () => {
  it('==text== is <mark>', () => {
    expect(render('A ==highlight== here')).toBe('<p>A <mark>highlight</mark> here</p>\n');
  });
  it('[^1] and ^[inline] are numbered footnotes with back-links', () => {
    const html = render('One[^1] two^[inline note].\n\n[^1]: The first.');
    expect(html).toContain('<sup class="footnote-ref"><a href="#fn1" id="fnref1">[1]</a></sup>');
    expect(html).toContain('<li id="fn2" class="footnote-item"><p>inline note <a href="#fnref2" class="footnote-backref">');
  });
  it('- [ ] and - [x] are disabled checkboxes, each labelled by its task; other statuses keep their character', () => {
    const html = render('- [ ] open [[Link]]\n- [x] done\n- [?] asked\n  - [ ] nested');
    expect(html).toMatch(/<li class="task-list-item" data-task=" "><label class="task-list-label"><input type="checkbox" class="task-list-item-checkbox" disabled> open <(a|span) [^>]*>Link<\/\1><\/label><\/li>/);
    expect(html).toContain('data-task="x"><label class="task-list-label"><input type="checkbox" class="task-list-item-checkbox" disabled checked> done</label>');
    // The label holds the item's own line, not the list nested under it.
    expect(html).toMatch(/data-task="\?"><label class="task-list-label"><input [^>]*> asked<\/label>\n?<ul/);
    expect(html).toContain('data-task="?"');
    expect(html).not.toContain('[x]');
  });
  it('$…$ and $$…$$ are rendered to HTML on the server; \\\\ stays a line break of the math', () => {
    const html = render('Inline $E=mc^2$.\n\n$$\na \\\\ b\n$$');
    expect(html).toContain('class="katex"');
    expect(html).toContain('<annotation encoding="application/x-tex">a \\\\ b');
    expect(render('Text $$x^2$$ inline.')).toMatch(/^<p>Text <span class="katex-block"><span class="katex-display">/);
    expect(html).not.toContain('$');
    expect(html).not.toMatch(/<br>/);
  });
  it('a $ opens a formula only before a non-space and closes it only after one, before no digit, as Obsidian reads it: prices in prose stay text', () => {
    const formulas = (text: string) => [...render(text).matchAll(/<annotation encoding="application\/x-tex">([^<]*)</g)].map((m) => m[1]);
    expect(formulas('under $100-make offers over | $— | canton')).toEqual([]);
    expect(formulas('$ x $ and $x $ and $ x$')).toEqual([]);
    expect(formulas('costs $5 and $10, or $20')).toEqual([]);
    expect(formulas('US$5 and 10$ then $x$')).toEqual(['x']);
    expect(formulas('$a$, $b = c$ and \\$not$')).toEqual(['a', 'b = c']);
  });
  it('align, gather and equation are not numbered, as Obsidian shows them', () => {
    for (const env of ['align', 'gather', 'equation']) {
      const html = render(`$$\\begin{${env}} a = b \\end{${env}}$$`);
      expect(html, env).toContain('class="katex-display"');
      expect(html, env).not.toContain('eqn-num');
    }
  });
  // A course vault's `$$F=\{A\to B\}$$ lo schema non è in 3NF…` ran on to the next `$$`: a list and two callouts became red TeX.
  it('a line opening with `$$x$$` and going on is a paragraph with display math; what follows is the note again', () => {
    const html = render('$$F=\\{A\\to B\\}$$ so the schema is not in 3NF.\n\n- item one\n\n> [!note] A callout\n> text\n\nLater: $$x^2$$ and $$y$$');
    expect(html).not.toContain('katex-error');
    expect(html).toMatch(/^<p><span class="katex-block">.*<\/span> so the schema is not in 3NF\.<\/p>\n<ul>\n<li>item one<\/li>/);
    expect(html).toContain('<span class="callout-title-inner">A callout</span>');
    expect([...html.matchAll(/<annotation encoding="application\/x-tex">([^<]*)</g)].map((m) => m[1])).toEqual(['F=\\{A\\to B\\}', 'x^2', 'y']);
    // A block is still a block: `$$x$$` alone on its line, and `$$` lines around a formula.
    expect(render('$$x$$')).toMatch(/^<p class="katex-block">/);
    expect(render('$$\na\n$$\n\nafter')).toMatch(/^<p class="katex-block">.*<\/p>\n<p>after<\/p>\n$/s);
  });
  it("MathJax's flalign, multline, eqnarray and xalignat are typeset, as Obsidian shows them, not shown as errors", () => {
    for (const tex of ['\\begin{flalign}&a=b&&\\end{flalign}', '\\begin{multline*} a+b \\\\ =c \\end{multline*}', '\\begin{eqnarray} a &=& b \\\\ c &=& d \\end{eqnarray}', '\\begin{xalignat}{2} a&=b & c&=d \\end{xalignat}']) {
      const html = render(`$$\n${tex}\n$$`);
      expect(html, tex).toContain('class="katex-display"');
      expect(html, tex).not.toContain('katex-error');
    }
  });
  it('```mermaid stays readable code for the diagram script', () => {
    expect(render('```mermaid\ngraph TD; A-->B\n```')).toBe('<pre class="mermaid">graph TD; A--&gt;B\n</pre>\n');
  });
});

describe('callouts', () => {
  // A personal vault's `>[!abstract] Related` over `>- ` showed `<h2>[!abstract] Related</h2>`.
  it('a title line over `-`, `---` or `===` is a title, as Obsidian reads the lines under it: an empty item, a rule, a line of text', () => {
    const body = (text: string) => render(text).replace(/^[^]*?<div class="callout-content">\n|<\/div>\n<\/div>\n$/g, '');
    expect(render('>[!abstract] Related\n>- ')).toContain('<span class="callout-title-inner">Related</span>');
    expect(body('>[!abstract] Related\n>- ')).toBe('<ul>\n<li></li>\n</ul>\n');
    expect(body('> [!note] Title\n> ---\n> body')).toBe('<hr>\n<p>body</p>\n');
    expect(body('> [!tip] T\n> ===')).toBe('<p>===</p>\n');
    // Lines under the title over an underline are a heading of their own, as in Obsidian.
    expect(body('> [!note] A\n> second line\n> -')).toMatch(/^<h2 id="second-line">second line/);
    expect(render('> plain\n> -')).toMatch(/^<blockquote>\n<h2 id="plain">/);
  });
  // A TTRPG vault's DM screen: `> [!Combat Quick Reference]-` showed as a quote with its marker.
  it('any type is a callout, as in Obsidian: spaces, punctuation; spaces read as hyphens in data-callout', () => {
    expect(render('> [!Combat Quick Reference]- Folded\n> body')).toMatch(/^<details class="callout s-callout" data-callout="combat-quick-reference" data-callout-fold="-">\n.*Folded<\/span>/s);
    expect(render('> [!Nota:] x')).toContain('data-callout="nota:"');
    expect(render('> [!] not a callout')).toMatch(/^<blockquote>/);
  });
  it('carry data-callout (lowercased), a title with inline Markdown and links, and their body', () => {
    const html = render('> [!WARNING] Mind **this** [[Other]]\n> Body text.');
    expect(html).toContain('<div class="callout s-callout" data-callout="warning">');
    expect(html).toContain('<span class="callout-title-inner">Mind <strong>this</strong> <a class="s-wikilink internal-link" href="/Other">Other</a></span>');
    expect(html).toContain('<div class="callout-content">\n<p>Body text.</p>');
  });
  it('- folds closed and + open, as <details>', () => {
    expect(render('> [!faq]- Why?\n> Because.')).toMatch(/^<details class="callout s-callout" data-callout="faq" data-callout-fold="-">\n<summary/);
    expect(render('> [!tip]+ Open\n> Yes.')).toContain('data-callout-fold="+" open>');
  });
  it('without a title the type names it; nested callouts nest', () => {
    const html = render('> [!note]\n> Outer\n> > [!bug] Inner\n> > deep');
    expect(html).toContain('<span class="callout-title-inner">Note</span>');
    expect(html.indexOf('data-callout="bug"')).toBeGreaterThan(html.indexOf('data-callout="note"'));
    expect((html.match(/<\/div>\n<\/div>/g) ?? []).length).toBe(2);
  });
  it('a plain quote stays a blockquote', () => {
    expect(render('> just a quote')).toBe('<blockquote>\n<p>just a quote</p>\n</blockquote>\n');
  });
});

describe('wikilinks, block ids, tags, images', () => {
  it('[[Note#A#B]] links to heading B under A; [[Note#^id]] to the block', () => {
    expect(render('[[Other#A#B]]')).toContain('href="/Other#b-1"');
    expect(render('[[Other#^abc|see]]')).toContain('<a class="s-wikilink internal-link" href="/Other#^abc">see</a>');
    expect(render('[[Missing]]')).toContain('<span class="s-wikilink s-unresolved">Missing</span>');
    // A link to a folder (Quartz's docs write [[advanced/]]) showed nothing at all.
    expect(render('See [[advanced/]] here')).toContain('See <span class="s-wikilink s-unresolved">advanced</span> here');
    expect(analyzeNote('See [[advanced/]] here', 'T').excerpt).toBe('See advanced here');
  });
  // Obsidian's help: "By default, Obsidian will show the link text as it appears… [[Example#Details]] displays as Example > Details".
  it('a link without display text shows the link as written, its folders and headings too, as Obsidian shows it', () => {
    expect(render('See [[Deep/Other]] and [[Other#A#B]].')).toMatch(/See <span [^>]*>Deep\/Other<\/span> and <a [^>]*href="\/Other#b-1">Other &gt; A &gt; B<\/a>\./);
    expect(render('[[Other#^abc]] [[Other.md]]')).toMatch(/>Other &gt; abc<\/a> <span [^>]*>Other<\/span>/);
    expect(analyzeNote('See [[Projects/2024/Plan]] and [[Plan#Budget]] here', 'T').excerpt).toBe('See Projects/2024/Plan and Plan > Budget here');
  });
  it('[[file.pdf|label]] links the file; ![[pic.png|300x200]] and ![alt|300](pic.png) are sized', () => {
    expect(render('[[file.pdf|the file]]')).toContain('<a class="s-attachment internal-link" href="/file.pdf">the file</a>');
    // The first image at the top of a page loads at once (shared/note/picture.ts).
    expect(render('![[pic.png|300x200]]')).toContain('<img src="/pic.png" alt="pic.png" width="300" height="200" decoding="async">');
    expect(render('![A cat|300](pic.png)')).toContain('<img src="/pic.png" alt="A cat" width="300" decoding="async">');
    // Obsidian's help sizes an outside image so: an alt of a size alone is the size.
    expect(render('![250](https://example.com/e.jpg)')).toContain('<img src="https://example.com/e.jpg" alt="" width="250"');
    expect(render('![100x145](pic.png)')).toContain('<img src="/pic.png" alt="" width="100" height="145"');
    expect(render('![A 2024 chart](pic.png)')).toContain('alt="A 2024 chart"');
  });
  it('![[file.pdf]] shows the PDF in the page (a lazy frame of the file, no script) and links the file; #page=N opens at that page', () => {
    const html = render('Read this: ![[file.pdf]] then more.');
    expect(html).toBe(
      '<p>Read this:</p>\n<div class="s-pdf">\n<iframe class="s-pdf-frame" src="/file.pdf" title="file.pdf" loading="lazy"></iframe>\n' +
        '<p class="s-pdf-link"><a class="s-attachment internal-link" href="/file.pdf" download>file.pdf</a></p>\n</div>\n<p>then more.</p>\n',
    );
    expect(render('![[Files/doc.pdf#page=3|The manual]]')).toContain('<iframe class="s-pdf-frame" src="/Files/doc.pdf#page=3" title="The manual" loading="lazy"></iframe>');
    expect(render('![[file.pdf#height=400]]')).toContain('src="/file.pdf" title="file.pdf" loading="lazy" style="height:400px;max-height:none"></iframe>');
    // Only a page number goes into the address, only a height into the style; anything else is left out.
    const odd = render('![[file.pdf#page=3" onload="x|a"b<i>]]');
    expect(odd).toContain('src="/file.pdf" title="a&quot;b&lt;i&gt;"');
    expect(odd).not.toMatch(/onload|<i>/);
    expect(render('![[file.pdf#height=1;color:red]]')).not.toContain('style=');
    // An unpublished or missing PDF shows nothing; a link to one stays a link.
    expect(render('![[secret.pdf]]')).toBe('');
    expect(render('[[file.pdf]]')).toContain('<a class="s-attachment internal-link" href="/file.pdf">file.pdf</a>');
  });
  it('^id at the end of a paragraph or list item is hidden and becomes the element id', () => {
    expect(render('A paragraph. ^para-1')).toBe('<p id="^para-1">A paragraph.</p>\n');
    expect(render('- item ^it')).toContain('<li id="^it">item</li>');
    expect(render('| a |\n|---|\n| 1 |\n\n^tbl')).toContain('<table id="^tbl">');
  });
  it('#tag and #a/b link to their topic; not in code, headings’ marks, URLs or words', () => {
    const html = render('## Heading\n\n#start and #a/b, `#code`, https://x.y/#frag, a#b and #123 and #private.');
    expect(html).toContain('<a class="tag s-inline-tag" dir="auto" href="/topic/start">#start</a>');
    expect(html).toContain('<a class="tag s-inline-tag" dir="auto" href="/topic/a/b">#a/b</a>');
    expect(html).toContain('<span class="tag s-inline-tag" dir="auto">#private</span>');
    expect(html).toContain('<code>#code</code>');
    expect(html).toContain('href="https://x.y/#frag"');
    expect(html).toContain('a#b and #123');
    expect(analyzeNote('## Heading\n\n#start and `#code` and #a/b and https://x.y/#frag').tags).toEqual(['start', 'a/b']);
  });
  // The Tasks plugin's docs open 25 of 53 pages with `<span class="related-pages">#feature/statuses</span>`.
  it('a tag right after an HTML tag is a tag, as Obsidian reads it; not inside the author\'s own link', () => {
    expect(render('<span class="related-pages">#start</span>')).toBe('<p><span class="related-pages"><a class="tag s-inline-tag" dir="auto" href="/topic/start">#start</a></span></p>\n');
    expect(analyzeNote('<span class="related">#start #a/b</span> and x<b>y</b>#z but x#w').tags).toEqual(['start', 'a/b', 'z']);
    expect(render('<a href="https://x.example">#start</a>')).not.toContain('s-inline-tag');
  });
  it('an emoji is part of its tag, as Obsidian reads it: #emoji🌱tag, #🌱, #👩‍💻/work', () => {
    expect(analyzeNote('Grown #emoji🌱tag and #🌱 and #👩‍💻/work, done.').tags).toEqual(['emoji🌱tag', '🌱', '👩‍💻/work']);
    expect(render('Grown #emoji🌱tag.')).toContain('href="/topic/emoji🌱tag">#emoji🌱tag</a>');
  });
  it('a heading never takes an id the page uses (comments, main) or a footnote’s', () => {
    const html = render('## Comments\n\n## Main\n\n## fn1');
    expect(html).toContain('<h2 id="comments-1">Comments<a class="s-anchor" href="#comments-1" aria-labelledby="s-anchor-label comments-1"></a></h2>');
    expect(html).toContain('<h2 id="main-1">Main<a class="s-anchor" href="#main-1" aria-labelledby="s-anchor-label main-1"></a></h2>');
    expect(html).toContain('<h2 id="fn1-1">fn1<a class="s-anchor" href="#fn1-1" aria-labelledby="s-anchor-label fn1-1"></a></h2>');
  });
  it('the page’s own ids (every id="…" in site/templates) are all among those headings avoid', () => {
    const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../site/templates');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.njk'));
    const ids = files.flatMap((f) => [...readFileSync(path.join(dir, f), 'utf8').matchAll(/\bid="([\w-]+)"/g)].map((m) => m[1]!));
    expect(ids.length).toBeGreaterThan(2);
    for (const id of ids) expect(RESERVED_IDS.has(id), id).toBe(true);
  });
  it('the inside of [[…]] is read one way', () => {
    expect(parseWikiRef('Note#A#B|x')).toEqual({ target: 'Note', subpath: ['A', 'B'], alias: 'x' });
    expect(parseWikiRef('Note\\|alias')).toEqual({ target: 'Note', subpath: [], alias: 'alias' });
    expect(findHeading([{ level: 1, text: 'A', id: 'a' }, { level: 2, text: 'B', id: 'b' }, { level: 1, text: 'C', id: 'c' }, { level: 2, text: 'B', id: 'b-1' }], ['C', 'B'])).toBe(3);
  });
});

describe('a Markdown link to a note a visitor cannot see reads as an unresolved wikilink', () => {
  // The host answers null for a missing note and an unpublished one alike (site/plan/note-bodies.ts).
  const unseen = (text: string) => `<span class="s-wikilink s-unresolved">${text}</span>`;
  it('missing or not shown, with an extension, a #heading or a ^block: its text, no address, the wikilink\'s own element', () => {
    for (const target of ['Nope.md', 'Secret%20Plan.md', 'Secret%20Plan.md#Part', 'Nope.md#^blk', 'Nope', 'Folder/Nope.markdown', 'gone.pdf']) {
      expect(render(`See [the plan](${target} "title") now.`), target).toBe(`<p>See ${unseen('the plan')} now.</p>\n`);
    }
    expect(render('[the plan](Secret%20Plan.md)')).toBe(render('[[Secret Plan|the plan]]'));
    expect(render('[**bold** plan](Nope.md)')).toBe(`<p>${unseen('<strong>bold</strong> plan')}</p>\n`);
  });
  it('in a table, a callout\'s title and body, a list and a footnote alike', () => {
    expect(render('| a |\n|---|\n| [x](Nope.md#A) |')).toContain(`<td>${unseen('x')}</td>`);
    const callout = render('> [!note] T [t](Nope.md)\n> [b](Secret%20Plan.md)');
    expect(callout).toContain(`<span class="callout-title-inner">T ${unseen('t')}</span>`);
    expect(callout).toContain(`<p>${unseen('b')}</p>`);
    expect(render('- [i](Nope.md)\n\nN[^1]\n\n[^1]: [f](Nope.md)')).not.toMatch(/href="#"|<a href="[^"#]/);
  });
  it('a note shown and a file published still link; web addresses, anchors and mailto: are as written', () => {
    const host: RenderLinks = { ...links, note: (t) => (t === 'Other.md' ? { href: '/Other', title: 'Other', headings: [{ level: 2, text: 'B', id: 'b-1' }] } : null) };
    expect(renderNoteHtml('[o](Other.md#B) [f](file.pdf)', 'T', host)).toBe('<p><a href="/Other#b-1" class="internal-link">o</a> <a href="/file.pdf">f</a></p>\n');
    expect(render('[w](https://x.y/a.md) [h](#Part) [m](mailto:a@b.c) [r](/abs)')).toBe(
      '<p><a href="https://x.y/a.md" rel="noopener">w</a> <a href="#Part">h</a> <a href="mailto:a@b.c">m</a> <a href="/abs">r</a></p>\n',
    );
  });
  it('a target read as a wikilink\'s is: no extension or any other dot names a note first, a file of that name when none answers', () => {
    const host: RenderLinks = {
      ...links,
      note: (t) => (['Other', 'Folder/Other', 'Node.js'].includes(t) ? { href: `/${t.replace('.', '-')}`, title: t, headings: [{ level: 2, text: 'B', id: 'b-1' }] } : null),
      attachment: (t) => (['data.arrow', 'Node.js'].includes(t) ? `/${t}` : null),
    };
    expect(renderNoteHtml('[o](Other#B) [p](Folder/Other) [n](Node.js) [d](data.arrow)', 'T', host)).toBe(
      '<p><a href="/Other#b-1" class="internal-link">o</a> <a href="/Folder/Other" class="internal-link">p</a> <a href="/Node-js" class="internal-link">n</a> <a href="/data.arrow">d</a></p>\n',
    );
    const facts = analyzeNote('[o](Other) [n](Node.js) [f](file.pdf) [m](Other.md)');
    expect(facts.links).toEqual(['Other', 'Node.js', 'Other.md']);
    expect(facts.files).toEqual(['Node.js', 'file.pdf']);
  });
  it('inside an embedded note too', () => {
    const hosted: RenderLinks = { ...links, embed: (ref, frame) => renderEmbedHtml('Inner [x](Secret%20Plan.md#Part) text', ref, hosted, frame, { href: '/Other', title: 'Other' }) };
    expect(renderNoteHtml('![[Other]]', 'T', hosted)).toContain(`<p>Inner ${unseen('x')} text</p>`);
  });
});

describe('a block id names every kind of block (Obsidian: the id on its own line after the block)', () => {
  const embedded = (body: string, id: string) => renderEmbedHtml(body, parseWikiRef(`Note#^${id}`), links, { ids: new Set(), stack: [], count: 0 }, { href: '/Note', title: 'Note' });
  const blocks: Array<[string, string, RegExp]> = [
    ['```js\nconst a = 1;\n```\n\n^codeb', 'codeb', /^<pre id="\^codeb"><code class="language-js">/],
    ['```mermaid\ngraph TD\n```\n\n^mer', 'mer', /^<pre id="\^mer" class="mermaid">/],
    ['    indented code\n\n^ind', 'ind', /^<pre id="\^ind"><code>indented code/],
    ['$$\nx+1\n$$\n\n^mathb', 'mathb', /^<p id="\^mathb" class="katex-block">/],
    ['> a quote\n\n^qb', 'qb', /^<blockquote id="\^qb">\n<p>a quote<\/p>/],
    ['> a\n> b ^qid', 'qid', /^<blockquote id="\^qid">\n<p>a<br>\nb<\/p>/],
    ['> [!info] Callout\n> body\n\n^cb', 'cb', /^<div class="callout s-callout" data-callout="info" id="\^cb">/],
    ['> [!info] Title ^cid\n> body', 'cid', /^<div class="callout s-callout" data-callout="info" id="\^cid">\n.*<span class="callout-title-inner">Title<\/span>.*\n<p>body<\/p>/s],
    ['> [!tip]- Folded ^fid', 'fid', /^<details class="callout s-callout" data-callout="tip" data-callout-fold="-" id="\^fid">/],
    ['| a |\n|---|\n| 1 |\n\n^tbl', 'tbl', /^<table id="\^tbl">/],
  ];
  it('the block carries the id, the id is not in the text, and an embed of it shows the block', () => {
    for (const [body, id, shape] of blocks) {
      const html = render(`Before.\n\n${body}\n\nAfter.`);
      const at = html.indexOf(`id="^${id}"`);
      expect(at, body).toBeGreaterThan(0);
      expect(html.slice(html.lastIndexOf('\n<', at) + 1), body).toMatch(shape);
      expect(html.match(/\^/g)?.length, body).toBe(1);
      const embed = embedded(`Before.\n\n${body}\n\nAfter.`, id)!;
      expect(embed, body).toMatch(new RegExp(`</p>\n${shape.source.slice(1)}`, shape.flags));
      expect(embed, body).not.toContain('Before.');
      expect(embed, body).not.toContain('After.');
    }
  });
  it('an id ending a quote\'s last line names the quote whatever that line holds; one on a callout\'s title is hidden even when another ends it', () => {
    expect(render('> [!note] T\n> <div>x</div> ^hid')).toMatch(/^<div class="callout s-callout" data-callout="note" id="\^hid">[^^]*<div>x<\/div>\n<\/div>\n<\/div>\n$/);
    expect(render('> > nested ^nq')).toBe('<blockquote id="^nq">\n<blockquote>\n<p>nested</p>\n</blockquote>\n</blockquote>\n');
    const both = render('> [!info] Title ^cid\n> body ^bid');
    expect(both).toContain('data-callout="info" id="^bid">');
    expect(both).toContain('<span class="callout-title-inner">Title</span>');
    expect(both.match(/\^/g)).toHaveLength(1);
  });
  it('raw HTML: the id is hidden and our wrapper around the element it ends carries it; the embed shows it sanitised', () => {
    const details = '<details><summary>S</summary>\n\nBody\n\n</details> ^det';
    expect(render(`Before.\n\n${details}\n\nAfter.`)).toBe('<p>Before.</p>\n<div id="^det">\n<details><summary>S</summary>\n<p>Body</p>\n</details>\n</div>\n<p>After.</p>\n');
    for (const alone of ['<div class="x">one</div>\n\n^hid', '<div class="x">one</div>\n^hid', '<div class="x">one</div> ^hid']) {
      expect(render(`${alone}\n\nAfter.`), alone).toBe('<div id="^hid">\n<div class="x">one</div>\n</div>\n<p>After.</p>\n');
    }
    const hostile = 'Before.\n\n<details onclick="alert(1)"><summary>S</summary>\n\nBody <img src=x onerror="alert(2)">\n\n</details> ^det\n\nAfter.';
    const embed = embedded(hostile, 'det')!;
    expect(embed).toContain('<div id="^det">\n<details><summary>S</summary>');
    expect(embed).not.toMatch(/onclick|onerror|Before|After|\^det</);
    expect(render(hostile)).not.toMatch(/onclick|onerror|\^det</);
  });
  // Obsidian's block suggester writes a heading's id on the line after it; gardens' links to them went nowhere.
  it("a heading: an anchor before it carries the id, the heading keeps its own; the note lists the block, and the embed shows the heading", () => {
    const body = 'Before.\n\n## Gradient Descent\n\n^535cb8\n\nText under it.';
    expect(render(body)).toMatch(/^<p>Before\.<\/p>\n<a id="\^535cb8"><\/a>\n<h2 id="gradient-descent">Gradient Descent<a class="s-anchor"[^>]*><\/a><\/h2>\n<p>Text under it\.<\/p>\n$/);
    expect(analyzeNote(body).blockIds).toEqual(['535cb8']);
    const embed = embedded(body, '535cb8')!;
    expect(embed).toContain('<a id="^535cb8"></a>\n<h2');
    expect(embed).toMatch(/<h2 [^>]*>Gradient Descent<a class="s-anchor"/);
    expect(embed).not.toMatch(/Before|Text under/);
  });
  it('raw HTML that does not close what it opens: an anchor before it carries the id, and the embed shows that block', () => {
    const html = render('<div class="open"> ^left\n\nAfter.');
    expect(html).toMatch(/^<a id="\^left"><\/a>\n<div class="open">/);
    expect(html).not.toContain('^left<');
    expect(embedded('<div class="open"> ^left\n\nAfter.', 'left')).toContain('<a id="^left"></a>\n<div class="open">');
  });
  it('a section embedded from inside a wrapped HTML block never closes what holds it', () => {
    const body = '<details><summary>S</summary>\n\n## Inside\n\nBody\n\n</details> ^det\n\n## Next\n';
    const embed = renderEmbedHtml(body, parseWikiRef('Note#Inside'), links, { ids: new Set(), stack: [], count: 0 }, { href: '/Note', title: 'Note' })!;
    expect(embed.match(/<div/g)?.length).toBe(embed.match(/<\/div>/g)?.length);
  });
  it('an embedded block whose id the page already uses is shown without it, as a paragraph\'s is', () => {
    const frame = { ids: new Set(['^codeb', '^det']), stack: [], count: 0 };
    const source = { href: '/Note', title: 'Note' };
    expect(renderEmbedHtml('```\nx\n```\n\n^codeb', parseWikiRef('Note#^codeb'), links, frame, source)).toContain('<pre><code>x');
    expect(renderEmbedHtml('<div>x</div> ^det', parseWikiRef('Note#^det'), links, frame, source)).toContain('<div>\n<div>x</div>\n</div>');
  });
});

describe('embeds', () => {
  it('without a host (the admin’s view) an embed is a link; with one, what the host gives, nothing when it gives nothing', () => {
    expect(render('![[Other#A]]')).toContain('<p class="s-embed-link"><a class="s-wikilink internal-link" href="/Other#a">Other &gt; A</a></p>');
    const hosted: RenderLinks = { ...links, embed: (ref) => (ref.target === 'Other' ? '<div class="s-embed">EMBEDDED</div>\n' : null) };
    expect(renderNoteHtml('Before ![[Other]] after', 'T', hosted)).toBe('<p>Before</p>\n<div class="s-embed">EMBEDDED</div>\n<p>after</p>\n');
    expect(renderNoteHtml('Before ![[Secret]] after', 'T', hosted)).toBe('<p>Before</p>\n<p>after</p>\n');
  });
});

describe('plain text for every derived output', () => {
  it('has no Markdown, no tags’ #, no block ids, no embeds, no footnote marks', () => {
    const body = 'The **bold** [[Other|link]] #tag ==mark== ![[pic.png]] and $x$[^1]. ^blk\n\n[^1]: Note.';
    expect(excerptOf(body)).toBe('The bold link tag mark and x.');
  });
  it('no block id of a code block, a callout\'s title or raw HTML reaches the search text, the excerpt or the word count', () => {
    const body = '<details><summary>S</summary>\n\nBody words\n\n</details> ^det\n\n```\ncode\n```\n\n^cb\n\n> [!info] Title ^cid\n> body';
    expect(publicText(body)).toBe('S\n\nBody words\n\ncode\n\nTitle\nbody');
    expect(excerptOf(body)).toBe('Body words');
    expect(countWords(body)).toBe(5);
  });
  it('records inline tags, links, files, embeds, headings and what the page needs', () => {
    const facts = analyzeNote('# T\n\n#one [[Other]] ![[Deep#A]] [[file.pdf]] ![](pic.png) $x$\n\n```mermaid\na\n```');
    expect(facts.tags).toEqual(['one']);
    expect(facts.links).toEqual(['Other']);
    expect(facts.files).toEqual(['file.pdf', 'pic.png']);
    expect(facts.transclusions).toEqual([{ target: 'Deep', subpath: ['A'], alias: null }]);
    expect(facts.headings).toEqual([{ level: 1, text: 'T', id: 't' }]);
    expect(facts).toMatchObject({ math: true, mermaid: true });
  });
});
