// What one note's rendering may cost, where a note could make it cost without bound.
//
// Math: KaTeX writes about 1.4 KB of HTML for `$x_1^2$`: a 2.4 MB note of formulas made a
// 277 MB page in 36 s, and a note of the 16 MB allowed would pass the longest string V8 can
// hold. Past the budget a formula shows as its TeX, in the order the renderer meets them, and
// Site health counts those (`too-much-math`).
//
// Code: Prism's colouring takes time in the square of a block's length for some grammars and
// texts (200 KB of `[` in a ```markdown block took 124 s, of `<a ` in ```html 36 s). Past the
// budget a block is plain text, as a language Prism lacks: nothing is lost but its colours.
import { escapeHtml } from './escape.ts';

/** Formulas rendered for one note (a long lecture's notes hold a few hundred). */
export const MAX_FORMULAS_PER_NOTE = 5_000;
/** Characters of TeX rendered for one note. */
export const MAX_FORMULA_TEXT = 200_000;

/** What one note's rendering (or its analysis, counting alike) has spent. */
export interface MathBudget {
  formulas: number;
  text: number;
  /** Formulas past the budget, shown as their TeX. */
  cut: number;
}

export const newMathBudget = (): MathBudget => ({ formulas: 0, text: 0, cut: 0 });

/** Whether the next formula, of TeX `tex`, is rendered; counted either way. */
export function formulaFits(budget: MathBudget, tex: string): boolean {
  if (budget.formulas < MAX_FORMULAS_PER_NOTE && budget.text + tex.length <= MAX_FORMULA_TEXT) {
    budget.formulas++;
    budget.text += tex.length;
    return true;
  }
  budget.cut++;
  return false;
}

/** A formula past the budget, as its TeX: a block of its own as code on its lines, any other in the line; left to right in any note, as TeX is. */
export function formulaSource(tex: string, ownBlock: boolean): string {
  return ownBlock ? `<pre class="math-source" dir="ltr"><code>$$\n${escapeHtml(tex.trim())}\n$$</code></pre>\n` : `<code class="math-source" dir="ltr">$${escapeHtml(tex)}$</code>`;
}

/** Characters of one code block coloured (about 400 lines; 16 KB of the worst case above takes 0.8 s). */
export const MAX_HIGHLIGHTED_BLOCK = 16_000;
/** Characters of code coloured for one note, its blocks in order. */
export const MAX_HIGHLIGHTED_TEXT = 64_000;

/** Characters of code a note's earlier blocks had coloured. */
export interface CodeBudget {
  text: number;
}

/** Whether the next code block, of `size` characters, is coloured; counted when it is. */
export function highlightFits(budget: CodeBudget, size: number): boolean {
  if (size > MAX_HIGHLIGHTED_BLOCK || budget.text + size > MAX_HIGHLIGHTED_TEXT) return false;
  budget.text += size;
  return true;
}

/** What one rendering has spent, or renderings making one page together (a canvas's text nodes share one, as a note's blocks do). */
export interface RenderSpent {
  math: MathBudget;
  code: CodeBudget;
}

export const newRenderSpent = (): RenderSpent => ({ math: newMathBudget(), code: { text: 0 } });
