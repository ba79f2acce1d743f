// The templates render a pass's views in batches (site/build/template-runner.ts): each
// template's front matter names the list it renders and the batch size; every view comes
// out exactly once, a `{% file %}` block handed to the render's sink as soon as it is made
// (site/build/file-tag.ts).
import { describe, expect, it } from 'vitest';
import type { RenderedFile } from '../../site/build/file-tag.ts';
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
  const robots = (n: number) => {
    const data = emptyRender();
    data.site = { base: 'https://example.test' } as never;
    for (let i = 0; i < n; i++) data.robots.push({ file: `r${i}/robots.txt` });
    return data;
  };

  it('120 robots files are handed over each once, in order, with their own text', async () => {
    const data = robots(120);
    const files: RenderedFile[] = [];
    await new TemplateRunner().render(data, (file, text) => files.push([file, text]));
    expect(files.map(([file]) => file)).toEqual(data.robots.map((r) => r.file));
    for (const [, body] of files) expect(body).toBe('User-agent: *\nAllow: /\nDisallow: /api/\nSitemap: https://example.test/sitemap.xml\n');
  });

  it('hands each page over as soon as it is made, before the next page of its batch is begun (its text dies young)', async () => {
    const data = robots(5);
    const events: string[] = [];
    data.robots = data.robots.map((r, i) => ({
      // Nunjucks may look a member up more than once: the first look is the page's beginning.
      get file() {
        if (!events.includes(`begin ${i}`)) events.push(`begin ${i}`);
        return r.file;
      },
    }));
    await new TemplateRunner().render(data, (file) => events.push(`out ${file}`));
    expect(events).toEqual([0, 1, 2, 3, 4].flatMap((i) => [`begin ${i}`, `out r${i}/robots.txt`]));
  });

  it('a sink that fails fails the render with its own error, code kept', async () => {
    const failure = Object.assign(new Error('ENOTDIR: not a directory'), { code: 'ENOTDIR' });
    const rendering = new TemplateRunner().render(robots(3), () => {
      throw failure;
    });
    await expect(rendering).rejects.toBe(failure);
  });

  it('an empty pass renders nothing', async () => {
    const files: RenderedFile[] = [];
    await new TemplateRunner().render(emptyRender(), (file, text) => files.push([file, text]));
    expect(files).toEqual([]);
  });
});
