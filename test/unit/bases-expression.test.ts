// The Bases expression language (shared/bases/): parsed by hand, evaluated per row, never
// through eval. Hostile input (deep nesting, huge text, prototype keys, runaway formulas)
// gives a clear refusal or a null, never a hang, a crash or a value from Object.prototype.
import { describe, expect, it } from 'vitest';
import { readBase, readsThis } from '../../shared/bases/base-file.ts';
import { MAX_STEPS_PER_BASE, RowEvaluator, type BaseRowSource } from '../../shared/bases/evaluate.ts';
import { BaseExpressionError, MAX_EXPRESSION_DEPTH, parseExpression } from '../../shared/bases/expression.ts';
import { runView } from '../../shared/bases/query.ts';
import { BaseDate, BaseLink, displayText, MAX_TEXT, type Value } from '../../shared/bases/values.ts';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

function row(properties: Record<string, unknown>, file: Partial<BaseRowSource['file']> = {}): BaseRowSource {
  return {
    properties,
    file: { name: 'Note.md', basename: 'Note', path: 'Books/Note.md', folder: 'Books', ext: 'md', ctime: null, mtime: Date.UTC(2026, 0, 2), size: 120, tags: ['book', 'book/fiction'], links: ['Textbook', 'Other/Thing.md'], ...file },
  };
}

function evaluate(src: string, properties: Record<string, unknown> = {}, formulas: Record<string, string> = {}): Value {
  const parsed = new Map(Object.entries(formulas).map(([k, v]) => [k, parseExpression(v)]));
  return new RowEvaluator(row(properties), parsed, NOW, null).value(parseExpression(src));
}

describe('expressions compute as Obsidian Bases does', () => {
  it('arithmetic with precedence, and string concatenation', () => {
    expect(evaluate('1 + 2 * 3')).toBe(7);
    expect(evaluate('(1 + 2) * 3')).toBe(9);
    expect(evaluate('10 % 4 - -1')).toBe(3);
    expect(evaluate('"a" + 1 + "b"')).toBe('a1b');
    expect(evaluate('price / 0', { price: 3 })).toBeNull();
  });

  it('comparisons and logic over note properties, bare or as note.x', () => {
    expect(evaluate('status == "done"', { status: 'done' })).toBe(true);
    expect(evaluate('note.status != "done"', { status: 'done' })).toBe(false);
    expect(evaluate('rating >= 4 && !(draft)', { rating: 4, draft: false })).toBe(true);
    expect(evaluate('missing || rating > 10', { rating: 4 })).toBe(false);
    expect(evaluate('note["my prop"] == 2', { 'my prop': 2 })).toBe(true);
  });

  it('file properties and functions', () => {
    expect(evaluate('file.name')).toBe('Note.md');
    expect(evaluate('file.basename')).toBe('Note');
    expect(evaluate('file.ext')).toBe('md');
    expect(evaluate('file.hasTag("book")')).toBe(true);
    expect(evaluate('file.hasTag("fiction")')).toBe(false);
    expect(evaluate('file.inFolder("Books")')).toBe(true);
    expect(evaluate('file.inFolder("Book")')).toBe(false);
    expect(evaluate('file.hasLink("Thing")')).toBe(true);
    expect(evaluate('file.tags.contains("#book")')).toBe(true);
    expect(evaluate('file.links.length')).toBe(2);
    expect(evaluate('file.mtime < now()')).toBe(true);
    expect(evaluate('file.mtime.format("YYYY/MM/DD")')).toBe('2026/01/02');
  });

  it('functions: if, date, now, number, toFixed, length, contains, lower, join', () => {
    expect(evaluate('if(price, price.toFixed(2) + " dollars")', { price: 3 })).toBe('3.00 dollars');
    expect(evaluate('if(price, "yes", "no")', {})).toBe('no');
    expect(evaluate('date("2026-01-10") < date("2026-01-11")')).toBe(true);
    expect(evaluate('(now() - date("2026-01-14")) / 3600000')).toBe(36);
    expect(evaluate('date("2026-01-10") + "2d"')).toEqual(new BaseDate(Date.UTC(2026, 0, 12), false));
    expect(evaluate('number("12") + 1')).toBe(13);
    expect(evaluate('title.length', { title: 'hello' })).toBe(5);
    expect(evaluate('title.lower().contains("ell")', { title: 'HELLO' })).toBe(true);
    expect(evaluate('tags.join(" / ")', { tags: ['a', 'b'] })).toBe('a / b');
    expect(evaluate('link("Other")')).toEqual(new BaseLink('Other', null));
  });

  it('formulas read formulas, each evaluated once per row', () => {
    expect(evaluate('formula.total', { price: 2, qty: 3 }, { total: 'price * qty', label: 'formula.total + " items"' })).toBe(6);
    expect(evaluate('formula.label', { price: 2, qty: 3 }, { total: 'price * qty', label: 'formula.total + " items"' })).toBe('6 items');
  });
});

describe('hostile expressions are refused or bounded, never run', () => {
  it('an unknown function is an unsupported one, named', () => {
    const err = (() => {
      try {
        parseExpression('file.backlinks.map(value.name)');
      } catch (e) {
        return e as BaseExpressionError;
      }
    })();
    expect(err).toBeInstanceOf(BaseExpressionError);
    expect(err!.kind).toBe('unsupported');
    expect(err!.what).toBe('map()');
    expect(() => parseExpression('eval("1")')).toThrow(/eval\(\)/);
    expect(() => parseExpression('constructor("return 1")')).toThrow(BaseExpressionError);
  });

  it('deep nesting stops at a bound, with a parse error rather than a stack overflow', () => {
    const deep = '('.repeat(5000) + '1' + ')'.repeat(5000);
    expect(() => parseExpression(deep)).toThrow(BaseExpressionError);
    const nots = '!'.repeat(MAX_EXPRESSION_DEPTH + 5) + 'x';
    expect(() => parseExpression(nots)).toThrow(/nested/);
    expect(() => parseExpression('a' + ' + a'.repeat(3000))).toThrow(BaseExpressionError);
  });

  it('malformed text is a parse error', () => {
    for (const bad of ['1 +', '"open', 'a..b', '(1', 'a b', '#', '', 'x[']) expect(() => parseExpression(bad), bad).toThrow(BaseExpressionError);
  });

  it('prototype keys read the note’s own keys only', () => {
    expect(evaluate('__proto__')).toBeNull();
    expect(evaluate('constructor')).toBeNull();
    expect(evaluate('note.constructor')).toBeNull();
    expect(evaluate('note["__proto__"]')).toBeNull();
    expect(evaluate('toString')).toBeNull();
    expect(evaluate('x.constructor', { x: { a: 1 } })).toBeNull();
    expect(evaluate('x.hasOwnProperty', { x: { a: 1 } })).toBeNull();
    expect(evaluate('formula.constructor')).toBeNull();
    expect(evaluate('file.constructor')).toBeNull();
    const own = JSON.parse('{"__proto__": "mine"}') as Record<string, unknown>;
    expect(new RowEvaluator(row(own), new Map(), NOW, null).value(parseExpression('__proto__'))).toBe('mine');
  });

  it('huge text is cut, and doubling formulas cannot blow up', () => {
    const big = 'x'.repeat(MAX_TEXT);
    const joined = evaluate('s + s + s', { s: big });
    expect(typeof joined === 'string' && joined.length).toBe(MAX_TEXT);
    const formulas: Record<string, string> = { f0: 's' };
    for (let i = 1; i <= 60; i++) formulas[`f${i}`] = `formula.f${i - 1} + formula.f${i - 1}`;
    const started = Date.now();
    const v = evaluate('formula.f60.length', { s: 'ab' }, formulas);
    expect(v).toBe(MAX_TEXT);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('a formula reading itself is null; the step limit ends a row’s work', () => {
    expect(evaluate('formula.a', {}, { a: 'formula.b + 1', b: 'formula.a + 1' })).toBeNull();
    const list = Array.from({ length: 1000 }, (_, i) => i);
    expect(evaluate('x.unique().unique().unique().unique().length', { x: list })).toBeNull();
  });

  it('a whole base has a budget: a costly filter over many notes stops, and later rows are left out', () => {
    const read = readBase('filters: x.contains(999)\n');
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const list = Array.from({ length: 1000 }, (_, i) => i);
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ source: i, row: row({ x: list }) }));
    const started = Date.now();
    const result = runView(read.spec, read.spec.views[0]!, rows, NOW, null);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(result.total).toBeGreaterThan(1000);
    expect(result.total).toBeLessThan(10_000);
  });

  it('a base spends its budget, then stops at once: 450 hasLink filters and 20 views over 10,000 notes (over five minutes before)', () => {
    const filters = Array.from({ length: 450 }, (_, i) => `    - file.hasLink("zz${i}")`).join('\n');
    const views = Array.from({ length: 20 }, (_, v) => `  - type: table\n    name: V${v}`).join('\n');
    const read = readBase(`filters:\n  or:\n${filters}\nviews:\n${views}\n`);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    // Each note's links are read once, not once a filter: `hasLink` charges them, and a spent budget throws no more.
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ source: i, row: row({}, { links: Array.from({ length: 10 }, (_, k) => `Folder ${k}/Note ${i + k}`) }) }));
    const budget = { left: MAX_STEPS_PER_BASE };
    const started = Date.now();
    for (const view of read.spec.views) expect(runView(read.spec, view, rows, NOW, null, budget).total).toBe(0);
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(budget.left).toBeLessThan(0);
    // A note that links the name is still found, by the note's name whatever its folder.
    const hit = readBase('filters: file.hasLink("Note 7")\n');
    expect(hit.ok && runView(hit.spec, hit.spec.views[0]!, rows.slice(0, 10), NOW, null).total).toBe(8);
  });

  it('a row costs the same steps at every evaluation, whatever an earlier one left cached: a fresh build and an edit cut the same rows', () => {
    const filters = Array.from({ length: 50 }, (_, i) => `    - file.hasLink("zz${i}")`).join('\n');
    const read = readBase(`filters:\n  or:\n${filters}\n`);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const rows = Array.from({ length: 200 }, (_, i) => ({ source: i, row: row({}, { links: Array.from({ length: 30 }, (_, k) => `Note ${i + k}`) }) }));
    const spent = () => {
      const budget = { left: MAX_STEPS_PER_BASE };
      runView(read.spec, read.spec.views[0]!, rows, NOW, null, budget);
      return MAX_STEPS_PER_BASE - budget.left;
    };
    const first = spent();
    expect(spent()).toBe(first);
  });

  it('`file.hasLink` asks where links lead when the vault says so: a note of the same name elsewhere is another note', () => {
    const rows = [
      { source: 'links the archive', row: row({}, { path: 'D.md', links: ['Archive/Index'] }) },
      { source: 'links the project', row: row({}, { path: 'E.md', links: ['Projects/Index'] }) },
    ];
    // A resolver as the site's: each row's links to full paths; `this.file` is a full path already.
    const links = {
      targetsOf: (r: BaseRowSource) => new Set<string | null>(r.file.links.map((l) => `${l}.md`)),
      resolve: (target: string) => (target.endsWith('.md') ? target : `${target}.md`),
    };
    const self = row({}, { path: 'Projects/Index.md', name: 'Index.md', basename: 'Index' });
    const read = readBase('filters: file.hasLink(this.file)\n');
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const shown = (withLinks: boolean) => runView(read.spec, read.spec.views[0]!, rows, NOW, self, undefined, withLinks ? links : null).rows.map((r) => r.source);
    expect(shown(true)).toEqual(['links the project']);
    // Without a resolver (no vault at hand), by the note's name: both.
    expect(shown(false)).toEqual(['links the archive', 'links the project']);
  });

  it('`this.file` is the file showing the base, as a link; a base naming `this` anywhere is known to', () => {
    const self = row({}, { path: 'Notes/Host.md', name: 'Host.md', basename: 'Host' });
    const link = new RowEvaluator(row({}), new Map(), NOW, self).value(parseExpression('this.file'));
    expect(link instanceof BaseLink && link.target).toBe('Notes/Host.md');
    expect(new RowEvaluator(row({}, { links: ['Host'] }), new Map(), NOW, self).test(parseExpression('file.hasLink(this.file)'))).toBe(true);
    const reads = (yaml: string) => {
      const read = readBase(yaml);
      return read.ok && readsThis(read.spec);
    };
    expect(reads('filters: file.hasLink(this.file)\n')).toBe(true);
    expect(reads('formulas:\n  mine: this.status\nviews:\n  - type: table\n')).toBe(true);
    expect(reads('views:\n  - type: table\n    filters: file.inFolder(this.file.folder)\n')).toBe(true);
    expect(reads('filters: file.hasTag("book")\nformulas:\n  x: note.this\n')).toBe(false);
  });

  it('text methods take no patterns: replace is literal', () => {
    expect(evaluate('s.replace("a.", "-")', { s: 'a.a.b' })).toBe('--b');
    expect(evaluate('s.replace("(a+)+$", "x")', { s: 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' })).toBe('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!');
  });
});

describe('a base file is read into filters, formulas and views', () => {
  const yaml = [
    'filters:',
    '  and:',
    '    - file.inFolder("Books")',
    '    - not:',
    '        - status == "dropped"',
    'formulas:',
    '  stars: "rating * 2"',
    'properties:',
    '  formula.stars:',
    '    displayName: Stars',
    'views:',
    '  - type: table',
    '    name: Best',
    '    order: [file.name, status, formula.stars]',
    '    sort:',
    '      - property: rating',
    '        direction: DESC',
    '    limit: 2',
  ].join('\n');

  it('filters, sorts, limits and labels', () => {
    const read = readBase(yaml);
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    const notes = [
      { source: 'a', row: row({ rating: 3, status: 'done' }) },
      { source: 'b', row: row({ rating: 5, status: 'reading' }) },
      { source: 'c', row: row({ rating: 4, status: 'dropped' }) },
      { source: 'd', row: row({ rating: 1 }) },
      { source: 'e', row: row({ rating: 9 }, { folder: 'Elsewhere' }) },
    ];
    const result = runView(read.spec, read.spec.views[0]!, notes, NOW, null);
    expect(result.columns.map((c) => c.label)).toEqual(['Name', 'status', 'Stars']);
    expect(result.rows.map((r) => r.source)).toEqual(['b', 'a']);
    expect(result.total).toBe(3);
    expect(result.rows[0]!.cells.map(displayText)).toEqual(['Note.md', 'reading', '10']);
  });

  it('an unsupported function, view type or malformed YAML is a problem in words, never a throw', () => {
    expect(readBase('filters: values.map(value)\n')).toEqual({ ok: false, problem: { kind: 'unsupported', what: 'the function map()' } });
    // A formula or view the site lacks costs only its cells or its view (bases-obsidian-parity.test.ts).
    const formula = readBase('formulas:\n  x: "values.map(value)"\nviews:\n  - type: table\n    order: [formula.x]\n');
    expect(formula.ok && formula.spec.views[0]!.gaps).toEqual(['the function map()']);
    const view = readBase('views:\n  - type: map\n');
    expect(view.ok && view.spec.views[0]!.problem).toEqual({ kind: 'unsupported', what: 'the map view' });
    const bad = readBase('filters: [unclosed\n');
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.problem.kind).toBe('malformed');
    const deep = readBase('filters:\n' + Array.from({ length: 60 }, (_, i) => ' '.repeat(2 + i * 2) + 'and:\n' + ' '.repeat(2 + i * 2) + '- ').join('').replace(/- $/, '') + ' x\n');
    expect(deep.ok).toBe(false);
    expect(readBase('x'.repeat(300 * 1024)).ok).toBe(false);
  });
});
