// The templates compiled ahead (site/render/template-code.ts): a process takes a template's
// code from dist/templates.json only when it was made from the text the process reads, and
// a page rendered from that code is the page compiled from the text.
import path from 'node:path';
import nunjucks from 'nunjucks';
import { describe, expect, it } from 'vitest';
import { environment } from '../../site/render/nunjucks-engine.ts';
import { TEMPLATES_DIR } from '../../site/render/paths.ts';
import { codeTable, propsFrom } from '../../site/render/template-code.ts';

const file = path.join(TEMPLATES_DIR, '_includes/probe.njk');
const source = '{% macro hello(name) %}<b>{{ name }}</b>{% endmacro %}{{ hello(who) }} & {{ "<" | safe }}';

const render = (src: nunjucks.TemplateSource, context: object) =>
  new Promise<string>((resolve, reject) => new nunjucks.Template(src, environment(), file, true).render(context, (err, out) => (err ? reject(err) : resolve(out ?? ''))));

describe('templates compiled ahead', () => {
  it('render exactly what the same text compiled at run time renders', async () => {
    const codes = codeTable(environment(), new Map([[file, source]]));
    expect(Object.keys(codes)).toEqual(['_includes/probe.njk']);
    const props = propsFrom(codes, file, source);
    expect(props).not.toBeNull();
    const context = { who: 'Ann <&> "Bo"' };
    expect(await render({ type: 'code', obj: props! }, context)).toBe(await render(source, context));
  });

  it('are not taken for a text that changed since, nor for another template, nor from a damaged table', () => {
    const codes = codeTable(environment(), new Map([[file, source]]));
    expect(propsFrom(codes, file, `${source} `)).toBeNull();
    expect(propsFrom(codes, path.join(TEMPLATES_DIR, 'other.njk'), source)).toBeNull();
    expect(propsFrom({ '_includes/probe.njk': { hash: 'x', code: 'return {}' } }, file, source)).toBeNull();
    expect(propsFrom({ toString: undefined } as never, path.join(TEMPLATES_DIR, 'toString'), source)).toBeNull();
  });
});
