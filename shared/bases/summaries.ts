// A base view's summaries (Obsidian's `summaries:` of a view, naming a default summary or
// one of the base's own summary formulas over `values`): what a column's values come to.
// The list aggregations here are also the list methods a formula calls (`values.mean()`),
// so a default summary and the formula written out give the same answer. Pure and linear
// (the median sorts once): a view's rows are bounded (MAX_ROWS), so is this.
import { BaseDate, BaseLink, BaseObject, displayText, parseDate, type Value } from './values.ts';

/** Obsidian's default summaries, by the name a view writes. */
export const DEFAULT_SUMMARIES = ['Average', 'Min', 'Max', 'Sum', 'Range', 'Median', 'Stddev', 'Earliest', 'Latest', 'Checked', 'Unchecked', 'Empty', 'Filled', 'Unique'] as const;
export type DefaultSummary = (typeof DEFAULT_SUMMARIES)[number];

export const isDefaultSummary = (name: string): name is DefaultSummary => (DEFAULT_SUMMARIES as readonly string[]).includes(name);

/** What a summary shows: a value, a span of time (a Range of dates), or why it cannot be worked out. */
export type SummaryResult = { kind: 'value'; value: Value } | { kind: 'span'; ms: number } | { kind: 'unsupported'; name: string };

/** The list aggregations a formula may call on a list (`values.sum()`). */
export const LIST_AGGREGATES = new Set(['mean', 'median', 'stddev', 'sum', 'min', 'max']);

const numbersOf = (values: readonly Value[]): number[] => values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));

function datesOf(values: readonly Value[]): number[] {
  const out: number[] = [];
  for (const v of values) {
    const d = v instanceof BaseDate ? v : typeof v === 'string' ? parseDate(v) : null;
    if (d) out.push(d.ms);
  }
  return out;
}

/** `list.mean()`, `.median()`, `.stddev()` (of the population), `.sum()`, `.min()`, `.max()`: of the list's numbers, null when it has none. */
export function aggregate(name: string, values: readonly Value[]): number | null {
  const nums = numbersOf(values);
  if (nums.length === 0) return name === 'sum' ? 0 : null;
  let total = 0;
  for (const n of nums) total += n;
  switch (name) {
    case 'sum':
      return finiteOrNull(total);
    case 'mean':
      return finiteOrNull(total / nums.length);
    case 'min':
      return nums.reduce((a, b) => (b < a ? b : a));
    case 'max':
      return nums.reduce((a, b) => (b > a ? b : a));
    case 'median': {
      const sorted = nums.slice().sort((a, b) => a - b);
      const mid = sorted.length >> 1;
      return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    }
    case 'stddev': {
      const mean = total / nums.length;
      let squares = 0;
      for (const n of nums) squares += (n - mean) ** 2;
      return finiteOrNull(Math.sqrt(squares / nums.length));
    }
  }
  return null;
}

const finiteOrNull = (n: number): number | null => (Number.isFinite(n) ? n : null);

/** Empty as a summary counts it: no value, no text, an empty list or mapping. */
export function isEmptyValue(v: Value): boolean {
  if (v === null || v === '') return true;
  if (Array.isArray(v)) return v.length === 0;
  if (v instanceof BaseObject) return v.entries.size === 0;
  return false;
}

/** One key per distinct value (a date by its moment, a link by its target), so Unique is linear. */
export function valueKey(v: Value): string {
  if (v instanceof BaseDate) return `d${v.ms}`;
  if (v instanceof BaseLink) return `l${v.target.toLowerCase()}`;
  if (Array.isArray(v)) return `a${v.map(valueKey).join('\u0000')}`;
  return `${typeof v}:${displayText(v)}`;
}

/** Distinct non-empty values. */
export function uniqueCount(values: readonly Value[]): number {
  const seen = new Set<string>();
  for (const v of values) if (!isEmptyValue(v)) seen.add(valueKey(v));
  return seen.size;
}

/** A default summary of a column's values. */
export function defaultSummary(name: DefaultSummary, values: readonly Value[]): SummaryResult {
  const value = (v: Value): SummaryResult => ({ kind: 'value', value: v });
  switch (name) {
    case 'Average':
      return value(aggregate('mean', values));
    case 'Min':
      return value(aggregate('min', values));
    case 'Max':
      return value(aggregate('max', values));
    case 'Sum':
      return value(numbersOf(values).length ? aggregate('sum', values) : null);
    case 'Median':
      return value(aggregate('median', values));
    case 'Stddev':
      return value(aggregate('stddev', values));
    case 'Range': {
      // Numbers when the column holds any, else dates (the span from the earliest to the latest).
      if (numbersOf(values).length) return value(aggregate('max', values)! - aggregate('min', values)!);
      const dates = datesOf(values);
      return dates.length ? { kind: 'span', ms: Math.max(...dates) - Math.min(...dates) } : value(null);
    }
    case 'Earliest':
    case 'Latest': {
      const dates = datesOf(values);
      if (!dates.length) return value(null);
      const ms = name === 'Earliest' ? Math.min(...dates) : Math.max(...dates);
      const hasTime = values.some((v) => v instanceof BaseDate && v.ms === ms && v.hasTime);
      return value(new BaseDate(ms, hasTime));
    }
    case 'Checked':
      return value(values.filter((v) => v === true).length);
    case 'Unchecked':
      return value(values.filter((v) => v === false).length);
    case 'Empty':
      return value(values.filter(isEmptyValue).length);
    case 'Filled':
      return value(values.filter((v) => !isEmptyValue(v)).length);
    case 'Unique':
      return value(uniqueCount(values));
  }
}
