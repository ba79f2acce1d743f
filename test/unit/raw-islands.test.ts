// CONTRACT §7, raw HTML: only the blocks holding the author's HTML go through the
// sanitiser (raw-islands.ts). Whatever the HTML leaves open, unfinished or split across
// pieces, the page comes out as the sanitiser makes the whole body, and nothing runs.
import { describe, expect, it } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { publicMarkdown } from '../../shared/note/comments.ts';
import { fillPrepared, renderEmbedHtml, renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { markdown } from '../../shared/note/md.ts';
import type { NoteEnv } from '../../shared/note/env.ts';
import { sanitizeNoteHtml } from '../../shared/note/sanitize.ts';
import { BareHtml, RawBalance } from '../../shared/note/raw-islands.ts';
import { seeded } from '../helpers/seeded.ts';

const links: RenderLinks = {
  note: (t) => (t.toLowerCase() === 'other' ? { href: '/Other', title: 'Other' } : null),
  attachment: (t) => (t === 'pic.png' ? '/pic.png' : null),
  tag: (t) => `/topic/${t}`,
};

/** What the sanitiser makes of the whole body (how every raw-HTML note was rendered before islands). */
function wholeBodySanitised(body: string): string {
  const env: NoteEnv = { links };
  return sanitizeNoteHtml(markdown().render(publicMarkdown(body), env));
}

// Each a piece of a note; they are put together in many orders below.
const MARKDOWN = ['## Part', 'Plain *text* with [[Other]] and #tag.', '- one\n- two **b**', '> [!tip] Callout\n> body', 'Foot^[inline *note*]', '| a | b |\n|--|--|\n| 1 | 2 |'];
const RAW = [
  'Inline <span class="x">closed</span> here.',
  'Unclosed <span class="open"> inline, *then* markdown.',
  '<div class="box">',
  '</div>',
  '<details><summary>More</summary>',
  '</details>',
  'Stray </em> close and </p> too.',
  '<div title="unterminated',
  '">after the quote',
  '<!-- a comment that never ends',
  'An <a href="https://example.com" target="_blank">inline link',
  '<script',
  '>alert(1)</script>',
  'Split <scr',
  'ipt>alert(2)</script>',
  '<iframe src="https://example.com/">',
  '</iframe>',
  '<svg><rect width="1" height="1"/></svg>',
  '<img src=x onerror=alert(3)>',
  '<textarea>',
  '<table><tr><td>',
];
// Markup that runs (a script's words shown as text run nothing).
// A start tag as the HTML tokenizer reads one (a quoted value may hold `>` or ` onerror=` as text).
const START_TAG = /<([a-zA-Z][^\s/>]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;

/** What in `html` could run: a script or textarea tag, a handler, a javascript: URL, srcdoc, an iframe not from https. */
function hostile(html: string): string | null {
  if (/<scr|<textarea/i.test(html)) return 'a script or textarea';
  for (const [tag, name, attributes] of html.matchAll(START_TAG)) {
    const values = new Map([...attributes!.matchAll(ATTRIBUTE)].map((a) => [a[1]!.toLowerCase(), a[2] ?? a[3] ?? a[4] ?? '']));
    if ([...values.keys()].some((key) => key.startsWith('on') || key === 'srcdoc')) return tag;
    if ([...values.values()].some((value) => /^\s*javascript:/i.test(value))) return tag;
    if (name!.toLowerCase() === 'iframe' && !/^https:/i.test(values.get('src') ?? '')) return tag;
  }
  // A tag this reading cannot take whole is suspect too, so a malformed one is never passed over.
  const unread = /<[a-zA-Z][^>]*/.exec(html.replace(START_TAG, ''));
  return unread ? unread[0] : null;
}

/** A small deterministic shuffle of notes made of the pieces above. */
function notes(count: number): string[] {
  const next = seeded(7);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts: string[] = [];
    for (let k = 0; k < 6; k++) parts.push(next(2) ? RAW[next(RAW.length)]! : MARKDOWN[next(MARKDOWN.length)]!);
    out.push(parts.join('\n\n'));
  }
  return [...RAW, ...out];
}

describe('raw HTML in islands', () => {
  it('the check of what runs finds handlers, scripts and javascript: URLs in tags, not in text or quoted values', () => {
    for (const html of ['<img src=x onerror=alert(1)>', '<a href="JavaScript:x">a</a>', "<a href=' javascript:x'>a</a>", '<iframe srcdoc="x"></iframe>', '<iframe src="http://x"></iframe>', '<p><script>x</script></p>', '<div onclick="x">a</div>', '<img src=x onerror=alert(1)//'])
      expect(hostile(html), html).not.toBeNull();
    for (const html of ['<div title="a <img onerror=b> c">x</div>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>', '<a href="https://x.org/javascript:">a</a>', '<iframe src="https://x.org/v"></iframe>', '<p>onload=x javascript: text</p>'])
      expect(hostile(html), html).toBeNull();
  });

  it('renders every mix of raw HTML and Markdown as sanitising the whole body does, with nothing that runs', () => {
    for (const body of notes(400)) {
      const html = renderNoteHtml(body, 'Title', links);
      // The sanitiser's own writing of both (void elements, entities) compared, not the bytes.
      expect(sanitizeNoteHtml(html), body).toBe(sanitizeNoteHtml(wholeBodySanitised(body)));
      expect(hostile(html), body).toBeNull();
    }
  });

  it('the published path (prepared, then filled) and an embed give the same', () => {
    for (const body of notes(60)) {
      const facts = analyzeNote(body, 'Title');
      const filled = fillPrepared(facts.prepared!, links);
      expect(sanitizeNoteHtml(filled), body).toBe(sanitizeNoteHtml(wholeBodySanitised(body)));
      const frame = { ids: new Set<string>(), stack: [], count: 0 };
      const embedded = renderEmbedHtml(body, { target: 'Other', subpath: [], alias: null }, links, frame, { href: '/Other', title: 'Other' })!;
      expect(hostile(embedded), body).toBeNull();
    }
  });

  it('puts an embed or base block inside any mix of raw HTML whole and in text, or leaves it out; nothing runs', () => {
    // Our own blocks, each whole and closed, with what the sanitiser would take (a style, an SVG marker).
    const BLOCKS = {
      canvas: '<div class="own-canvas" style="--w:1px"><svg><defs><marker id="m"><path d="M0 0"/></marker></defs></svg>OWN-BLOCK</div>',
      note: '<div class="own-embed"><p>OWN-BLOCK "quoted" &amp; done</p></div>',
      base: '<div class="own-base" style="--c:2"><table><tr><td>OWN-BLOCK</td></tr></table></div>',
    };
    const withBlocks: RenderLinks = { ...links, document: () => BLOCKS.canvas, embed: () => BLOCKS.note, base: () => BLOCKS.base };
    const pieces = ['![[Board.canvas]]', 'Text ![[Other]] inline.', '```base\nviews: []\n```'];
    const next = seeded(11);
    for (let i = 0; i < 400; i++) {
      const parts: string[] = [];
      for (let k = 0; k < 6; k++) parts.push(next(2) ? RAW[next(RAW.length)]! : pieces[next(pieces.length)]!);
      const body = parts.join('\n\n');
      const html = fillPrepared(analyzeNote(body, 'Title').prepared!, withBlocks);
      expect(html, body).not.toContain('\u0000');
      expect(hostile(html), body).toBeNull();
      // Each block is there whole or not at all, and never inside a tag (an attribute's value).
      const whole = Object.values(BLOCKS).reduce((n, block) => n + html.split(block).length - 1, 0);
      expect(html.split('OWN-BLOCK').length - 1, body).toBe(whole);
      for (const block of Object.values(BLOCKS)) {
        for (let at = html.indexOf(block); at >= 0; at = html.indexOf(block, at + 1)) {
          const before = html.slice(0, at);
          expect(before.lastIndexOf('<') <= before.lastIndexOf('>'), body).toBe(true);
        }
      }
    }
  });

  it('leaves Markdown outside the islands as it renders without raw HTML', () => {
    const html = renderNoteHtml('Before *a*\n\nMiddle <kbd>K</kbd>\n\nAfter & <3\n', 'Title', links);
    expect(html).toBe('<p>Before <em>a</em></p>\n<p>Middle <kbd>K</kbd></p>\n<p>After &amp; &lt;3</p>\n');
  });

  it('an unclosed inline tag ends with its paragraph: the markup after it stays markup', () => {
    const html = renderNoteHtml('a <span class="x"> b\n\n*after*\n', 'Title', links);
    expect(html).toContain('<p>a <span class="x"> b</span></p>');
    expect(html).toContain('<p><em>after</em></p>');
  });

  it('an element opened in one block and closed in a later one wraps the Markdown between', () => {
    const html = renderNoteHtml('<div class="box">\n\n**inside**\n\n</div>\n\nafter\n', 'Title', links);
    expect(html).toMatch(/<div class="box">\s*<p><strong>inside<\/strong><\/p>\s*<\/div>/);
    expect(html).toContain('<p>after</p>');
  });

  it('a script tag split across pieces never comes out as a tag', () => {
    for (const body of ['<script\n\n>alert(1)</script>', 'Split <scr\n\nipt>alert(1)</script>', 'x <script>alert(1)</script> y', '<script>\nalert(1)\n</script>\n\n**after**']) {
      const html = renderNoteHtml(body, 'Title', links);
      expect(html, body).not.toMatch(/<script|<scr/i);
    }
  });
});

describe('which elements raw HTML leaves open', () => {
  const closed = (...parts: string[]) => {
    const balance = new RawBalance();
    for (const p of parts) balance.feed(p);
    return balance.closed;
  };

  it('closed when each element is closed, void elements and self-closed SVG shapes included', () => {
    expect(closed('<span class="a">', '</span>')).toBe(true);
    expect(closed('<br>', '<img src="x">', '<hr/>')).toBe(true);
    expect(closed('<svg><rect width="1"/></svg>')).toBe(true);
    expect(closed('<a title="x>y">', '</a>')).toBe(true);
    expect(closed('<!-- <div> -->')).toBe(true);
    expect(closed('<iframe src="https://e.x/">', '</iframe>')).toBe(true);
    expect(closed('</em>')).toBe(true);
  });

  it('open (so the island goes on) when anything is left open or cannot be read', () => {
    expect(closed('<div>')).toBe(false);
    expect(closed('<div>', '</span>')).toBe(false);
    expect(closed('<div title="x')).toBe(false);
    expect(closed('<!-- never ends')).toBe(false);
    expect(closed('<script>', 'x')).toBe(false);
    expect(closed('<script>x</div>')).toBe(false);
    expect(closed('<plaintext>')).toBe(false);
    expect(closed('<div/>')).toBe(false);
  });
});

describe('bare HTML is left as written', () => {
  const bare = (...parts: string[]) => {
    const html = new BareHtml();
    for (const p of parts) html.feed(p);
    return html.closed;
  };

  it('bare tags of the plain set, closed in order, across pieces: no island for the sanitiser', () => {
    expect(bare('a<br>b<BR/>c<hr />')).toBe(true);
    expect(bare('<details><summary>More</summary>\n', '</details>')).toBe(true);
    expect(bare('<kbd>Ctrl</kbd> + <kbd>K</kbd> & co > all')).toBe(true);
    // The sanitiser would write `<br />`: left as the author wrote it, the paragraph keeps `<br>`.
    expect(renderNoteHtml('Line one<br>line two\n', 'Title', links)).toBe('<p>Line one<br>line two</p>\n');
    const details = renderNoteHtml('<details><summary>More</summary>\n\n**inside** [[Other]]\n\n</details>\n', 'Title', links);
    expect(details).toMatch(/^<details><summary>More<\/summary>\n<p><strong>inside<\/strong> <a [^>]*href="\/Other"/);
  });

  it('anything else goes to the sanitiser: attributes, other tags, closing out of order, self-closed, a `<` in text, comments, left open', () => {
    for (const parts of [
      ['<span class="x">', '</span>'],
      ['<font>', '</font>'],
      ['<table>', '</table>'],
      ['<svg>', '</svg>'],
      ['<b><i>x</b></i>'],
      ['</div>'],
      ['</br>'],
      ['<b/>'],
      ['<b>1 < 2</b>'],
      ['<!-- x -->'],
      ['<details>'],
      ['<script>', '</script>'],
      ['<b onclick=x>', '</b>'],
    ]) expect(bare(...parts), parts.join(' ')).toBe(false);
    // One piece not bare sends the whole island through the sanitiser, which writes `<br />`.
    expect(renderNoteHtml('a<br>b <span class="x">c</span>\n', 'Title', links)).toBe('<p>a<br />b <span class="x">c</span></p>\n');
    expect(renderNoteHtml('a<br>b <b onclick="alert(1)">c</b>\n', 'Title', links)).toBe('<p>a<br />b <b>c</b></p>\n');
  });
});
