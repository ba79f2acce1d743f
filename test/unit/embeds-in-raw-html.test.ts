// An embed or a base block that the author's raw HTML surrounds (a `<div>` around a canvas)
// is our own HTML, made safe where it was made: it goes in after the sanitiser, whole, as it
// shows outside raw HTML (the sanitiser took a canvas's arrows and colours). The author's HTML
// around it is sanitised as before, and an embed the author's HTML leaves inside a tag
// (`<div title="` before it) is left out, never written into an attribute.
import { describe, expect, it } from 'vitest';
import { fillPrepared, prepareNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';

/** What a canvas draws with, which the sanitiser does not allow (markers, strokes, colours). */
const CANVAS = '<figure class="s-canvas" style="--w:400px"><svg viewBox="0 0 10 10"><defs><marker id="s-arrow-1" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="currentColor"/></marker></defs><path d="M1 1 L9 9" stroke="#e93147" marker-end="url(#s-arrow-1)"/></svg><div class="s-canvas-node" style="left:4px">Node text</div></figure>';
const BASE = '<div class="s-base" style="--cols:2"><table><tr><td><a href="/A">A</a></td></tr></table></div>';
const EMBED = '<div class="markdown-embed" data-src="Other"><p>Embedded <mark>words</mark></p><svg class="s-diagram"><path d="M0 0" stroke="red"/></svg></div>';

const links: RenderLinks = {
  note: (t) => (t.toLowerCase() === 'other' ? { href: '/Other', title: 'Other' } : null),
  attachment: () => null,
  document: (t) => (t === 'Board.canvas' ? CANVAS : null),
  base: () => BASE,
  embed: (ref) => (ref.target === 'Other' ? EMBED : null),
};

const page = (body: string) => fillPrepared(prepareNoteHtml(body, 'Note'), links, 'Note.md#');

describe('own blocks inside raw HTML', () => {
  it.each([
    ['a canvas', '![[Board.canvas]]', CANVAS],
    ['a base block', '```base\nviews:\n  - type: table\n```', BASE],
    ['an embedded note', '![[Other]]', EMBED],
  ])('%s inside an author\'s <div> shows whole, as it does without one', (_what, markdown, own) => {
    const bare = page(`Before.\n\n${markdown}\n\nAfter.`);
    expect(bare).toContain(own);
    const wrapped = page(`<div class="wrap" onclick="alert(1)">\n\n${markdown}\n\n</div>\n\n<script>alert(2)</script>\n\nAfter.`);
    expect(wrapped).toContain(own);
    expect(wrapped).toContain('<div class="wrap">');
    expect(wrapped).not.toMatch(/onclick|<script|alert\(2\)/);
  });

  it('an island the author leaves open to the end still takes its blocks whole', () => {
    const html = page('<details><summary>Board</summary>\n\n![[Board.canvas]]\n\nMore *text*.');
    expect(html).toContain(CANVAS);
    expect(html).toMatch(/^<details><summary>Board<\/summary>/);
  });

  it('a block the author\'s HTML leaves inside a tag is left out, never written into the attribute', () => {
    // The title's quote is closed by the next raw `"`, in a paragraph after the embeds.
    const html = page('<div title="\n\n![[Board.canvas]]\n\n![[Other]]\n\nA <span x="">after</span> the quote\n\nEnd.');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('markdown-embed');
    expect(html).not.toContain('\u0000');
    // The title holds the escaped text the sanitiser made of it, nothing of ours.
    expect(html).toMatch(/^<div title="[^"<>]*">after the quote/);
    // Without a quote to close it, the author's tag takes the rest of its island, and nothing of ours either.
    const open = page('<div title="\n\n![[Board.canvas]]\n\nEnd.');
    expect(open).not.toMatch(/<svg|\u0000/);
  });

  it('a block the sanitiser drops with its element (a <textarea>) is not put back', () => {
    const html = page('<textarea>\n\n![[Board.canvas]]\n\n</textarea>\n\nEnd.');
    expect(html).not.toContain('<svg');
    expect(html).not.toContain('\u0000');
    expect(html).toContain('End.');
  });
});
