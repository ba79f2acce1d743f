// A base view's `summaries` and `groupBy` (shared/bases/summaries.ts, query.ts), as Obsidian
// defines them: the default summaries by name, the base's own summary formulas over
// `values`, groups by a property in its direction with the empty group last; anything the
// site cannot work out is a placeholder for that cell, never a throw or a lost base.
import { describe, expect, it } from 'vitest';
import { readBase } from '../../shared/bases/base-file.ts';
import { MAX_STEPS_PER_BASE, RowEvaluator, type BaseRowSource } from '../../shared/bases/evaluate.ts';
import { parseExpression } from '../../shared/bases/expression.ts';
import { runView, type BaseSummaryCell } from '../../shared/bases/query.ts';
import { aggregate, DEFAULT_SUMMARIES, defaultSummary, type SummaryResult } from '../../shared/bases/summaries.ts';
import { BaseDate, dateText, displayText, type Value } from '../../shared/bases/values.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const day = (d: number) => new BaseDate(Date.UTC(2026, 0, d), false);

function row(name: string, properties: Record<string, unknown>): BaseRowSource {
  return { properties, file: { name: `${name}.md`, basename: name, path: `Books/${name}.md`, folder: 'Books', ext: 'md', ctime: null, mtime: null, size: 10, tags: [], links: [] } };
}

const value = (r: SummaryResult): Value => (r.kind === 'value' ? r.value : r.kind === 'span' ? `span ${r.ms}` : `unsupported ${r.name}`);
const shown = (cell: BaseSummaryCell | null) => (cell ? `${cell.name}=${displayText(value(cell.result))}` : null);

describe('the default summaries compute as Obsidian names them', () => {
  const numbers: Value[] = [4, 1, null, 'text', 3, 2, true];

  it('Average, Min, Max, Sum, Range, Median and Stddev read the numbers only', () => {
    const of = (name: (typeof DEFAULT_SUMMARIES)[number]) => value(defaultSummary(name, numbers));
    expect(of('Average')).toBe(2.5);
    expect(of('Min')).toBe(1);
    expect(of('Max')).toBe(4);
    expect(of('Sum')).toBe(10);
    expect(of('Range')).toBe(3);
    expect(of('Median')).toBe(2.5);
    expect(value(defaultSummary('Median', [5, 1, 3]))).toBe(3);
    expect(of('Stddev')).toBeCloseTo(Math.sqrt(1.25), 12);
    // No numbers: nothing to show (not a zero that would read as a real answer).
    expect(value(defaultSummary('Average', ['a', null]))).toBeNull();
    expect(value(defaultSummary('Sum', []))).toBeNull();
  });

  it('Earliest, Latest and Range read dates (and date text), Range as a span', () => {
    const dates: Value[] = [day(9), '2026-01-03', null, 7, day(20)];
    expect(dateText(value(defaultSummary('Earliest', dates)) as BaseDate)).toBe('2026-01-03');
    expect(dateText(value(defaultSummary('Latest', dates)) as BaseDate)).toBe('2026-01-20');
    // A column of numbers and dates ranges over its numbers; of dates alone, over the days.
    expect(value(defaultSummary('Range', dates))).toBe(0);
    expect(defaultSummary('Range', [day(9), day(2)])).toEqual({ kind: 'span', ms: 7 * 86_400_000 });
  });

  it('Checked, Unchecked, Empty, Filled and Unique count', () => {
    const mixed: Value[] = [true, false, true, null, '', [], 'a', 'a', 'b', day(2), day(2), [1, 2]];
    expect(value(defaultSummary('Checked', mixed))).toBe(2);
    expect(value(defaultSummary('Unchecked', mixed))).toBe(1);
    expect(value(defaultSummary('Empty', mixed))).toBe(3);
    expect(value(defaultSummary('Filled', mixed))).toBe(9);
    // true, false, "a", "b", one date, one list: the empty ones are no value.
    expect(value(defaultSummary('Unique', mixed))).toBe(6);
    expect(value(defaultSummary('Unique', [1, '1']))).toBe(2);
  });

  it('the list methods a summary formula calls are the same aggregations', () => {
    const evaluate = (src: string, values: Value[]) => new RowEvaluator(row('x', {}), new Map(), NOW, null, { left: MAX_STEPS_PER_BASE }, new Map([['values', values]])).value(parseExpression(src));
    expect(evaluate('values.mean().round(3)', [1, 2, 2])).toBe(1.667);
    expect(evaluate('values.sum() + values.length', [1, 2, 3])).toBe(9);
    expect(evaluate('values.max() - values.min()', [4, 9, 1])).toBe(8);
    expect(evaluate('values.median()', [])).toBeNull();
    expect(aggregate('stddev', [2, 4, 4, 4, 5, 5, 7, 9])).toBe(2);
    // `values` is bound in a summary only: a formula's bare name is a property as before.
    expect(new RowEvaluator(row('x', { values: 3 }), new Map(), NOW, null).value(parseExpression('values'))).toBe(3);
  });
});

describe('a view groups its rows and sums up its columns', () => {
  const notes = [
    { source: 'dune', row: row('Dune', { status: 'done', rating: 5, pages: 412, read: new Date(Date.UTC(2026, 0, 4)) }) },
    { source: 'emma', row: row('Emma', { status: 'reading', rating: 3, pages: 474 }) },
    { source: 'middlemarch', row: row('Middlemarch', { status: 'done', rating: 4, pages: 880, read: '2026-01-11' }) },
    { source: 'ulysses', row: row('Ulysses', { rating: 2, pages: 730 }) },
    { source: 'walden', row: row('Walden', { status: 'reading', rating: 1 }) },
  ];
  const base = (view: string[], top: string[] = []) =>
    readBase([...top, 'views:', '  - type: table', '    order: [file.name, rating, pages, read]', ...view.map((l) => '    ' + l)].join('\n'));

  it('groupBy puts rows in groups in its direction, the rows without a value last, each group in the sort order', () => {
    for (const direction of ['ASC', 'DESC']) {
      const read = base(['groupBy:', '  property: status', `  direction: ${direction}`, 'sort:', '  - property: rating', '    direction: ASC']);
      if (!read.ok) throw new Error(read.problem.what);
      const result = runView(read.spec, read.spec.views[0]!, notes, NOW, null);
      const groups = result.groups!.map((g) => `${displayText(g.key)}: ${g.rows.map((r) => r.source).join(' ')}`);
      const named = ['done: middlemarch dune', 'reading: walden emma'];
      expect(groups).toEqual([...(direction === 'ASC' ? named : named.reverse()), ': ulysses']);
      expect(result.groups!.at(-1)!.key).toBeNull();
      expect(result.rows.map((r) => r.source)).toEqual(result.groups!.flatMap((g) => g.rows.map((r) => r.source)));
      expect(result.summaries).toBeNull();
    }
  });

  it('the limit takes the first rows in group order; an ungrouped view has no groups', () => {
    const read = base(['groupBy: { property: status, direction: DESC }', 'limit: 3']);
    if (!read.ok) throw new Error(read.problem.what);
    const result = runView(read.spec, read.spec.views[0]!, notes, NOW, null);
    expect(result.groups!.map((g) => g.rows.map((r) => r.source))).toEqual([['emma', 'walden'], ['dune']]);
    expect(result.total).toBe(5);
    const plain = base([]);
    expect(plain.ok && runView(plain.spec, plain.spec.views[0]!, notes, NOW, null).groups).toBeNull();
  });

  it('summaries: one per named column of the whole view, or of each group', () => {
    const read = base(['summaries:', '  rating: Average', '  pages: sum', '  read: Earliest', '  note.missing: Max']);
    if (!read.ok) throw new Error(read.problem.what);
    const result = runView(read.spec, read.spec.views[0]!, notes, NOW, null);
    // A property the view does not show has no cell; a default name is matched in any case.
    expect(result.summaries!.map(shown)).toEqual([null, 'Average=3', 'sum=2496', 'Earliest=2026-01-04']);
    expect(result.summaries![2]!.known).toBe('Sum');

    const grouped = base(['groupBy: { property: status, direction: ASC }', 'summaries: { rating: Max, pages: Filled }']);
    if (!grouped.ok) throw new Error(grouped.problem.what);
    const groups = runView(grouped.spec, grouped.spec.views[0]!, notes, NOW, null).groups!;
    expect(groups.map((g) => g.summaries!.map(shown))).toEqual([
      [null, 'Max=5', 'Filled=2', null],
      [null, 'Max=3', 'Filled=1', null],
      [null, 'Max=2', 'Filled=1', null],
    ]);
  });

  it("the base's own summary formulas over values, before a default of the same name", () => {
    const read = base(['summaries: { rating: spread, pages: Average, read: broken }'], ['summaries:', '  spread: "values.max() - values.min()"', '  Average: "values.length"', '  broken: "values.map(value)"']);
    if (!read.ok) throw new Error(read.problem.what);
    const result = runView(read.spec, read.spec.views[0]!, notes, NOW, null);
    expect(result.summaries!.map(shown)).toEqual([null, 'spread=4', 'Average=5', 'broken=unsupported broken']);
    expect(result.summaries![2]!.known).toBeNull();
  });

  it('an unknown summary name is a placeholder cell, the base still shown', () => {
    const read = base(['summaries: { rating: Mode, pages: 12 }']);
    if (!read.ok) throw new Error(read.problem.what);
    const result = runView(read.spec, read.spec.views[0]!, notes, NOW, null);
    expect(result.rows).toHaveLength(5);
    // A name that is not text is no summary at all.
    expect(result.summaries!.map(shown)).toEqual([null, 'Mode=unsupported Mode', null, null]);
  });

  it('hostile summaries and groups stay bounded and own-keyed', () => {
    const read = readBase(
      ['summaries:', '  __proto__: "values.length"', '  toString: "values.sum()"', 'views:', '  - type: table', '    order: [rating]', '    groupBy: { property: constructor }', '    summaries: { rating: toString, constructor: hasOwnProperty }'].join('\n'),
    );
    if (!read.ok) throw new Error(read.problem.what);
    const result = runView(read.spec, read.spec.views[0]!, notes, NOW, null);
    // No note has a `constructor` property of its own: one group, without a value.
    expect(result.groups!.map((g) => [g.key, g.rows.length])).toEqual([[null, 5]]);
    expect(result.groups![0]!.summaries!.map(shown)).toEqual(['toString=15']);
    expect(readBase('summaries:\n' + Array.from({ length: 101 }, (_, i) => `  s${i}: "values.length"`).join('\n') + '\n').ok).toBe(false);
    // A runaway summary formula stops at the base's budget: the cell is empty, the view stands.
    const big = readBase('summaries:\n  slow: "values.unique().length"\nviews:\n  - type: table\n    order: [rating]\n    summaries: { rating: slow }\n');
    if (!big.ok) throw new Error(big.problem.what);
    const many = Array.from({ length: 1000 }, (_, i) => ({ source: String(i), row: row(String(i), { rating: i }) }));
    const heavy = runView(big.spec, big.spec.views[0]!, many, NOW, null, { left: 100_000 });
    expect(heavy.rows).toHaveLength(1000);
    expect(heavy.summaries!.map(shown)).toEqual(['slow=']);
  });
});
