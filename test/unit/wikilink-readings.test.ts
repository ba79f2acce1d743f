// One reading of a wikilink, whichever part reads it: the renderer, the note index and
// rename's rewrite (shared/wikilinks.ts), the editor's follow-the-link. A display text may
// hold single brackets (`[[Paper|Smith [2020] notes]]`, and `[[Paper|Smith [2020]]]` keeps
// its `]`), a target or heading none (Obsidian allows none in a file name); in a table the
// bar is written `\|`, and the target is the name before it, so a rename rewrites it too.
import { describe, expect, it } from 'vitest';
import { renderNoteHtml, type RenderLinks } from '../../shared/note/markdown.ts';
import { parseWikiLinks, wholeLink } from '../../shared/wikilinks.ts';
import { rewriteNoteLinks } from '../../shared/markdown-links.ts';
import { wikilinkAt } from '../../admin/ui/src/editor/links.ts';

const links: RenderLinks = { note: (t) => ({ href: `/${t}`, title: t }), attachment: () => null };
const rendered = (md: string) => [...renderNoteHtml(md, 'Title', links).matchAll(/<a class="s-wikilink internal-link" href="\/([^"]*)">([^<]*)<\/a>/g)].map((m) => [m[1], m[2]]);
const parsed = (md: string) => parseWikiLinks(md).map((l) => [l.target, l.alias ?? l.target]);

describe('a wikilink is read one way', () => {
  it.each([
    ['[[Paper|Smith [2020] notes]]', [['Paper', 'Smith [2020] notes']]],
    ['[[Paper|Smith [2020]]] after', [['Paper', 'Smith [2020]']]],
    ['[[Paper|a ] b]] and [[Note]]', [['Paper', 'a ] b'], ['Note', 'Note']]],
    ['| [[Paper\\|see [1]]] |', [['Paper', 'see [1]']]],
  ])('%s: the page and the note index agree', (md, expected) => {
    expect(rendered(md)).toEqual(expected);
    expect(parsed(md)).toEqual(expected);
  });

  it.each(['[[P[x]|a]]', '[[a]b]]', '[[a [[b', '[[c|[[d e]]'])('%s: a bracket in a target, or a [[ inside, makes no link of the outer pair', (md) => {
    expect(parsed(md).filter(([t]) => t !== 'b' && t !== 'd e')).toEqual([]);
    expect(rendered(md).filter(([t]) => t !== 'b' && t !== 'd e')).toEqual([]);
  });

  it('a rename rewrites links whose display text holds brackets, and links in a table', () => {
    const text = 'See [[Paper|Smith [2020]]], ![[Paper#Intro]] and\n\n| a | b |\n|---|---|\n| [[Paper\\|cited [3]]] | [[Paper#Method\\|how]] |\n';
    expect(rewriteNoteLinks(text, 'Note.md', (t) => (t === 'Paper' ? 'Papers/Paper 2' : null))).toBe(
      'See [[Papers/Paper 2|Smith [2020]]], ![[Papers/Paper 2#Intro]] and\n\n| a | b |\n|---|---|\n| [[Papers/Paper 2\\|cited [3]]] | [[Papers/Paper 2#Method\\|how]] |\n',
    );
  });

  it("the editor follows the link the caret is on, over the display text's brackets", () => {
    const line = 'x [[Paper|Smith [2020]]] y [[Note#H\\|t]]';
    expect(wikilinkAt(line, 15)).toEqual({ target: 'Paper', heading: null, from: 2, to: 24 });
    expect(wikilinkAt(line, 30)).toEqual({ target: 'Note', heading: 'H', from: 27, to: 40 });
    expect(wikilinkAt(line, 25)).toBeNull();
  });

  it('a frontmatter value that is one link (a banner, a twin, a base cell) is read the same way', () => {
    expect(wholeLink(' [[cover.png|Cover [wide]]] ')).toMatchObject({ target: 'cover.png', alias: 'Cover [wide]', embed: false });
    expect(wholeLink('![[Note#Part|Shown]]')).toMatchObject({ target: 'Note', heading: 'Part', alias: 'Shown', embed: true });
    expect(wholeLink('[[a]] ')).toMatchObject({ target: 'a', at: 0 });
    for (const value of ['[[a]] and [[b]]', 'see [[a]]', 'plain', '[[#Local]]']) expect(wholeLink(value), value).toBeNull();
  });
});
