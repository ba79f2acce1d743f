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

// Outline-style student notes write `- ## Corollario: ^e2ecda`, Obsidian's own random id: the id
// showed in the heading and the table of contents, and `![[Note#^e2ecda]]` found no block.
describe('a block id at the end of a heading\'s line', () => {
  it('is hidden; the list item holding the heading takes it', () => {
    const html = render('- ## Corollario: ^e2ecda\n  - a child\n');
    expect(html).toMatch(/^<ul>\n<li id="\^e2ecda">\n<h2 id="corollario">Corollario:/);
    expect(html).not.toContain('e2ecda</h2>');
    const facts = analyzeNote('- ## Corollario: ^e2ecda\n  - a child\n');
    expect(facts.blockIds).toContain('e2ecda');
    expect(facts.headings.map((h) => h.text)).toEqual(['Corollario:']);
  });

  it('a heading elsewhere keeps the id its name gives it; an anchor before it carries the block\'s', () => {
    expect(render('## Outside ^abc123\n\ntext')).toMatch(/^<a id="\^abc123"><\/a>\n<h2 id="outside">Outside<a class="s-anchor"/);
    expect(render('## ^only')).toMatch(/<h2 id="only">\^only/);
  });
});
