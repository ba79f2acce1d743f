// A note's math, bounded. KaTeX writes about 1.4 KB of HTML for `$x_1^2$`: a 2.4 MB note of
// formulas made a 277 MB page in 36 s, and a note of the 16 MB allowed would pass the longest
// string V8 can hold. Past the budget a formula shows as its TeX, in the order the renderer
// meets them, and Site health counts those (`math-cut`).
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

/** A formula past the budget, as its TeX: a block of its own as code on its lines, any other in the line. */
export function formulaSource(tex: string, ownBlock: boolean): string {
  return ownBlock ? `<pre class="math-source"><code>$$\n${escapeHtml(tex.trim())}\n$$</code></pre>\n` : `<code class="math-source">$${escapeHtml(tex)}$</code>`;
}
