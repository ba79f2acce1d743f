// `^id` on the line right under a table, with no blank line between: every roll table that
// ttrpg-convert-cli writes (1,547 of them in one 5e vault), and hand-made ones a callout embeds
// (`![[#^table-miss]]`). The table's rule read the line as a last row: the id showed in a cell,
// and every embed of the table showed nothing.
import { describe, expect, it } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';

const links: RenderLinks = { note: () => null, attachment: () => null, tag: (t) => `/topic/${t}` };
const render = (body: string) => renderNoteHtml(body, 'Title', links);

describe('a block id on the line under a table', () => {
  it('names the table and is no row', () => {
    const html = render('| d8 | Gem |\n| --- | --- |\n| 1 | Azurite |\n| 2 | Blue |\n^10-gp-gemstones\n\nAfter.');
    expect(html).toMatch(/^<table id="\^10-gp-gemstones">/);
    expect(html).not.toContain('<td>^10-gp-gemstones</td>');
    expect(html.match(/<tr>/g)).toHaveLength(3);
    expect(analyzeNote('| a |\n|---|\n| 1 |\n^t1\n').blockIds).toContain('t1');
  });

  it('under a table with no other row, inside a callout too', () => {
    expect(render('| a |\n|---|\n^only')).toBe('<table id="^only">\n<thead>\n<tr>\n<th>a</th>\n</tr>\n</thead>\n</table>\n');
    expect(render('> [!note]\n> | a |\n> |---|\n> | 1 |\n> ^in-callout')).toContain('<table id="^in-callout">');
  });

  it('a cell that holds `^id` in a row of pipes stays a cell', () => {
    const html = render('| a | b |\n|---|---|\n| ^cell | x |\n| ^alone |');
    expect(html).toContain('<td>^cell</td>');
    expect(html).toContain('<td>^alone</td>');
    expect(html).toMatch(/^<table>/);
  });
});
