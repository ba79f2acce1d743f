// Arabic and English in one note (shared/note/block-direction.ts): each block of a note that
// holds a right-to-left letter takes its own first strong character's direction (`dir="auto"`,
// the admin editor's rule for each line); a note without one renders as it did.
import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { blockDirectionPlugin } from '../../shared/note/block-direction.ts';
import { markdown } from '../../shared/note/md.ts';

const render = (text: string) => markdown().render(text, {});
const dirs = (html: string) => [...html.matchAll(/<(p|h\d|li|th|td)\b([^>]*)>/g)].map((m) => `${m[1]}:${/ dir="(\w+)"/.exec(m[2]!)?.[1] ?? '-'}`);

describe('block direction', () => {
  it('gives each paragraph, heading, list item and table cell of a note holding Arabic or Hebrew its own direction', () => {
    const note = ['## Notes on publishing', 'An English paragraph.', 'فقرة عربية.', '- first item\n- עברית', '| Feature | الميزة |\n|---|---|\n| Backlinks | الروابط |', '> اقتباس'].join('\n\n');
    expect(dirs(render(note))).toEqual(['h2:auto', 'p:auto', 'p:auto', 'li:auto', 'li:auto', 'th:auto', 'th:auto', 'td:auto', 'td:auto', 'p:auto']);
    expect(dirs(render('שלום\n\nHello'))).toEqual(['p:auto', 'p:auto']);
  });

  it('leaves a block with no letter of its own (a picture, a year, a number in a cell) in the article’s direction, where `dir="auto"` would set it left to right', () => {
    const note = ['فقرة عربية.', '![](photo.png)', '![[صورة.png]]', '## 2024', '| المدينة | السكان |\n|---|---|\n| القاهرة | 10,000,000 |', '- 15\n- [[ملاحظة]]'].join('\n\n');
    expect(dirs(render(note))).toEqual(['p:auto', 'p:-', 'p:-', 'h2:-', 'th:auto', 'th:auto', 'td:auto', 'td:-', 'li:-', 'li:auto']);
  });

  it('marks each formula left to right, so a block opening with one takes its direction from its words (`dir="auto"` passes over it)', () => {
    for (const text of ['$x$ هي القيمة.', '$$x^2$$ وهذه معادلة.', '$\\frac{1}{0$ خطأ']) {
      const html = render(text);
      expect(html, text).toMatch(/^<p dir="auto">/);
      expect(html, text).toMatch(/<span class="katex(-error)?" dir="ltr"/);
    }
  });
  // A Persian and an Egyptian Arabic vault: `int **` showed as `**int`, numbers of a loose list stood at the left, callout titles ran the article's way.
  it('keeps code left to right and out of the choice; a loose list item takes the direction, not its paragraph; a callout title takes its own', () => {
    expect(render('- ابعت العنوان (`int **`).')).toContain('<li dir="auto">ابعت العنوان (<code dir="ltr">int **</code>).</li>');
    expect(dirs(render('`names[0]` بيشاور على الاسم\n\n- `code only`'))).toEqual(['p:auto', 'li:-']);
    expect(dirs(render('1. مورد یک\n\n2. مورد دو\n\n   second paragraph'))).toEqual(['li:auto', 'p:-', 'li:auto', 'p:-', 'p:auto']);
    expect(render('> [!note] Static (C/C++)\n> نص')).toContain('<span class="callout-title-inner" dir="auto">Static (C/C++)</span>');
    // A note without a right-to-left letter is left as it was.
    expect(render('Plain `code` here.')).toBe('<p>Plain <code>code</code> here.</p>\n');
  });
  it('leaves a note without a right-to-left letter as markdown-it renders it', () => {
    const note = '# Title\n\nA paragraph.\n\n- a\n- b\n\n| x | y |\n|---|---|\n| 1 | 2 |\n';
    const plain = new MarkdownIt();
    const withRule = new MarkdownIt().use(blockDirectionPlugin);
    expect(withRule.render(note)).toBe(plain.render(note));
    expect(render(note)).not.toContain('dir=');
  });
});
