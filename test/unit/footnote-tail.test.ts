// markdown-it-footnote's tail rule copied the note's whole token list once per footnote: a
// note of 10,000 footnotes took four seconds to parse. Ours (shared/note/footnote-tail.ts)
// makes the plugin's tokens in one pass: the HTML of every note here is what the plugin's own
// rule makes of it.
import MarkdownIt from 'markdown-it';
import footnote from 'markdown-it-footnote';
import type { PluginSimple } from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { linearFootnoteTail } from '../../shared/note/footnote-tail.ts';
import { seeded } from '../helpers/seeded.ts';

function md(linear: boolean): MarkdownIt {
  const it = new MarkdownIt({ html: true }).use(footnote as unknown as PluginSimple);
  if (linear) linearFootnoteTail(it);
  return it;
}

describe('the footnote list', () => {
  const theirs = md(false);
  const ours = md(true);

  it('is what markdown-it-footnote makes of notes with references, inline notes, repeats and unused definitions', () => {
    const known = [
      'Text[^1] and more[^note].\n\n[^1]: First.\n[^note]: Second,\n    with a second paragraph.\n\n    And a third.',
      'Inline^[an *inline* note] and a repeat[^a][^a].\n\n[^a]: Once.',
      'No footnotes here.',
      '[^x]: Defined, never used.',
      'Missing[^gone].',
      '- in a list[^l]\n\n> quoted[^q]\n\n[^l]: List.\n[^q]: Quote.\n\n```\n[^code]\n```',
      '[^1]\n\n[^1]: - a list\n    - in a note',
    ];
    const next = seeded(21);
    const pieces = ['text ', '[^1]', '[^2]', '[^a]', '^[inline]', '\n\n', '\n[^1]: def one', '\n[^2]: def two\n    more', '\n[^a]: *a*', '\n\n- item', '\n> q', ' `c` ', '**b**'];
    const texts = [...known];
    for (let i = 0; i < 3_000; i++) texts.push(Array.from({ length: 1 + next(12) }, () => pieces[next(pieces.length)]).join(''));
    for (const text of texts) expect(ours.render(text), JSON.stringify(text)).toBe(theirs.render(text));
  });

  it('takes time in proportion to the note: 20,000 footnotes in well under the seconds the plugin took', () => {
    const n = 20_000;
    const text = Array.from({ length: n }, (_, i) => `x[^${i}]`).join('\n') + '\n\n' + Array.from({ length: n }, (_, i) => `[^${i}]: y`).join('\n');
    const started = performance.now();
    const html = ours.render(text);
    expect(performance.now() - started).toBeLessThan(4_000);
    expect(html.split('class="footnote-item"').length - 1).toBe(n);
  });
});
