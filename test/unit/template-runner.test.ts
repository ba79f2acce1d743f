// The templates render a pass's views in batches (site/build/template-runner.ts): each
// template's front matter names the list it renders and the batch size; every view comes
// out exactly once, opened by its file marker, and bundles.ts splits the batches into files.
import { describe, expect, it } from 'vitest';
import { splitBundle } from '../../site/build/bundles.ts';
import { emptyRender } from '../../site/build/render-state.ts';
import { paginationOf, TemplateRunner } from '../../site/build/template-runner.ts';

describe('a template names what it renders in its front matter', () => {
  it('reads the list and the batch size, and renders what follows the front matter', () => {
    const text = '---\npagination:\n  data: vault.articles\n  size: 50\n---\n{%- for a in pagination.items -%}x{% endfor %}\n';
    expect(paginationOf('article.njk', text)).toEqual({ list: 'articles', size: 50, body: '{%- for a in pagination.items -%}x{% endfor %}\n' });
  });

  it('a batch of one when no size is given', () => {
    expect(paginationOf('nav.njk', '---\npagination:\n  data: vault.nav\n---\nbody').size).toBe(1);
  });

  it('refuses a template that names no list, saying which', () => {
    expect(() => paginationOf('odd.njk', '<p>no front matter</p>')).toThrow(/odd\.njk/);
    expect(() => paginationOf('odd.njk', '---\ntitle: x\n---\nbody')).toThrow(/pagination: data: vault/);
  });
});

describe('a pass renders every view once, in batches', () => {
  it('120 robots files are three renders of the robots template, each file once', async () => {
    const data = emptyRender();
    data.site = { base: 'https://example.test' } as never;
    for (let i = 0; i < 120; i++) data.robots.push({ file: `r${i}/robots.txt` });
    const batches = await new TemplateRunner().render(data);
    expect(batches).toHaveLength(3);
    const files = batches.flatMap((b) => splitBundle(b));
    expect(files.map(([file]) => file)).toEqual(data.robots.map((r) => r.file));
    for (const [, body] of files) expect(body).toBe('User-agent: *\nAllow: /\nDisallow: /api/\nSitemap: https://example.test/sitemap.xml\n');
  });

  it('an empty pass renders nothing', async () => {
    expect(await new TemplateRunner().render(emptyRender())).toEqual([]);
  });
});
