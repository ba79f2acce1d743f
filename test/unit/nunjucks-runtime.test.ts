// site/render/nunjucks-runtime.ts: Nunjucks's scope with each variable's name split once, and
// its escape skipping values with nothing to escape. The templates must read as with
// Nunjucks's own: loop variables, `{% set %}` reaching an outer scope (or not, from a macro),
// macro arguments, two names per loop turn; every character autoescape escapes.
import nunjucks from 'nunjucks';
import { describe, expect, it } from 'vitest';
import { installFastRuntime } from '../../site/render/nunjucks-runtime.ts';

const TEMPLATE =
  '{% set x = 1 %}{% for i in [1,2,3] %}[{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.first }}{{ loop.last }}{{ loop.length }}]{% set x = i %}{% endfor %}x={{ x }} ' +
  '{% macro m(a, b=2) %}{{ a }}{{ b }}{% set z = 9 %}{% endmacro %}{{ m(1) }}{{ m(3, b=4) }} z={{ z }} ' +
  '{% if true %}{% set y = 5 %}{% endif %}y={{ y }} {% for k, v in {p: 1} %}{{ k }}{{ v }}{% endfor %}';
// What Nunjucks 3's own Frame#set renders it as (measured before this module existed).
const EXPECTED = '[103truefalse3][212falsefalse3][321falsetrue3]x=3 1234 z= y=5 p1';

describe('nunjucks-runtime', () => {
  it('renders loops, sets, macros and pairs as Nunjucks does', () => {
    installFastRuntime();
    expect(new nunjucks.Environment().renderString(TEMPLATE, {})).toBe(EXPECTED);
    // Twice: the second render reads the names split by the first.
    expect(new nunjucks.Environment().renderString(TEMPLATE, {})).toBe(EXPECTED);
  });

  it('makes the objects a dotted name passes through, and sets up through the scopes that hold a name', () => {
    installFastRuntime();
    const outer = new nunjucks.runtime.Frame();
    outer.set('a.b.c', 1);
    expect(outer.variables).toEqual({ a: { b: { c: 1 } } });
    outer.set('n', 1);
    const inner = outer.push();
    inner.set('n', 2, true);
    expect(outer.variables.n).toBe(2);
    expect(inner.variables.n).toBeUndefined();
    inner.set('fresh', 3, true);
    expect(inner.variables.fresh).toBe(3);
    expect(outer.variables.fresh).toBeUndefined();
  });

  it('escapes every character autoescape escapes, and leaves a value without them as it is', () => {
    installFastRuntime();
    const env = new nunjucks.Environment(undefined, { autoescape: true });
    const escaped: Record<string, string> = { '&': '&amp;', '"': '&quot;', "'": '&#39;', '<': '&lt;', '>': '&gt;', '\\': '&#92;' };
    // Each alone: a value holding just one of them is escaped too.
    for (const [ch, entity] of Object.entries(escaped)) expect(env.renderString('{{ x }}', { x: `a${ch}b` })).toBe(`a${entity}b`);
    expect(env.renderString('{{ a }}|{{ b }}|{{ c | safe }}', { a: `Tom & "Jerry" <b>'s\\`, b: 'plain text, 2024-01-15 /a/b', c: '<i>' })).toBe('Tom &amp; &quot;Jerry&quot; &lt;b&gt;&#39;s&#92;|plain text, 2024-01-15 /a/b|<i>');
  });
});
