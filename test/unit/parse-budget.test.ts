// What one note's parse may hold (shared/note/parse-budget.ts): 4 MB of `a\n\n` held 1.5 GB of
// tokens, and a 16 MB note took the build process past every heap the server gave it. Past the
// budget, the rest of the note shows as written, and its facts say how many lines that is.
import { describe, expect, it } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { prepareNoteHtml, renderNoteHtml } from '../../shared/note/markdown.ts';
import { blockTokens, markdown } from '../../shared/note/md.ts';
import { cutAtBudget, MAX_NOTE_MARKS } from '../../shared/note/parse-budget.ts';
import { publicText } from '../../shared/note/public-text.ts';
import type { RenderLinks } from '../../shared/note/env.ts';

const links: RenderLinks = { note: (t) => ({ href: `/${t}`, title: t, headings: [] }), attachment: () => null, tag: (t) => `/topic/${t}` };

/** Every token a parse made, its inline children counted. */
function tokenCount(text: string): number {
  let n = 0;
  for (const token of markdown().parse(text, {})) n += 1 + (token.children?.length ?? 0);
  return n;
}

/** Markup that makes the most tokens for its size: blocks, nesting, tables, inline marks, links, math, HTML. */
const DENSE = ['a\n\n', '- a\n', '- - - - a\n', '> > a\n\n', '|a|b|\n', '*a* ', '**a** ', '[[a]] ', '`a` ', '$x$ ', '<b>x</b> ', '#t ', 'a\\\n', '[^1] ', '1. a\n', '# a\n', '---\n', '~~a~~ ', '==a== ', 'https://a.b ', '![[a.png]] ', '&amp; ', '- [ ] a\n', '> [!note] a\n\n', '$$\nx\n$$\n'];

/** A mark: a line's end or ASCII punctuation (parse-budget.ts). */
const marksOf = (text: string) => [...text].filter((c) => c === '\n' || /[!-/:-@[-`{-~]/.test(c)).length;

describe('a note past its parse budget', () => {
  it('is cut at the start of the line where its marks pass the budget; a shorter or plainer one is not read at all', () => {
    expect(cutAtBudget('a'.repeat(MAX_NOTE_MARKS))).toBeNull();
    // Long, but prose: few marks.
    expect(cutAtBudget('word '.repeat(MAX_NOTE_MARKS))).toBeNull();
    const lines = Array.from({ length: MAX_NOTE_MARKS + 10 }, (_, i) => `line ${i}`).join('\n');
    const cut = cutAtBudget(lines)!;
    expect(cut.head.endsWith(`line ${MAX_NOTE_MARKS - 1}\n`)).toBe(true);
    expect(cut.rest.text.startsWith(`line ${MAX_NOTE_MARKS}\n`)).toBe(true);
    expect(cut.rest.lines).toBe(10);
    expect(cut.head + cut.rest.text).toBe(lines);
    // One line past the budget on its own: all of it is the rest.
    expect(cutAtBudget('*'.repeat(MAX_NOTE_MARKS + 1))!.head).toBe('');
  });

  it('no mark of any dense markup makes more than four tokens: the premise of the bound', () => {
    for (const piece of DENSE) {
      const marks = marksOf(piece);
      const repeats = Math.ceil(4000 / Math.max(1, marks));
      const text = piece.repeat(repeats);
      expect(tokenCount(text), JSON.stringify(piece)).toBeLessThanOrEqual(4 * marks * repeats + 16);
      expect(blockTokens(text).length, JSON.stringify(piece)).toBeLessThanOrEqual(4 * marks * repeats);
    }
  });

  it('holds at most four tokens a mark of the budget, however far past it the markup runs, and shows the rest as written at the end', () => {
    // The piece with the most tokens a mark (nested lists) and plain paragraphs, at five times the budget's marks: read whole, each passes the bound.
    for (const piece of ['- - - - a\n', 'a\n\n']) {
      const text = piece.repeat(Math.ceil((5 * MAX_NOTE_MARKS) / marksOf(piece)));
      expect(tokenCount(text), JSON.stringify(piece)).toBeLessThanOrEqual(4 * MAX_NOTE_MARKS + 16);
      // The block parse that finds code and math stops there too.
      expect(blockTokens(text).length, JSON.stringify(piece)).toBeLessThanOrEqual(4 * MAX_NOTE_MARKS);
    }
    for (const piece of ['a\n\n', '*a* ']) {
      const facts = analyzeNote(piece.repeat(Math.ceil((1.2 * MAX_NOTE_MARKS) / 2)), 'Dense');
      expect(facts.markupCut, JSON.stringify(piece)).toBeGreaterThan(0);
      expect(facts.prepared!.html.trimEnd().endsWith('</pre>'), JSON.stringify(piece)).toBe(true);
    }
  }, 60_000);

  it('the rest is text: its HTML escaped, its private comments still removed, its lines kept', () => {
    const head = 'Intro with [[Link]].\n\n' + 'x\n'.repeat(MAX_NOTE_MARKS);
    const body = `${head}secret %%hidden%% shown <script>alert(1)</script>\nلكن السطر الأخير\n`;
    const html = renderNoteHtml(body, 'Rest', links);
    expect(html).toContain('<a class="s-wikilink internal-link" href="/Link">Link</a>');
    expect(html).toContain('<pre class="note-rest" dir="auto">');
    expect(html).toContain('secret  shown &lt;script&gt;alert(1)&lt;/script&gt;\nلكن السطر الأخير\n</pre>');
    expect(html).not.toContain('hidden');
    expect(html).not.toContain('<script>');
    expect(prepareNoteHtml(body, 'Rest').html).toContain('&lt;script&gt;');
    expect(publicText(body)).not.toContain('hidden');
  });

  it('a long note of prose, links and lists is read whole', () => {
    const paragraph = 'A paragraph of prose, with a [[Link]], some *emphasis*, a date (2026-12-07) and a https://example.org link.\n\n- an item\n- another item\n\n';
    const body = paragraph.repeat(Math.floor(300_000 / paragraph.length));
    const facts = analyzeNote(body, 'Long');
    expect(facts.markupCut).toBe(0);
    expect(facts.prepared!.html).not.toContain('note-rest');
  });
});
