// CONTRACT §12: the sentence a backlink shows is the linking note's public text around the
// link, plain, never from code or private comments, never the linked note's title.
import { describe, expect, it } from 'vitest';
import { linkSnippets, sentenceAround, SNIPPET_MAX } from '../../shared/model/backlinks.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import type { VaultPath } from '../../shared/vault-path.ts';

const paths: Record<string, string> = { target: 'T.md', 't.md': 'T.md', other: 'O.md' };
/** A link's words in a snippet are isolated (FSI … PDI): `⁅x⁆` in these expectations. */
const iso = (s: string) => s.replace(/⁅/g, '\u2068').replace(/⁆/g, '\u2069');
const snippets = (body: string) => linkSnippets({ body, data: {} } as unknown as NoteRecord, {}, (t) => (paths[t.toLowerCase()] ?? null) as VaultPath | null);

describe('the sentence around a link', () => {
  it('is the sentence holding the link, markup gone, the link shown as written', () => {
    const s = snippets('# Title\n\nFirst sentence. The **second** one links [[Target|here]] and ==marks==. Third.\n');
    expect(s.get('T.md' as VaultPath)).toBe(iso('The second one links ⁅here⁆ and marks.'));
  });

  // A garden's `[[Marys Room]][^jackson-qualia-ref]—Jackson…` showed the reference's markup.
  it("leaves out a footnote's reference, drawn as a number on the page", () => {
    expect(snippets('Named in [[Target]][^jackson-ref], said Jackson[^2].\n\n[^jackson-ref]: A source.').get('T.md' as VaultPath)).toBe(iso('Named in ⁅Target⁆, said Jackson.'));
  });

  it('reads a wikilink whose display text holds brackets, as the page does', () => {
    expect(snippets('As argued in [[Target|Smith [2020] notes]], it holds.').get('T.md' as VaultPath)).toBe(iso('As argued in ⁅Smith [2020] notes⁆, it holds.'));
    // A display text ending in its own bracket takes the `]` after `]]`; a table's `\|` is the bar.
    expect(snippets('As argued in [[Target|Smith [2020]]], it holds.').get('T.md' as VaultPath)).toBe(iso('As argued in ⁅Smith [2020]⁆, it holds.'));
    expect(snippets('| a | [[Target\\|the cell]] |').get('T.md' as VaultPath)).toBe(iso('a · ⁅the cell⁆'));
    // A bracket in the target makes no link, on the page or here; a Markdown link inside a display text is the wikilink's.
    expect(snippets('Not [[Tar[get]] a link.').has('T.md' as VaultPath)).toBe(false);
    expect(snippets('One [[Other|see [x](Target)]] and [then](Target) this.').get('T.md' as VaultPath)).toBe(iso('One ⁅see [x](Target)⁆ and ⁅then⁆ this.'));
  });

  it('reads Markdown links, list items and quotes; the first link to a note wins', () => {
    expect(snippets('- See [the target](T.md#part) first.\n- Then [[Target]] again.').get('T.md' as VaultPath)).toBe(iso('See ⁅the target⁆ first.'));
    expect(snippets('> [!note] A callout naming [[Target]]').get('T.md' as VaultPath)).toBe(iso('A callout naming ⁅Target⁆'));
  });

  it("reads a table row as its cells, one after another: no pipe of the table's markup, an escaped one kept", () => {
    const table = '| Name | Where |\n|---|---|\n| b | [[Target]] |\n| a \\| c | see [[Other\\|it]] **here** |\n';
    expect(snippets(table).get('T.md' as VaultPath)).toBe(iso('b · ⁅Target⁆'));
    expect(snippets(table).get('O.md' as VaultPath)).toBe(iso('a | c · see ⁅it⁆ here'));
  });

  it('never comes from code or private comments', () => {
    const s = snippets('```\n[[Target]] in code\n```\n\nText %% a private [[Other]] %% here.\n\nOutside [[Target#Part]] code.');
    expect(s.get('T.md' as VaultPath)).toBe(iso('Outside ⁅Target &gt; Part⁆ code.'));
    expect(s.has('O.md' as VaultPath)).toBe(false);
  });

  it("keeps a link's words in their own direction: an English name in an Arabic sentence", () => {
    expect(snippets('مرحبا، اقرأ [[Target|(Draft) Plan]] اليوم.').get('T.md' as VaultPath)).toBe(iso('مرحبا، اقرأ ⁅(Draft) Plan⁆ اليوم.'));
  });

  it('brings the sentence before a link that stands alone in its own, else the one after', () => {
    // A list of tools, each described and then linked: the link's words alone are the page's own title.
    expect(snippets('- A tool for notes. It syncs. [[Target]]\n').get('T.md' as VaultPath)).toBe(iso('It syncs. ⁅Target⁆'));
    expect(snippets('[[Target|The target]]! It is where this starts. More.').get('T.md' as VaultPath)).toBe(iso('⁅The target⁆! It is where this starts.'));
    // A link alone on its line has nothing else to show.
    expect(snippets('- [[Target]]\n- [[Other]]').get('T.md' as VaultPath)).toBe(iso('⁅Target⁆'));
    // Words of its own in the sentence: the sentence alone.
    expect(snippets('One. Read [[Target]].').get('T.md' as VaultPath)).toBe(iso('Read ⁅Target⁆.'));
  });

  it('draws its math as the article does, its text escaped; math in code stays text', () => {
    const s = snippets('The energy $E=mc^2$ and $a. b$ see [[Target]] & <b>x</b>. Then `$y$` [[Other]].').get('T.md' as VaultPath)!;
    expect(s).toMatch(/^The energy <span class="katex" dir="ltr"><span class="katex-mathml"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML"><semantics>/);
    expect(s).toContain('<annotation encoding="application/x-tex">E=mc^2</annotation>');
    // A `.` inside math ends no sentence.
    expect(s).toContain('<annotation encoding="application/x-tex">a. b</annotation>');
    expect(s.endsWith(iso("</span> see ⁅Target⁆ &amp; &lt;b&gt;x&lt;/b&gt;."))).toBe(true);
    expect(s).not.toContain('$');
    expect(snippets('Then `$y$` is [[Other]].').get('O.md' as VaultPath)).toBe(iso('Then $y$ is ⁅Other⁆.'));
    // The math of the sentence a long line is cut to, not the line's first.
    const far = snippets(`$a$ ${'word '.repeat(60)}. ${'word '.repeat(60)}$b$ [[Target]] ${'word '.repeat(60)}`).get('T.md' as VaultPath)!;
    expect(far).toContain('<annotation encoding="application/x-tex">b</annotation>');
    expect(far).not.toContain('<annotation encoding="application/x-tex">a</annotation>');
  });

  it('is cut around the link when long', () => {
    const long = 'word '.repeat(100) + 'LINK ' + 'word '.repeat(100);
    const at = long.indexOf('LINK');
    const cut = sentenceAround(long, at);
    expect(cut.length).toBeLessThanOrEqual(SNIPPET_MAX + 2);
    expect(cut).toContain('LINK');
    expect(cut.startsWith('…') && cut.endsWith('…')).toBe(true);
  });
});
