// A note's math is bounded (shared/note/render-budget.ts): KaTeX writes about 1.4 KB of HTML for
// `$x_1^2$`, so a 2.4 MB note of formulas made a 277 MB page in 36 s. Past the budget a formula
// shows as its TeX, and the note's facts count those, as its rendering does.
import { describe, expect, it } from 'vitest';
import { analyzeNote } from '../../shared/note/analyze.ts';
import { renderNoteHtml } from '../../shared/note/markdown.ts';
import { MAX_FORMULA_TEXT, MAX_FORMULAS_PER_NOTE } from '../../shared/note/render-budget.ts';
import type { RenderLinks } from '../../shared/note/env.ts';

const links: RenderLinks = { note: () => null, attachment: () => null };
const count = (html: string, what: RegExp) => html.match(what)?.length ?? 0;

describe('a note with more math than a page renders', () => {
  it(`renders its first ${MAX_FORMULAS_PER_NOTE} formulas and shows the rest as TeX, in the order written, counted alike by its facts`, () => {
    const extra = 1_000;
    const body = Array.from({ length: MAX_FORMULAS_PER_NOTE + extra }, (_, i) => `Step ${i}: $x_{${i}}^2$.`).join('\n\n') + '\n\n$$\n\\sum_i x_i\n$$\n';
    const started = Date.now();
    const facts = analyzeNote(body, 'Math');
    const html = renderNoteHtml(body, 'Math', links);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(facts.math).toBe(true);
    // The display block at the end is past the budget too: a block of its own, as code.
    expect(facts.mathCut).toBe(extra + 1);
    expect(count(html, /<code class="math-source" dir="ltr">/g)).toBe(extra);
    expect(count(html, /<pre class="math-source" dir="ltr">/g)).toBe(1);
    expect(count(html, /class="katex"/g)).toBe(MAX_FORMULAS_PER_NOTE);
    // The last rendered formula and the first one past the budget, where they were written.
    expect(html).toContain(`Step ${MAX_FORMULAS_PER_NOTE - 1}: <span class="katex" dir="ltr">`);
    expect(html).toContain(`Step ${MAX_FORMULAS_PER_NOTE}: <code class="math-source" dir="ltr">$x_{${MAX_FORMULAS_PER_NOTE}}^2$</code>`);
    expect(html).toContain('<pre class="math-source" dir="ltr"><code>$$\n\\sum_i x_i\n$$</code></pre>');
    // Bounded: about 1.4 KB a rendered formula, the rest as written.
    expect(html.length).toBeLessThan(MAX_FORMULAS_PER_NOTE * 2_000 + body.length * 2);
  }, 60_000);

  it('a formula longer than the TeX budget shows as TeX, escaped; the short ones after it still render', () => {
    // Letters: a formula of marks that long would pass the note's parse budget first (parse-budget.ts).
    const huge = `$${'ab'.repeat(MAX_FORMULA_TEXT / 2)}<b>$`;
    const body = `${huge}\n\nThen $y^2$.`;
    const html = renderNoteHtml(body, 'Huge', links);
    expect(analyzeNote(body, 'Huge').mathCut).toBe(1);
    expect(html).toContain('b&lt;b&gt;$</code>');
    expect(html).not.toContain('<b>');
    expect(count(html, /class="katex"/g)).toBe(1);
  });

  it('a note within the budget renders every formula and counts none', () => {
    const body = Array.from({ length: 300 }, (_, i) => `$a_${i}$`).join(' ');
    expect(analyzeNote(body, 'Fine').mathCut).toBe(0);
    const html = renderNoteHtml(body, 'Fine', links);
    expect(count(html, /class="katex"/g)).toBe(300);
    expect(html).not.toContain('math-source');
  });
});
