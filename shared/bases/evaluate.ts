// Evaluates a base's parsed expressions (expression.ts) for one row: a note, its file
// facts and properties, the base's formulas. Nothing is looked up by a name the vault
// wrote except in maps of the row's own keys (a `__proto__` is a property like any
// other, and absent); work per row is bounded, formulas are evaluated once each and a
// formula reading itself is null.
import type { Expr } from './expression.ts';
import { compare, dateField, equal, fileMember, fileMethod, fileMethodCost, finite, shifted, stringMethod } from './methods.ts';
import { aggregate, LIST_AGGREGATES } from './summaries.ts';
import { BaseDate, BaseLink, BaseObject, displayText, formatDate, fromProperty, isTruthy, MAX_LIST, MAX_TEXT, parseDate, parseDuration, type Value } from './values.ts';

export { compare, equal } from './methods.ts';

/** What a base knows of a note's file (`file.*`). */
export interface BaseFileFacts {
  /** `Note.md` */
  name: string;
  /** `Note` */
  basename: string;
  path: string;
  folder: string;
  ext: string;
  ctime: number | null;
  mtime: number | null;
  size: number | null;
  /** Tags without their `#`. */
  tags: readonly string[];
  /** Link targets as written. */
  links: readonly string[];
}

export interface BaseRowSource {
  file: BaseFileFacts;
  properties: Readonly<Record<string, unknown>>;
}

/**
 * Where links lead in the vault (the site's resolver): `file.hasLink` asks whether a row links
 * to that note, as Obsidian does, not to any note of the same name in another folder.
 */
export interface BaseLinks {
  /** The vault paths a row's links and embeds lead to (null: nowhere); null for a row that is no note. */
  targetsOf(row: BaseRowSource): ReadonlySet<string | null> | null;
  /** The vault path a link to `target` from `row` leads to, or null. */
  resolve(target: string, row: BaseRowSource): string | null;
}

/** Work one row may cost (steps of evaluation): past it, the cell or filter is null. */
export const MAX_STEPS_PER_ROW = 20_000;
/** Work one base may cost over all its rows and views (a filter over 10,000 notes takes some 100,000). */
export const MAX_STEPS_PER_BASE = 5_000_000;

/** Thrown past a limit and caught at once (`value`): no stack trace, which cost microseconds a throw. */
class StepLimit {}
const STEP_LIMIT = new StepLimit();

type Scope = { kind: 'file'; row: BaseRowSource } | { kind: 'note'; row: BaseRowSource } | { kind: 'formula' } | { kind: 'this' };

/** Evaluates expressions against one row; formulas are remembered for the row. */
export class RowEvaluator {
  private steps = 0;
  private readonly formulaValues = new Map<string, Value>();
  private readonly evaluating = new Set<string>();
  private readonly propertyValues = new Map<string, Value>();
  /** Whether `hasLink` has read the row's links, and `this`'s (charged in full once per evaluator, whatever was cached before). */
  private rowLinksRead = false;
  private selfLinksRead = false;

  constructor(
    readonly row: BaseRowSource,
    private readonly formulas: ReadonlyMap<string, Expr>,
    private readonly now: number,
    /** The file the base belongs to (`this`): the `.base` file, or the note holding the block. */
    private readonly self: BaseRowSource | null,
    /** Steps left to the whole base (all its rows and views): past it, every value is null. */
    private readonly budget: { left: number } = { left: MAX_STEPS_PER_ROW },
    /** Names bound before the row's properties (a summary formula's `values`). */
    private readonly locals: ReadonlyMap<string, Value> | null = null,
    /** How links resolve (none: `hasLink` compares note names). */
    private readonly links: BaseLinks | null = null,
  ) {}

  /** The expression's value; null when it cannot be worked out (a type that has no such member, the step limit). */
  value(expr: Expr): Value {
    // The base's steps are spent: every value is null, found without a throw (a filter of 450 parts over 10,000 notes asked 4.5 million times).
    if (this.budget.left < 0) return null;
    try {
      return this.eval(expr);
    } catch (err) {
      if (err instanceof StepLimit) return null;
      throw err;
    }
  }

  test(expr: Expr): boolean {
    return isTruthy(this.value(expr));
  }

  /** `formula.x`: evaluated once per row; a cycle reads null. */
  formula(name: string): Value {
    if (this.formulaValues.has(name)) return this.formulaValues.get(name)!;
    const expr = this.formulas.get(name);
    if (!expr || this.evaluating.has(name)) return null;
    this.evaluating.add(name);
    let v: Value;
    try {
      v = this.eval(expr);
    } finally {
      this.evaluating.delete(name);
    }
    this.formulaValues.set(name, v);
    return v;
  }

  /** A note property by its own key (never the prototype's). */
  property(name: string, row: BaseRowSource = this.row): Value {
    if (row !== this.row) return Object.hasOwn(row.properties, name) ? fromProperty(row.properties[name]) : null;
    if (this.propertyValues.has(name)) return this.propertyValues.get(name)!;
    const v = Object.hasOwn(row.properties, name) ? fromProperty(row.properties[name]) : null;
    this.propertyValues.set(name, v);
    return v;
  }

  private charge(steps: number): void {
    this.steps += steps;
    this.budget.left -= steps;
    if (this.steps > MAX_STEPS_PER_ROW || this.budget.left < 0) throw STEP_LIMIT;
  }

  private eval(e: Expr): Value {
    if (++this.steps > MAX_STEPS_PER_ROW || --this.budget.left < 0) throw STEP_LIMIT;
    switch (e.t) {
      case 'lit':
        return e.value;
      case 'list':
        return e.items.slice(0, MAX_LIST).map((item) => this.eval(item));
      case 'name':
        if (this.locals?.has(e.name)) return this.locals.get(e.name)!;
        // Bare `file` is the row's file and bare `this` the file showing the base: each a link to it (`parent == this`, `link(file, title)`).
        if (e.name === 'file') return this.row.file.path === '' ? null : fileMember(this.row.file, 'file');
        if (e.name === 'this') return this.self ? fileMember(this.self.file, 'file') : null;
        return this.property(e.name);
      case 'unary': {
        const v = this.eval(e.arg);
        if (e.op === '!') return !isTruthy(v);
        return typeof v === 'number' ? -v : null;
      }
      case 'binary':
        return this.binary(e.op, e.left, e.right);
      case 'member':
        return this.member(e.object, e.name);
      case 'index': {
        const index = this.eval(e.index);
        if (e.object.t === 'name' && (e.object.name === 'note' || e.object.name === 'file' || e.object.name === 'formula')) return this.member(e.object, displayText(index));
        const object = this.eval(e.object);
        if (Array.isArray(object) && typeof index === 'number') return object.at(Math.trunc(index)) ?? null;
        if (object instanceof BaseObject && typeof index === 'string') return object.entries.get(index) ?? null;
        return null;
      }
      case 'call':
        return this.call(e.name, e.args);
      case 'method':
        return this.method(e.object, e.name, e.args);
    }
  }

  /** The scope a bare `file`, `note`, `formula` or `this` names. */
  private scopeOf(e: Expr): Scope | null {
    if (e.t === 'name') {
      if (e.name === 'file') return { kind: 'file', row: this.row };
      if (e.name === 'note') return { kind: 'note', row: this.row };
      if (e.name === 'formula') return { kind: 'formula' };
      if (e.name === 'this') return { kind: 'this' };
    }
    if (e.t === 'member' && e.object.t === 'name' && e.object.name === 'this' && this.self) {
      if (e.name === 'file') return { kind: 'file', row: this.self };
      if (e.name === 'note') return { kind: 'note', row: this.self };
    }
    return null;
  }

  private member(objectExpr: Expr, name: string): Value {
    const scope = this.scopeOf(objectExpr);
    if (scope?.kind === 'file') {
      // `file.tags` and `file.links` are lists made for the call.
      if (name === 'tags' || name === 'links') this.charge(Math.min(MAX_LIST, scope.row.file[name].length));
      return fileMember(scope.row.file, name);
    }
    if (scope?.kind === 'note') return this.property(name, scope.row);
    if (scope?.kind === 'formula') return this.formula(name);
    // `this.file` is the file showing the base, as a link (`file.hasLink(this.file)`: its backlinks); any other name, its property.
    if (scope?.kind === 'this') return !this.self ? null : name === 'file' ? fileMember(this.self.file, 'file') : this.property(name, this.self);
    const object = this.eval(objectExpr);
    if (name === 'length') return typeof object === 'string' || Array.isArray(object) ? object.length : null;
    if (object instanceof BaseDate) {
      const d = new Date(object.ms);
      if (name === 'year') return d.getUTCFullYear();
      if (name === 'month') return d.getUTCMonth() + 1;
      if (name === 'day') return d.getUTCDate();
      if (name === 'hour') return d.getUTCHours();
      if (name === 'minute') return d.getUTCMinutes();
      return null;
    }
    if (object instanceof BaseObject) return object.entries.get(name) ?? null;
    return null;
  }

  private binary(op: string, leftExpr: Expr, rightExpr: Expr): Value {
    if (op === '&&') return isTruthy(this.eval(leftExpr)) && isTruthy(this.eval(rightExpr));
    if (op === '||') return isTruthy(this.eval(leftExpr)) || isTruthy(this.eval(rightExpr));
    const a = this.eval(leftExpr);
    const b = this.eval(rightExpr);
    switch (op) {
      case '==':
        return equal(a, b);
      case '!=':
        return !equal(a, b);
      case '<':
      case '<=':
      case '>':
      case '>=': {
        const c = compare(a, b);
        if (c === null) return false;
        return op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : c >= 0;
      }
      case '+':
        if (a instanceof BaseDate && typeof b === 'string') return shifted(a, parseDuration(b));
        if (typeof a === 'number' && typeof b === 'number') return finite(a + b);
        if (typeof a === 'string' || typeof b === 'string') return (displayText(a) + displayText(b)).slice(0, MAX_TEXT);
        return null;
      case '-':
        if (a instanceof BaseDate && b instanceof BaseDate) return a.ms - b.ms;
        if (a instanceof BaseDate && typeof b === 'string') {
          const ms = parseDuration(b);
          return shifted(a, ms === null ? null : -ms);
        }
        return typeof a === 'number' && typeof b === 'number' ? finite(a - b) : null;
      case '*':
        return typeof a === 'number' && typeof b === 'number' ? finite(a * b) : null;
      case '/':
        return typeof a === 'number' && typeof b === 'number' ? finite(a / b) : null;
      case '%':
        return typeof a === 'number' && typeof b === 'number' ? finite(a % b) : null;
    }
    return null;
  }

  private call(name: string, args: Expr[]): Value {
    switch (name) {
      case 'if':
        return isTruthy(args[0] ? this.eval(args[0]) : null) ? (args[1] ? this.eval(args[1]) : null) : args[2] ? this.eval(args[2]) : null;
      case 'now':
        return new BaseDate(this.now, true);
      case 'today': {
        const d = new Date(this.now);
        return new BaseDate(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()), false);
      }
    }
    const values = args.map((a) => this.eval(a));
    const [first = null, second = null] = values;
    switch (name) {
      case 'date':
        return first instanceof BaseDate ? first : typeof first === 'string' ? parseDate(first) : null;
      case 'number': {
        if (typeof first === 'number') return first;
        if (typeof first === 'boolean') return first ? 1 : 0;
        if (first instanceof BaseDate) return first.ms;
        const n = typeof first === 'string' && first.trim() !== '' ? Number(first) : NaN;
        return Number.isFinite(n) ? n : null;
      }
      case 'string':
        return displayText(first);
      case 'list':
        return Array.isArray(first) ? first : first === null ? [] : [first];
      case 'link': {
        const display = second === null ? null : displayText(second) || null;
        if (typeof first === 'string') return new BaseLink(first, display);
        return first instanceof BaseLink ? new BaseLink(first.target, display ?? first.display) : null;
      }
      case 'min':
      case 'max': {
        const nums = values.flat().filter((v): v is number => typeof v === 'number');
        return nums.length ? (name === 'min' ? Math.min(...nums) : Math.max(...nums)) : null;
      }
    }
    return null;
  }

  private method(objectExpr: Expr, name: string, args: Expr[]): Value {
    const scope = this.scopeOf(objectExpr);
    const values = args.map((a) => this.eval(a));
    if (scope?.kind === 'file') {
      const own = scope.row === this.row;
      this.charge(fileMethodCost(scope.row, name, values, own ? this.rowLinksRead : this.selfLinksRead));
      if (name === 'hasLink') {
        if (own) this.rowLinksRead = true;
        else this.selfLinksRead = true;
      }
      return fileMethod(scope.row, name, values, this.links);
    }
    const object = this.eval(objectExpr);
    const [first = null, second = null] = values;
    switch (name) {
      case 'toString':
        return displayText(object);
      case 'isTruthy':
        return isTruthy(object);
      case 'isEmpty':
        return !isTruthy(object) && object !== 0 && object !== false;
    }
    if (typeof object === 'string') return stringMethod(object, name, values);
    if (typeof object === 'number') {
      switch (name) {
        case 'toFixed':
          return object.toFixed(typeof first === 'number' ? Math.max(0, Math.min(20, Math.trunc(first))) : 0);
        case 'round': {
          const digits = typeof first === 'number' ? Math.max(0, Math.min(15, Math.trunc(first))) : 0;
          return Math.round(object * 10 ** digits) / 10 ** digits;
        }
        case 'abs':
          return Math.abs(object);
        case 'ceil':
          return Math.ceil(object);
        case 'floor':
          return Math.floor(object);
      }
      return null;
    }
    if (Array.isArray(object)) {
      // A list method's own work counts against the row's steps (unique() compares every pair).
      const n = object.length;
      this.charge(name === 'unique' ? n * n : name === 'sort' || name === 'median' ? n * Math.ceil(Math.log2(n + 1)) : n * Math.max(1, values.length));
      if (LIST_AGGREGATES.has(name)) return aggregate(name, object);
      switch (name) {
        case 'contains':
          return object.some((v) => equal(v, first));
        case 'containsAll':
          return values.every((x) => object.some((v) => equal(v, x)));
        case 'containsAny':
          return values.some((x) => object.some((v) => equal(v, x)));
        case 'join':
          return object.map(displayText).join(typeof first === 'string' ? first : ', ').slice(0, MAX_TEXT);
        case 'reverse':
          return [...object].reverse();
        case 'sort':
          return [...object].sort((a, b) => compare(a, b) ?? 0);
        case 'unique':
          return object.filter((v, i) => object.findIndex((w) => equal(v, w)) === i);
        case 'slice':
          return object.slice(typeof first === 'number' ? first : 0, typeof second === 'number' ? second : undefined);
      }
      return null;
    }
    if (object instanceof BaseDate) {
      if (name === 'format') return formatDate(object, typeof first === 'string' ? first : 'YYYY-MM-DD');
      if (name === 'date') return new BaseDate(Math.floor(object.ms / 86_400_000) * 86_400_000, false);
      if (name === 'year' || name === 'month' || name === 'day') return dateField(object, name);
    }
    return null;
  }
}
