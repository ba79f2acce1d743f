// One view of a base worked out over a list of rows (the site gives published notes
// only): the base's filter and the view's, then its sort, its groups and its limit, then
// each shown property's value and the summaries of the columns (of each group, when it
// groups). Pure: the same rows and time give the same answer.
import type { BaseFilter, BaseSpec, BaseView } from './base-file.ts';
import type { Expr } from './expression.ts';
import { MAX_STEPS_PER_BASE, RowEvaluator, compare, type BaseLinks, type BaseRowSource } from './evaluate.ts';
import { DEFAULT_SUMMARIES, defaultSummary, isEmptyValue, valueKey, type DefaultSummary, type SummaryResult } from './summaries.ts';
import { displayText, type Value } from './values.ts';
import { textCompare } from '../natural-order.ts';

export interface BaseResultRow<T> {
  source: T;
  cells: Value[];
  /** A cards view's cover for the row (its `image` property's value), or null. */
  image: Value;
}

/** A column's summary: the name the view gave it and what it comes to. */
export interface BaseSummaryCell {
  name: string;
  /** The default summary it is (null: one of the base's own formulas, or unknown). */
  known: DefaultSummary | null;
  result: SummaryResult;
}

/** The summaries of a run of rows, one per column (null where the view sums up nothing); null when the view has none. */
export type BaseSummaryRow = (BaseSummaryCell | null)[] | null;

export interface BaseGroup<T> {
  /** The value its rows share (null: the rows without one). */
  key: Value;
  rows: BaseResultRow<T>[];
  summaries: BaseSummaryRow;
}

export interface BaseResult<T> {
  view: BaseView;
  /** Each shown property: its id and the name its column carries. */
  columns: { id: string; label: string }[];
  rows: BaseResultRow<T>[];
  /** The shown rows in their groups, when the view groups them. */
  groups: BaseGroup<T>[] | null;
  /** The summaries of all the shown rows (of an ungrouped view). */
  summaries: BaseSummaryRow;
  /** Rows that passed the filters before the limit. */
  total: number;
}

const EMPTY_ROW: BaseRowSource = {
  properties: {},
  file: { name: '', basename: '', path: '', folder: '', ext: '', ctime: null, mtime: null, size: null, tags: [], links: [] },
};

/** A summary by its name: the base's own formula over `values` first, else a default summary (any case), else unsupported. */
function summaryOf(spec: BaseSpec, name: string, values: Value[], now: number, budget: { left: number }): BaseSummaryCell {
  const custom = spec.summaries.get(name);
  if (custom) {
    if (!custom.ok) return { name, known: null, result: { kind: 'unsupported', name } };
    const evaluator = new RowEvaluator(EMPTY_ROW, spec.formulas, now, null, budget, new Map([['values', values]]));
    return { name, known: null, result: { kind: 'value', value: evaluator.value(custom.expr) } };
  }
  const known = DEFAULT_SUMMARIES.find((d) => d.toLowerCase() === name.toLowerCase()) ?? null;
  return { name, known, result: known ? defaultSummary(known, values) : { kind: 'unsupported', name } };
}

function summaryRow<T>(spec: BaseSpec, view: BaseView, columns: { id: string }[], rows: BaseResultRow<T>[], now: number, budget: { left: number }): BaseSummaryRow {
  if (view.summaries.size === 0 || !columns.some((c) => view.summaries.has(c.id))) return null;
  return columns.map((c, i) => {
    const name = view.summaries.get(c.id);
    return name === undefined ? null : summaryOf(spec, name, rows.map((r) => r.cells[i]!), now, budget);
  });
}

/** Groups in the view's `groupBy` direction; the group without a value last, as empty values sort. */
function compareKeys(a: Value, b: Value, descending: boolean): number {
  const emptyA = isEmptyValue(a);
  const emptyB = isEmptyValue(b);
  if (emptyA || emptyB) return emptyA === emptyB ? 0 : emptyA ? 1 : -1;
  const c = compare(a, b) ?? textCompare(displayText(a), displayText(b));
  return descending ? -c : c;
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

export function runView<T>(
  spec: BaseSpec,
  view: BaseView,
  rows: Iterable<{ source: T; row: BaseRowSource }>,
  now: number,
  self: BaseRowSource | null,
  budget = { left: MAX_STEPS_PER_BASE },
  links: BaseLinks | null = null,
): BaseResult<T> {
  /** `group`: the row's groupBy value (null when empty); `groupId`: one text per distinct value ('' for none). */
  type Kept = { source: T; evaluator: RowEvaluator; keys: Value[]; group: Value; groupId: string };
  let kept: Kept[] = [];
  const sortExprs = view.sort.map((s) => propertyExpr(s.property));
  const groupExpr = view.groupBy ? propertyExpr(view.groupBy.property) : null;
  for (const { source, row } of rows) {
    const evaluator = new RowEvaluator(row, spec.formulas, now, self, budget, null, links);
    if (!passes(spec.filter, evaluator) || !passes(view.filter, evaluator)) continue;
    const raw = groupExpr ? evaluator.value(groupExpr) : null;
    const group = isEmptyValue(raw) ? null : raw;
    kept.push({ source, evaluator, keys: sortExprs.map((e) => evaluator.value(e)), group, groupId: group === null ? '' : valueKey(group) });
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
  // Rows fall into groups by one key per distinct value (linear), each group keeping the sort's order.
  const buckets = new Map<string, { key: Value; rows: Kept[] }>();
  if (view.groupBy) {
    for (const row of kept) {
      let bucket = buckets.get(row.groupId);
      if (!bucket) buckets.set(row.groupId, (bucket = { key: row.group, rows: [] }));
      bucket.rows.push(row);
    }
    const descending = view.groupBy.descending;
    kept = [...buckets.values()].sort((a, b) => compareKeys(a.key, b.key, descending)).flatMap((b) => b.rows);
  }
  const columns = view.order.map((id) => ({ id, label: propertyLabel(spec, id) }));
  const exprs = view.order.map(propertyExpr);
  const limited = kept.slice(0, view.limit);
  const imageExpr = view.type === 'cards' && view.image ? propertyExpr(view.image) : null;
  const shown = limited.map(({ source, evaluator }) => ({ source, cells: exprs.map((e) => evaluator.value(e)), image: imageExpr ? evaluator.value(imageExpr) : null }));
  let groups: BaseGroup<T>[] | null = null;
  if (view.groupBy) {
    groups = [];
    let last: string | null = null;
    limited.forEach((row, i) => {
      if (row.groupId !== last) groups!.push({ key: row.group, rows: [], summaries: null });
      last = row.groupId;
      groups!.at(-1)!.rows.push(shown[i]!);
    });
    for (const group of groups) group.summaries = summaryRow(spec, view, columns, group.rows, now, budget);
  }
  const summaries = groups ? null : summaryRow(spec, view, columns, shown, now, budget);
  return { view, columns, rows: shown, groups, summaries, total: kept.length };
}
