// CONTRACT §7, raw HTML row: what a published note may carry and what never survives.
import { describe, expect, it } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { fillPrepared, renderEmbedHtml, renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';

const links: RenderLinks = {
  note: (t) => (t.toLowerCase() === 'other' ? { href: '/Other', title: 'Other' } : null),
  attachment: (t) => (t === 'pic.png' ? '/pic.png' : null),
};
const render = (body: string) => renderNoteHtml(body, 'Title', links);

describe('nothing that runs survives', () => {
  const hostile: Array<[string, string, RegExp]> = [
    ['a script block', '<script>fetch("/api/settings")</script>\n\nText', /<script|fetch\(/i],
    ['an inline script', 'Hi <script>alert(1)</script> there', /<script|alert/i],
    ['an event handler on an image', '<img src="x.png" onerror="alert(1)">', /onerror|alert/i],
    ['an event handler on an svg', '<svg onload="alert(1)"><path d="M0 0"/></svg>', /onload|alert/i],
    ['a javascript: link', '<a href="javascript:alert(1)">x</a>', /javascript:|alert/i],
    ['an entity-hidden javascript: link', '<a href="jav&#x09;ascript&colon;alert(1)">x</a>', /ascript|alert/i],
    ['a data: link', '<a href="data:text/html,<script>alert(1)</script>">x</a>', /data:|alert/i],
    ['a link handing its opener over', '<a href="https://example.com" rel="nofollow Opener">x</a> <a href="https://example.com/b" rel="opener">y</a>', /opener/i],
    ['a data: iframe', '<iframe src="data:text/html,<b>x</b>"></iframe>', /<iframe|data:/i],
    ['an iframe srcdoc', '<iframe srcdoc="<script>alert(1)</script>"></iframe>', /srcdoc|<iframe|alert/i],
    ['an http iframe', '<iframe src="http://example.com/"></iframe>', /<iframe/i],
    ['a relative iframe (this very site)', '<iframe src="/admin/"></iframe>', /<iframe/i],
    ['a protocol-relative iframe', '<iframe src="//evil.example/"></iframe>', /<iframe/i],
    ['a form', '<form action="/api/logout" method="post"><button>Go</button></form>', /<form|<button/i],
    ['an object', '<object data="x.swf"></object><embed src="x.swf">', /<object|<embed/i],
    ['a meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', /<meta|alert/i],
    ['a base element', '<base href="https://evil.example/">', /<base/i],
    ['a style element', '<style>body{display:none}</style>', /<style|display:none/i],
    ['a link element', '<link rel="stylesheet" href="https://evil.example/x.css">', /<link/i],
    ['a formaction', '<button formaction="javascript:alert(1)">x</button>', /formaction|alert/i],
    ['an svg animate to javascript:', '<svg><a><animate attributeName="href" to="javascript:alert(1)"/><text>x</text></a></svg>', /animate|javascript/i],
    ['a text input (gone, not made a task box)', '<form action="https://evil.example"><input name=p></form> <input type="text" name="password">', /<input|name=/i],
    [
      'a frame asking for the camera, microphone, location or payment, or telling the framed site the page',
      '<iframe src="https://evil.example/cam" allow="camera *; microphone *; geolocation *; display-capture *; clipboard-read *; payment *; usb *; serial *" referrerpolicy="unsafe-url" width="1" height="1"></iframe>',
      /camera|microphone|geolocation|capture|clipboard|payment|usb|serial|unsafe-url|referrerpolicy|allow=/i,
    ],
  ];
  it.each(hostile)('%s', (_name, body, forbidden) => {
    expect(render(body)).not.toMatch(forbidden);
  });
});

// A home note's `[Drive](<file:///C:/…/Index.md>)` showed its whole Markdown source.
describe('a Markdown link to an address no reader may follow shows its words, as Obsidian shows them, and no address', () => {
  it.each([
    ['a file: link with a space', '[Drive](<file:///C:/Users/x/My Drive/Index.md>) here', 'Drive here'],
    ['a file: link', '[Index](file:///C:/x.md).', 'Index.'],
    ['a javascript: link', '[Click **me**](javascript:alert(1))', 'Click <strong>me</strong>'],
    ['a vbscript: link by reference', '[v][r]\n\n[r]: vbscript:msgbox', 'v'],
    ['a javascript: picture', '![the alt](javascript:alert(1)) end', 'the alt end'],
    ['a file: autolink', '<file:///etc/passwd>', 'file:///etc/passwd'],
  ])('%s', (_name, body, words) => {
    const html = render(body);
    expect(html).toBe(`<p>${words}</p>\n`);
    expect(analyzeNote(body).links).toEqual([]);
  });
  it('a picture written as data stays a picture; web links stay links', () => {
    expect(render('![dot](data:image/png;base64,iVBORw0KGgo=)')).toContain('src="data:image/png;base64,iVBORw0KGgo="');
    expect(render('[a](https://a.example) [b](Other)')).toMatch(/<a href="https:\/\/a\.example"[^>]*>a<\/a> <a [^>]*href="\/Other"/);
  });
});

describe('what Obsidian users legitimately write stays', () => {
  const kept: Array<[string, string, string[]]> = [
    ['details and summary', '<details open><summary>More</summary>\n\nHidden *text*\n\n</details>', ['<details open', '<summary>More</summary>', '<em>text</em>']],
    ['kbd, sup, sub, mark', 'Press <kbd>Ctrl</kbd>, x<sup>2</sup>, H<sub>2</sub>O, <mark>hi</mark>', ['<kbd>Ctrl</kbd>', '<sup>2</sup>', '<sub>2</sub>', '<mark>hi</mark>']],
    ['tt, big, strike, acronym', 'A <tt>space</tt>, <big>B</big>, <strike>c</strike>, <acronym title="x">d</acronym>', ['<tt>space</tt>', '<big>B</big>', '<strike>c</strike>', '<acronym title="x">d</acronym>']],
    ['an html table', '<table><tr><th colspan="2">A</th></tr><tr><td>1</td><td>2</td></tr></table>', ['<th colspan="2">A</th>', '<td>1</td>']],
    ['a sized image', '<img src="https://example.com/a.png" width="300" height="200" alt="A">', ['src="https://example.com/a.png"', 'width="300"', 'height="200"']],
    ['a data: image', '<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">', ['src="data:image/png;base64,iVBORw0KGgo="']],
    ['span and div with class and style', '<div class="box" style="color: red"><span class="tag" style="font-weight: bold">x</span></div>', ['<div class="box" style="color:red">', '<span class="tag" style="font-weight:bold">x</span>']],
    ['an https video iframe', '<iframe src="https://www.youtube-nocookie.com/embed/abc" width="560" height="315" allowfullscreen></iframe>', ['<iframe src="https://www.youtube-nocookie.com/embed/abc"', 'allowfullscreen']],
    [
      "a YouTube embed's own allow list and referrer policy",
      '<iframe src="https://www.youtube.com/embed/abc" allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share; camera" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen></iframe>',
      ['allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture; web-share"', 'referrerpolicy="strict-origin-when-cross-origin"'],
    ],
    ['a checkbox written as HTML, shown as a box no one can tick', '<input type="checkbox" checked>', ['<input type="checkbox" checked disabled />']],
    ['audio and video', '<audio controls src="https://example.com/a.mp3"></audio><video controls width="320"><source src="https://example.com/v.mp4" type="video/mp4"></video>', ['<audio controls', '<video controls', '<source src="https://example.com/v.mp4" type="video/mp4"']],
    ['https and mailto links, opened in a new tab safely', '<a href="https://example.com" target="_blank">x</a> <a href="mailto:a@b.c">m</a>', ['href="https://example.com"', 'rel="noopener noreferrer"', 'href="mailto:a@b.c"']],
  ];
  it.each(kept)('%s', (_name, body, expected) => {
    const html = render(body);
    for (const piece of expected) expect(html).toContain(piece);
  });

  it('the renderer’s own markup is the same with or without raw HTML beside it', () => {
    const note = '## Part\n\n> [!tip] Title\n> body\n\nSee [[Other]] and ![[pic.png|300]].\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n';
    const plain = render(note);
    const withHtml = render(note + '\n<kbd>K</kbd>\n');
    // The sanitiser writes void elements as `<br />`; the same markup otherwise.
    expect(withHtml.replace(/\s*<p><kbd>K<\/kbd><\/p>\s*$/, '').replace(/ \/>/g, '>')).toBe(plain.trimEnd());
  });

  it('everything Obsidian’s syntax renders survives the sanitiser (callouts, tasks, footnotes, math, tags, block ids, diagrams)', () => {
    const full: RenderLinks = { ...links, tag: (t) => `/topic/${t}` };
    const note =
      '## Part\n\n> [!faq]- Why **this** [[Other]]\n> body ^blk\n\nSee [[Other#^x]] ==mark== #tag and ![[pic.png|300]] ![a|200](pic.png).\n\n' +
      '- [ ] a\n- [x] b\n\nFoot[^1] $x^2$ and\n\n$$\n\\sqrt{a}\n$$\n\n```mermaid\ngraph TD; A-->B\n```\n\n[^1]: note\n';
    // What the sanitiser writes differently but the browser reads the same: `;` ending a
    // style, attribute names' case, self-closed SVG paths.
    const same = (html: string) =>
      html.replace(/;"/g, '"').replace(/viewBox=/g, 'viewbox=').replace(/preserveAspectRatio=/g, 'preserveaspectratio=').replace(/"\/>/g, '"></path>').replace(/ \/>/g, '>');
    const plain = renderNoteHtml(note, 'Title', full);
    const withHtml = renderNoteHtml('<kbd>K</kbd>\n\n' + note, 'Title', full);
    expect(same(withHtml).replace(/^<p><kbd>K<\/kbd><\/p>\n/, '')).toBe(same(plain));
  });

  it('a note without raw HTML is rendered as before (the sanitiser is skipped)', () => {
    expect(render('Hello *world* & <3')).toBe('<p>Hello <em>world</em> &amp; &lt;3</p>\n');
  });
});

describe('raw HTML is sanitised wherever in the note it is written', () => {
  const hostile = /onerror|alert/i;
  const embedding = (body: string): RenderLinks => ({
    ...links,
    embed: (ref, frame) => renderEmbedHtml(body, ref, embedding(body), frame, { href: '/Other', title: 'Other' }),
  });

  it('in an inline footnote, the note’s only raw HTML', () => {
    const html = render('Text^[<img src=x onerror=alert(1)>]');
    expect(html).toContain('footnote'); // the footnote rendered
    expect(html).not.toMatch(hostile);
  });

  it('in a footnote definition', () => {
    const html = render('Text[^1]\n\n[^1]: <img src=x onerror=alert(1)>\n');
    expect(html).toContain('footnote');
    expect(html).not.toMatch(hostile);
  });

  it('in a note prepared for its pages (the published path)', () => {
    const facts = analyzeNote('Text^[<img src=x onerror=alert(1)>]', 'Title');
    const html = fillPrepared(facts.prepared!, links);
    expect(html).toContain('footnote');
    expect(html).not.toMatch(hostile);
  });

  it('in an embedded note, plain or in an inline footnote', () => {
    for (const body of ['Embedded <img src=x onerror=alert(1)>', 'Embedded^[<img src=x onerror=alert(1)>]']) {
      const html = renderNoteHtml('Before\n\n![[Other]]\n', 'Title', embedding(body));
      expect(html).toContain('Embedded');
      expect(html).not.toMatch(hostile);
    }
  });

  it('in an embedded note’s inline footnote, rendered on its own', () => {
    const frame = { ids: new Set<string>(), stack: [], count: 0 };
    const html = renderEmbedHtml('Embedded^[<img src=x onerror=alert(1)>]', { target: 'Other', subpath: [], alias: null }, links, frame, { href: '/Other', title: 'Other' });
    expect(html).toContain('Embedded');
    expect(html).not.toMatch(hostile);
  });
});
