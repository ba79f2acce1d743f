// A base (a `.base` file, or a ```base block in a note) read from its YAML: the filters as
// and/or/not trees of parsed expressions, the formulas, the properties' display names and
// the views. A base the site cannot show says why in a sentence (never its raw YAML).
import { parseYaml } from '../note/frontmatter.ts';
import { BaseExpressionError, parseExpression, type Expr } from './expression.ts';

export type BaseFilter = { op: 'and' | 'or' | 'not'; items: BaseFilter[] } | { op: 'expr'; expr: Expr };

export interface BaseSort {
  property: string;
  descending: boolean;
}

export interface BaseView {
  type: 'table' | 'cards' | 'list';
  name: string;
  filter: BaseFilter | null;
  /** Property ids shown, in order (`file.name`, `note.status`, `status`, `formula.x`). */
  order: string[];
  sort: BaseSort[];
  /** Rows fall into groups by this property's value, the groups in its direction (Obsidian's `groupBy`). */
  groupBy: BaseSort | null;
  /** Each shown property's summary, by the name the view writes (a default summary's or one of the base's `summaries`). */
  summaries: Map<string, string>;
  limit: number;
  /** A cards view's cover image: the property holding it (`image: note.cover`), or null. */
  image: string | null;
  /** How the cover fills its box (Obsidian's `imageFit`). */
  imageFit: 'cover' | 'contain';
  /** The cover's height to its width (Obsidian's `imageAspectRatio`; square by default). */
  imageAspectRatio: number;
  /** Why the site cannot show this view (its type, a filter naming what it lacks), or null: the base's other views are shown. */
  problem: BaseProblem | null;
  /** What the view's columns, sort or groups use that the site lacks (`the function relative()`): those cells are empty. */
  gaps: string[];
}

/** A summary formula of the base's own (`summaries:`), over `values`; one it cannot use says why. */
export type BaseSummaryFormula = { ok: true; expr: Expr } | { ok: false; problem: BaseProblem };

export interface BaseSpec {
  filter: BaseFilter | null;
  formulas: Map<string, Expr>;
  displayNames: Map<string, string>;
  summaries: Map<string, BaseSummaryFormula>;
  views: BaseView[];
}

/** Why a base cannot be shown, as a reader reads it: what it uses (an unsupported function, a view type) or that it does not parse. */
export interface BaseProblem {
  kind: 'unsupported' | 'malformed';
  /** `the function foo()`, `the map view`, or the parse's reason. */
  what: string;
}

export type BaseRead = { ok: true; spec: BaseSpec } | { ok: false; problem: BaseProblem };

export const MAX_BASE_BYTES = 256 * 1024;
const MAX_VIEWS = 20;
const MAX_FORMULAS = 100;
const MAX_FILTER_NODES = 500;
const MAX_ORDER = 50;
/** Rows a view shows at most (its `limit`, when smaller). */
export const MAX_ROWS = 1_000;

class Refusal extends Error {
  constructor(readonly problem: BaseProblem) {
    super(problem.what);
  }
}

const malformed = (what: string) => new Refusal({ kind: 'malformed', what });

function expression(src: unknown): Expr {
  try {
    return parseExpression(src);
  } catch (err) {
    if (err instanceof BaseExpressionError) throw new Refusal({ kind: err.kind === 'unsupported' ? 'unsupported' : 'malformed', what: err.kind === 'unsupported' ? err.message : `an expression has ${err.message}` });
    throw err;
  }
}

function summaryFormula(src: unknown): BaseSummaryFormula {
  try {
    return { ok: true, expr: expression(src) };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, problem: err.problem };
    throw err;
  }
}

function filterOf(raw: unknown, budget: { left: number }, depth = 0): BaseFilter {
  if (--budget.left < 0 || depth > 32) throw malformed(`its filters hold more than ${MAX_FILTER_NODES} parts or nest too deep`);
  if (typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean') return { op: 'expr', expr: expression(raw) };
  if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
    const keys = Object.keys(raw);
    const op = keys[0];
    if (keys.length !== 1 || (op !== 'and' && op !== 'or' && op !== 'not')) throw malformed('a filter that is not one of and, or, not or an expression');
    const items = (raw as Record<string, unknown>)[op];
    const list = Array.isArray(items) ? items : [items];
    return { op, items: list.map((item) => filterOf(item, budget, depth + 1)) };
  }
  throw malformed('a filter that is not one of and, or, not or an expression');
}

function text(v: unknown, fallback: string): string {
  return typeof v === 'string' ? v.slice(0, 200) : typeof v === 'number' ? String(v) : fallback;
}

function sortOf(raw: unknown): BaseSort | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const s = raw as Record<string, unknown>;
  if (typeof s.property !== 'string') return null;
  return { property: s.property.slice(0, 200), descending: String(s.direction ?? 'ASC').toUpperCase() === 'DESC' };
}

/** `property: name` pairs of a mapping, own keys only, bounded; values that are not text are left out. */
function namesOf(raw: unknown, max: number): Map<string, string> {
  const out = new Map<string, string>();
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return out;
  for (const key of Object.keys(raw).slice(0, max)) {
    const v = (raw as Record<string, unknown>)[key];
    if (typeof v === 'string') out.set(key, v.slice(0, 200));
  }
  return out;
}

function viewOf(raw: unknown, i: number, budget: { left: number }, broken: ReadonlyMap<string, string>): BaseView {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw malformed('a view that is not a list of settings');
  const v = raw as Record<string, unknown>;
  const rawType = Object.hasOwn(v, 'type') ? v.type : 'table';
  const type = rawType === 'table' || rawType === 'cards' || rawType === 'list' ? rawType : 'table';
  // A view type the site lacks (kanban, map) is that view's sentence; the others are shown.
  let problem: BaseProblem | null = type === rawType ? null : { kind: 'unsupported', what: `the ${text(rawType, 'unnamed')} view` };
  let filter: BaseFilter | null = null;
  try {
    filter = Object.hasOwn(v, 'filters') && v.filters != null ? filterOf(v.filters, budget) : null;
  } catch (err) {
    if (!(err instanceof Refusal) || err.problem.kind !== 'unsupported') throw err;
    problem ??= err.problem;
  }
  // A filter reading a formula the site cannot work out would list the wrong rows: that view says so instead.
  const filterGap = filter ? brokenIn(filterExprs(filter), broken)[0] : undefined;
  if (filterGap) problem ??= { kind: 'unsupported', what: filterGap };
  const order = Array.isArray(v.order) ? v.order.filter((p): p is string => typeof p === 'string').slice(0, MAX_ORDER) : [];
  const sortRaw = Array.isArray(v.sort) ? v.sort.slice(0, 10) : [];
  const sort = sortRaw.map(sortOf).filter((s): s is BaseSort => s !== null);
  const limit = typeof v.limit === 'number' && Number.isFinite(v.limit) && v.limit >= 1 ? Math.min(MAX_ROWS, Math.floor(v.limit)) : MAX_ROWS;
  const shownOrder = order.length ? order : ['file.name'];
  const groupBy = Object.hasOwn(v, 'groupBy') ? sortOf(v.groupBy) : null;
  const image = typeof v.image === 'string' && v.image.trim() !== '' ? v.image.trim().slice(0, 200) : null;
  const ratio = typeof v.imageAspectRatio === 'number' && Number.isFinite(v.imageAspectRatio) ? Math.min(4, Math.max(0.25, v.imageAspectRatio)) : 1;
  const used = [...shownOrder, ...sort.map((s) => s.property), ...(groupBy ? [groupBy.property] : []), ...(image ? [image] : [])];
  const gaps = [...new Set(used.map((id) => (id.startsWith('formula.') ? broken.get(id.slice(8)) : undefined)).filter((w): w is string => w !== undefined))];
  return {
    type,
    name: text(v.name, `View ${i + 1}`),
    filter,
    order: shownOrder,
    sort,
    groupBy,
    summaries: Object.hasOwn(v, 'summaries') ? namesOf(v.summaries, MAX_ORDER) : new Map(),
    limit,
    image,
    imageFit: v.imageFit === 'contain' ? 'contain' : 'cover',
    imageAspectRatio: ratio,
    problem,
    gaps,
  };
}

/** The expressions of a filter tree. */
function filterExprs(filter: BaseFilter): Expr[] {
  return filter.op === 'expr' ? [filter.expr] : filter.items.flatMap(filterExprs);
}

/** The formulas an expression reads (`formula.x`, `formula["x"]`). */
function formulasRead(expr: Expr, out: Set<string> = new Set()): Set<string> {
  if ((expr.t === 'member' || expr.t === 'index') && expr.object.t === 'name' && expr.object.name === 'formula') {
    if (expr.t === 'member') out.add(expr.name);
    else if (expr.index.t === 'lit' && typeof expr.index.value === 'string') out.add(expr.index.value);
  }
  for (const child of Object.values(expr)) {
    if (Array.isArray(child)) for (const item of child) formulasRead(item as Expr, out);
    else if (child && typeof child === 'object') formulasRead(child as Expr, out);
  }
  return out;
}

/** What the site lacks that these expressions read through a formula, as a reader reads it. */
function brokenIn(exprs: Expr[], broken: ReadonlyMap<string, string>): string[] {
  const out = new Set<string>();
  for (const expr of exprs) for (const name of formulasRead(expr)) if (broken.has(name)) out.add(broken.get(name)!);
  return [...out];
}

/** A formula the site cannot work out reads null, and so does each formula reading it: a half-computed value would be wrong. */
function breakFormulas(formulas: Map<string, Expr>, broken: Map<string, string>): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const [name, expr] of formulas) {
      if (broken.has(name)) continue;
      const gap = brokenIn([expr], broken)[0];
      if (gap !== undefined) {
        broken.set(name, gap);
        changed = true;
      }
    }
  }
  for (const name of broken.keys()) formulas.set(name, { t: 'lit', value: null });
}

/** Reads a base's YAML text; never throws. */
export function readBase(yaml: string): BaseRead {
  try {
    if (yaml.length > MAX_BASE_BYTES) throw malformed(`it is larger than ${MAX_BASE_BYTES / 1024} KB`);
    let root: Record<string, unknown>;
    try {
      root = parseYaml(yaml);
    } catch (err) {
      throw malformed(`its YAML is malformed (${String((err as Error).message ?? err).split('\n')[0]!.slice(0, 160)})`);
    }
    const budget = { left: MAX_FILTER_NODES };
    const formulas = new Map<string, Expr>();
    /** Formulas the site cannot work out, with what they use that it lacks. */
    const broken = new Map<string, string>();
    const rawFormulas = root.formulas;
    if (rawFormulas && typeof rawFormulas === 'object' && !Array.isArray(rawFormulas)) {
      const names = Object.keys(rawFormulas);
      if (names.length > MAX_FORMULAS) throw malformed(`it has more than ${MAX_FORMULAS} formulas`);
      for (const name of names) {
        try {
          formulas.set(name, expression((rawFormulas as Record<string, unknown>)[name]));
        } catch (err) {
          // An unsupported function empties its formula's cells, not the base. `relative()` stays unsupported: a build-time "3 days ago" goes stale on a static page.
          if (!(err instanceof Refusal) || err.problem.kind !== 'unsupported') throw err;
          broken.set(name, err.problem.what);
          formulas.set(name, { t: 'lit', value: null });
        }
      }
    }
    breakFormulas(formulas, broken);
    const displayNames = new Map<string, string>();
    const props = root.properties;
    if (props && typeof props === 'object' && !Array.isArray(props)) {
      for (const id of Object.keys(props).slice(0, MAX_FORMULAS)) {
        const settings = (props as Record<string, unknown>)[id];
        const name = settings && typeof settings === 'object' ? (settings as Record<string, unknown>).displayName : undefined;
        if (typeof name === 'string') displayNames.set(id, name.slice(0, 200));
      }
    }
    const summaries = new Map<string, BaseSummaryFormula>();
    const rawSummaries = root.summaries;
    if (rawSummaries && typeof rawSummaries === 'object' && !Array.isArray(rawSummaries)) {
      const names = Object.keys(rawSummaries);
      if (names.length > MAX_FORMULAS) throw malformed(`it has more than ${MAX_FORMULAS} summary formulas`);
      // A summary formula the site cannot use leaves its cells a placeholder, not the whole base.
      for (const name of names) summaries.set(name, summaryFormula((rawSummaries as Record<string, unknown>)[name]));
    }
    const rawViews = Array.isArray(root.views) ? root.views : [{ type: 'table' }];
    if (rawViews.length > MAX_VIEWS) throw malformed(`it has more than ${MAX_VIEWS} views`);
    const views = rawViews.map((v, i) => viewOf(v, i, budget, broken));
    const filter = Object.hasOwn(root, 'filters') && root.filters != null ? filterOf(root.filters, budget) : null;
    // The base's own filter decides every view's rows: one it cannot work out leaves none to show.
    const filterGap = filter ? brokenIn(filterExprs(filter), broken)[0] : undefined;
    if (filterGap) throw new Refusal({ kind: 'unsupported', what: filterGap });
    return { ok: true, spec: { filter, formulas, displayNames, summaries, views } };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, problem: err.problem };
    return { ok: false, problem: { kind: 'malformed', what: 'it could not be read' } };
  }
}

/** Whether any of the base's expressions names `this` (the file or note showing it): else it shows the same wherever it is shown. */
export function readsThis(spec: BaseSpec): boolean {
  const seen = (v: unknown, depth = 0): boolean => {
    if (depth > 64 || v === null || typeof v !== 'object') return false;
    if (v instanceof Map) return [...v.values()].some((x) => seen(x, depth + 1));
    if (Array.isArray(v)) return v.some((x) => seen(x, depth + 1));
    const node = v as Record<string, unknown>;
    if (node.t === 'name' && node.name === 'this') return true;
    return Object.values(node).some((x) => seen(x, depth + 1));
  };
  return seen(spec.filter) || seen(spec.formulas) || seen(spec.summaries) || seen(spec.views);
}
