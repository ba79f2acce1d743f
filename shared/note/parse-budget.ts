// What one note's parse may hold. markdown-it makes a token or more of each block and of each
// piece of inline markup, some 270 bytes each: 4 MB of `a\n\n` held 1.5 GB, and a note of the
// 16 MB a note may be took the build process past its heap, then each new one the server
// started with twice the heap, up to GBs. A token needs a mark: a line's end or a piece of
// ASCII punctuation, and no mark makes more than four (a list nested in a list). So a note is
// parsed up to the line where its marks pass the budget, and the rest shows as written (escaped,
// its lines kept); Site health says so (`too-much-markup`). Every parse of a note goes through
// the one renderer's first rule (md.ts), so the admin's views, embeds and the search text agree.
import type MarkdownIt from 'markdown-it';
import type StateCore from 'markdown-it/lib/rules_core/state_core.mjs';
import { escapeHtml } from './escape.ts';

/** Marks one note's parse reads: about 3 MB of prose, 400 KB of the densest markup (a worst case of a million tokens, some 270 MB). */
export const MAX_NOTE_MARKS = 250_000;

/** The part of a note past the budget, and its lines: left out of the parse, shown as written. */
export interface NoteRest {
  text: string;
  lines: number;
}

/** `src` cut at the start of the line where its marks pass MAX_NOTE_MARKS, or null when they never do. */
export function cutAtBudget(src: string): { head: string; rest: NoteRest } | null {
  // Each mark is a character: a shorter text cannot pass the budget, and is not read here at all.
  if (src.length <= MAX_NOTE_MARKS) return null;
  let marks = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src.charCodeAt(i);
    // A line's end, or ASCII punctuation: what markdown-it's rules start a token at.
    if (c === 10 || (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || (c >= 123 && c <= 126)) {
      if (++marks > MAX_NOTE_MARKS) {
        const at = src.lastIndexOf('\n', c === 10 ? i - 1 : i) + 1;
        const text = src.slice(at);
        let lines = 1;
        for (let j = text.indexOf('\n'); j >= 0 && j < text.length - 1; j = text.indexOf('\n', j + 1)) lines++;
        return { head: src.slice(0, at), rest: { text, lines } };
      }
    }
  }
  return null;
}

/** Where a parse keeps the rest it cut (on its env: markdown-it hands the same one to every rule). */
const REST = Symbol('note rest');
type WithRest = { [REST]?: NoteRest | null };

/** Cuts a parse's source (the renderer's first rule calls it): the head is parsed, the rest kept for `noteRest` and the last rule. */
export function budgetSource(src: string, env: object | undefined): string {
  const cut = cutAtBudget(src);
  if (env) (env as WithRest)[REST] = cut?.rest ?? null;
  return cut ? cut.head : src;
}

/** The rest of the note the last parse with `env` left out, or null. */
export const noteRest = (env: object): NoteRest | null => (env as WithRest)[REST] ?? null;

/** The rest as one block at the note's end, written as it is: its text, escaped, its lines kept. */
export function noteRestPlugin(md: MarkdownIt): void {
  md.core.ruler.push('note_rest', (state: StateCore) => {
    const rest = state.env ? noteRest(state.env as object) : null;
    if (!rest) return;
    const token = new state.Token('note_rest', 'pre', 0);
    token.content = rest.text;
    token.block = true;
    state.tokens.push(token);
  });
  md.renderer.rules.note_rest = (tokens, idx) => `<pre class="note-rest" dir="auto">${escapeHtml(tokens[idx]!.content)}</pre>\n`;
}
