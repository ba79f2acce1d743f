// CONTRACT §7's embeds, bounded per page. Depth and cycles alone let four 2.4 KB notes,
// each embedding the next 300 times, expand 90,300 embeds into a 13.9 MB page in 3 min.
// Past the budget an embed is a link to its note, as in the admin's view.
import type { EmbedFrame } from './env.ts';

/** Notes, sections or blocks expanded in place on one page, nested ones included. */
export const MAX_EMBEDS_PER_PAGE = 100;
/** Characters of embedded notes parsed for one page (the whole note, even for a section). */
export const MAX_EMBED_TEXT = 1_000_000;
/**
 * Characters of HTML the page's embeds may make: a note's own rendering is bounded
 * (render-budget.ts), but forty notes at their 5,000 formulas each, well within the text
 * above, made a 162 MB page.
 */
export const MAX_EMBED_HTML = 8_000_000;

/** Whether the page has room to expand one more embed. */
export function embedBudgetLeft(frame: EmbedFrame): boolean {
  return frame.count < MAX_EMBEDS_PER_PAGE && (frame.text ?? 0) < MAX_EMBED_TEXT && (frame.html ?? 0) < MAX_EMBED_HTML;
}

/** An embed expanded on the page made `html`. */
export function spendEmbedHtml(frame: EmbedFrame, html: string): void {
  frame.html = (frame.html ?? 0) + html.length;
}

/** One more embed expanded on the page; `body` is the text parsed for it. */
export function spendEmbed(frame: EmbedFrame, body: string): void {
  frame.count++;
  frame.text = (frame.text ?? 0) + body.length;
}
