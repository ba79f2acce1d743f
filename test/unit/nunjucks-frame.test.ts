// site/build/nunjucks-frame.ts: Nunjucks's scope with each variable's name split once. The
// templates must read as with Nunjucks's own Frame#set: loop variables, `{% set %}` reaching
// an outer scope (or not, from a macro), macro arguments, two names per loop turn.
import nunjucks from 'nunjucks';
import { describe, expect, it } from 'vitest';
import { installFrameSet } from '../../site/build/nunjucks-frame.ts';

const TEMPLATE =
  '{% set x = 1 %}{% for i in [1,2,3] %}[{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.first }}{{ loop.last }}{{ loop.length }}]{% set x = i %}{% endfor %}x={{ x }} ' +
  '{% macro m(a, b=2) %}{{ a }}{{ b }}{% set z = 9 %}{% endmacro %}{{ m(1) }}{{ m(3, b=4) }} z={{ z }} ' +
  '{% if true %}{% set y = 5 %}{% endif %}y={{ y }} {% for k, v in {p: 1} %}{{ k }}{{ v }}{% endfor %}';
// What Nunjucks 3's own Frame#set renders it as (measured before this module existed).
const EXPECTED = '[103truefalse3][212falsefalse3][321falsetrue3]x=3 1234 z= y=5 p1';

describe('nunjucks-frame', () => {
  it('renders loops, sets, macros and pairs as Nunjucks does', () => {
    installFrameSet();
    expect(new nunjucks.Environment().renderString(TEMPLATE, {})).toBe(EXPECTED);
    // Twice: the second render reads the names split by the first.
    expect(new nunjucks.Environment().renderString(TEMPLATE, {})).toBe(EXPECTED);
  });

  it('makes the objects a dotted name passes through, and sets up through the scopes that hold a name', () => {
    installFrameSet();
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
});
