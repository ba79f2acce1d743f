// With wikilinks turned off, Obsidian writes embeds as Markdown images: `![](manual.pdf)`,
// `![](song.mp3)`, `![](Other%20note.md)`, and shows the PDF, the player or the note. The site
// read each as a picture: a broken image, or nothing for a note.
import { describe, expect, it } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';

const links: RenderLinks = {
  note: (t) => (t.toLowerCase().startsWith('other note') ? { href: '/Other-note', title: 'Other note', headings: [{ level: 2, text: 'Part', id: 'part' }] } : null),
  attachment: (t) => `/${t}`,
  embed: (ref) => `<div class="embedded">${ref.target}#${ref.subpath.join('#')}</div>\n`,
};
const render = (body: string) => renderNoteHtml(body, 'Title', links);

describe('an embed written as a Markdown image', () => {
  it('of a PDF, audio or video shows it as its ![[…]] does, with the page, size and label written', () => {
    expect(render('![](att/manual.pdf#page=3)')).toContain('<iframe class="s-pdf-frame" src="/att/manual.pdf#page=3" title="manual.pdf" loading="lazy"></iframe>');
    expect(render('![](att/song.mp3)')).toBe('<p><audio controls src="/att/song.mp3"></audio></p>\n');
    expect(render('![|300](att/clip%20one.mp4)')).toBe('<p><video controls src="/att/clip one.mp4" width="300"></video></p>\n');
  });

  it('of a note or a section of one embeds it, lifted out of its paragraph, as ![[Other note#Part]] is', () => {
    expect(render('Before ![](Other%20note.md#Part) after')).toBe('<p>Before</p>\n<div class="embedded">Other note.md#Part</div>\n<p>after</p>\n');
    expect(analyzeNote('![](Other%20note.md#Part)').transclusions).toEqual([{ target: 'Other note.md', subpath: ['Part'], alias: null }]);
    expect(analyzeNote('![](att/manual.pdf)').files).toEqual(['att/manual.pdf']);
  });

  it('of a picture stays an image, and a web address stays what it was', () => {
    expect(render('![alt|100](att/pic.png)')).toContain('<img src="/att/pic.png" alt="alt" width="100"');
    expect(render('![](att/PHOTO.JPG)')).toContain('<img src="/att/PHOTO.JPG"');
    expect(render('![](https://example.org/manual.pdf)')).toBe('<p><img src="https://example.org/manual.pdf" alt="" loading="lazy"></p>\n');
  });
});

// With wikilinks off, Obsidian writes a link into the note's own heading as `[text](#A%20heading)`:
// it led to `#A%20heading`, an id no element has, where the heading's id is `a-heading`.
describe('a Markdown link into the note itself', () => {
  it("leads to its heading's or block's id on the page; an anchor no heading answers is left as written", () => {
    expect(render('Go [h](#Local%20heading), [b](#^blk), [raw](#custom-Id).\n\n## Local heading\n\ntext ^blk\n')).toContain(
      '<p>Go <a href="#local-heading">h</a>, <a href="#^blk">b</a>, <a href="#custom-Id">raw</a>.</p>',
    );
  });
});

// A research vault links a PDF's page (`[[paper.pdf#page=7|p. 7]]`; PDF++ adds `&selection=…`):
// Obsidian opens the PDF at that page, the site's link lost it.
describe('a link to a page of a PDF', () => {
  it('opens the browser\'s viewer at that page, from a wikilink or a Markdown link', () => {
    expect(render('[[paper.pdf#page=7|p. 7]]')).toBe('<p><a class="s-attachment internal-link" href="/paper.pdf#page=7">p. 7</a></p>\n');
    expect(render('[[paper.pdf#page=3&selection=12,0,14,20&color=yellow|p. 3]]')).toContain('href="/paper.pdf#page=3"');
    expect(render('![[paper.pdf#page=3&selection=1,2]]')).toContain('src="/paper.pdf#page=3"');
    expect(render('[p](paper.pdf#page=5) [q](<att/my paper.pdf#page=6>)')).toBe('<p><a href="/paper.pdf#page=5">p</a> <a href="/att/my paper.pdf#page=6">q</a></p>\n');
    expect(render('[[paper.pdf|whole]]')).toContain('href="/paper.pdf"');
  });
});
