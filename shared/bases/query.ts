// One view of a base worked out over a list of rows (the site gives published notes
// only): the base's filter and the view's, then its sort and limit, then each shown
// property's value. Pure: the same rows and time give the same answer.
import type { BaseFilter, BaseSpec, BaseView } from './base-file.ts';
import type { Expr } from './expression.ts';
import { MAX_STEPS_PER_BASE, RowEvaluator, compare, type BaseRowSource } from './evaluate.ts';
import type { Value } from './values.ts';

export interface BaseResultRow<T> {
  source: T;
  cells: Value[];
}

export interface BaseResult<T> {
  view: BaseView;
  /** Each shown property: its id and the name its column carries. */
  columns: { id: string; label: string }[];
  rows: BaseResultRow<T>[];
  /** Rows that passed the filters before the limit. */
  total: number;
}

/** `file.name`, `note.status`, `status`, `formula.x` as the expression reading it. */
export function propertyExpr(id: string): Expr {
  const dot = id.indexOf('.');
  const scope = dot > 0 ? id.slice(0, dot) : '';
  if (scope === 'file' || scope === 'note' || scope === 'formula') return { t: 'member', object: { t: 'name', name: scope }, name: id.slice(dot + 1) };
  return { t: 'member', object: { t: 'name', name: 'note' }, name: id };
}

/** The column's name: its `displayName`, else the property's own name. */
export function propertyLabel(spec: BaseSpec, id: string): string {
  const named = spec.displayNames.get(id) ?? (id.startsWith('note.') ? spec.displayNames.get(id.slice(5)) : spec.displayNames.get(`note.${id}`));
  if (named) return named;
  if (id === 'file.name') return 'Name';
  return id.replace(/^(note|formula|file)\./, '');
}

function passes(filter: BaseFilter | null, row: RowEvaluator): boolean {
  if (!filter) return true;
  switch (filter.op) {
    case 'expr':
      return row.test(filter.expr);
    case 'and':
      return filter.items.every((f) => passes(f, row));
    case 'or':
      return filter.items.some((f) => passes(f, row));
    case 'not':
      return !filter.items.some((f) => passes(f, row));
  }
}

export function runView<T>(spec: BaseSpec, view: BaseView, rows: Iterable<{ source: T; row: BaseRowSource }>, now: number, self: BaseRowSource | null, budget = { left: MAX_STEPS_PER_BASE }): BaseResult<T> {
  const kept: { source: T; evaluator: RowEvaluator; keys: Value[] }[] = [];
  const sortExprs = view.sort.map((s) => propertyExpr(s.property));
  for (const { source, row } of rows) {
    const evaluator = new RowEvaluator(row, spec.formulas, now, self, budget);
    if (!passes(spec.filter, evaluator) || !passes(view.filter, evaluator)) continue;
    kept.push({ source, evaluator, keys: sortExprs.map((e) => evaluator.value(e)) });
  }
  kept.sort((a, b) => {
    for (let i = 0; i < view.sort.length; i++) {
      const x = a.keys[i]!;
      const y = b.keys[i]!;
      // Empty values go last whichever way the sort runs, as in Obsidian.
      if (x === null || y === null) {
        if (x !== y) return x === null ? 1 : -1;
        continue;
      }
      const c = compare(x, y) ?? 0;
      if (c !== 0) return view.sort[i]!.descending ? -c : c;
    }
    return 0;
  });
  const columns = view.order.map((id) => ({ id, label: propertyLabel(spec, id) }));
  const exprs = view.order.map(propertyExpr);
  const shown = kept.slice(0, view.limit).map(({ source, evaluator }) => ({ source, cells: exprs.map((e) => evaluator.value(e)) }));
  return { view, columns, rows: shown, total: kept.length };
}
