// `$$` blocks where Obsidian writes them: inside list items and callouts, indented with a tab
// (Obsidian's default), and cut short by the end of the block they sit in.
import { describe, expect, it } from 'vitest';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';

const links: RenderLinks = { note: () => null, attachment: () => null, tag: (t) => `/topic/${t}` };
const render = (body: string) => renderNoteHtml(body, 'Title', links);
/** The TeX each formula was made from, in order. */
const formulas = (html: string) => [...html.matchAll(/<annotation encoding="application\/x-tex">([^<]*)<\/annotation>/g)].map((m) => m[1]!.trim());

describe('a display formula inside a list item', () => {
  for (const [indent, name] of [['\t', 'a tab'], ['  ', 'two spaces'], ['    ', 'four spaces']] as const) {
    it(`indented with ${name}: one formula under the item, and the next item kept`, () => {
      const html = render(`- Definitions:\n${indent}$$\n${indent}\\begin{aligned}\n${indent}a &= b \\\\\n${indent}c &= d\n${indent}\\end{aligned}\n${indent}$$\n- next item\n`);
      expect(formulas(html)).toEqual(['\\begin{aligned}\na &amp;= b \\\\\nc &amp;= d\n\\end{aligned}']);
      expect(html).toMatch(/<\/p>\n<\/li>\n<li>next item<\/li>\n<\/ul>/);
      expect(html).not.toContain('\\text');
    });
  }

  it('inside a callout, tab-indented', () => {
    const html = render('> [!note]\n> - In a callout:\n> \t$$\n> \tc = d\n> \t$$\n> - also kept\n');
    expect(formulas(html)).toEqual(['c = d']);
    expect(html).toContain('<li>also kept</li>');
  });

  it('a formula never closed in its item ends with the item, and the next item stays', () => {
    const html = render('- one\n\t$$\n\tx + 1\n- two\n\nafter');
    expect(formulas(html)).toEqual(['x + 1']);
    expect(html).toContain('<li>two</li>');
    expect(html).toContain('<p>after</p>');
  });
});
