// A pass's views are rendered by Eleventy (site/render/eleventy-runner.ts), configured by the
// project's .eleventy.js: each page template paginates over its list of views, one page a
// view, its permalink the view's file; a pass renders its own views and no other's.
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import nunjucks from 'nunjucks';
import { afterAll, describe, expect, it } from 'vitest';
import { EleventyRunner, type RenderedFile } from '../../site/render/eleventy-runner.ts';
import { NO_EXTENSIONS } from '../../site/render/eleventy-site.ts';
import { TEMPLATES_DIR } from '../../site/render/paths.ts';
import { emptyRender, type RenderData } from '../../site/render/render-state.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const robots = (n: number, from = 0): RenderData => {
  const data = emptyRender();
  data.site = { base: 'https://example.test' } as never;
  for (let i = from; i < from + n; i++) data.robots.push({ file: `r${i}/robots.txt` });
  return data;
};

const ROBOTS = 'User-agent: *\nAllow: /\nDisallow: /api/\nSitemap: https://example.test/sitemap.xml\n';

describe('the page templates paginate the way Eleventy documents', () => {
  const lists = Object.keys(emptyRender()).filter((k) => k !== 'site');
  const templates = readdirSync(TEMPLATES_DIR).filter((n) => n.endsWith('.njk'));

  it('each one a view per page over one of the render\'s lists, its permalink the view\'s file', () => {
    const named = new Set<string>();
    for (const name of templates) {
      const text = readFileSync(path.join(TEMPLATES_DIR, name), 'utf8');
      const m = /pagination: \{ data: "vault\.(\w+)", size: 1, alias: "(\w+)" \},\n\s+permalink: \(data\) => data\.(\w+)\.file,/.exec(text);
      expect(m, name).not.toBeNull();
      expect(m![3], name).toBe(m![2]);
      named.add(m![1]!);
    }
    expect([...named].sort()).toEqual(lists.sort());
  });
});

describe('a pass renders every view of its own once', () => {
  it('120 robots files are handed over each once, with their own text', async () => {
    const data = robots(120);
    const files: RenderedFile[] = [];
    await new EleventyRunner(NO_EXTENSIONS).render(data, (file, text) => files.push([file, text]));
    expect(files.map(([file]) => file).sort()).toEqual(data.robots.map((r) => r.file).sort());
    for (const [, body] of files) expect(body).toBe(ROBOTS);
  });

  it('a second pass on the same instance renders its own views only, none of the first one\'s', async () => {
    const runner = new EleventyRunner(NO_EXTENSIONS);
    await runner.render(robots(3), () => undefined);
    const files: string[] = [];
    await runner.render(robots(2, 10), (file) => files.push(file));
    expect(files.sort()).toEqual(['r10/robots.txt', 'r11/robots.txt']);
  });

  it('a sink that fails fails the render with its own error, code kept', async () => {
    const failure = Object.assign(new Error('ENOTDIR: not a directory'), { code: 'ENOTDIR' });
    const rendering = new EleventyRunner(NO_EXTENSIONS).render(robots(3), () => {
      throw failure;
    });
    await expect(rendering).rejects.toBe(failure);
  });

  it('an empty pass renders nothing', async () => {
    const files: RenderedFile[] = [];
    await new EleventyRunner(NO_EXTENSIONS).render(emptyRender(), (file, text) => files.push([file, text]));
    expect(files).toEqual([]);
  });
});

describe('Eleventy stays quiet', () => {
  it('its benchmark notes are off in every group, the one its config object makes first too (they would land in a --quiet build\'s output)', async () => {
    const runner = new EleventyRunner(NO_EXTENSIONS);
    await runner.render(robots(5), () => undefined);
    await runner.render(robots(5, 5), () => undefined);
    // Through the instance's own configuration: what Eleventy consults before it prints a note.
    const eleventy = await (runner as unknown as { eleventy: Promise<{ eleventyConfig: { userConfig: { benchmarkManager: { getAll(): Record<string, { isVerbose: boolean }> } } } }> }).eleventy;
    const groups = Object.entries(eleventy.eleventyConfig.userConfig.benchmarkManager.getAll());
    expect(groups.length).toBeGreaterThan(0);
    expect(groups.filter(([, group]) => group.isVerbose).map(([name]) => name)).toEqual([]);
  });
});

describe('the templates read the views as they are', () => {
  // Eleventy reads each page's data through a proxy, which wraps any plain object it hands
  // out in a new proxy per read; frozen views it hands over unwrapped (render-state.ts readOnlyViews).
  it('no proxy between a template and `vault`, its site or the site\'s strings, and the plan\'s own site is left as it was', async () => {
    const dir = await tempDir('vs-runner-');
    const theme = path.join(dir, 'theme');
    await fs.mkdir(theme);
    const robotsTemplate = readFileSync(path.join(TEMPLATES_DIR, 'robots.njk'), 'utf8').replace('{% include "pages/robots.njk" -%}', '{{ vault | proxied }} {{ vault.site | proxied }} {{ vault.site.strings | proxied }} {{ vault.site.strings.hello }}');
    await fs.writeFile(path.join(theme, 'robots.njk'), robotsTemplate);
    const config = path.join(dir, 'site.config.mjs');
    await fs.writeFile(config, "import { types } from 'node:util';\nexport default function (c) { c.addFilter('proxied', (v) => String(types.isProxy(v))); }\n");
    const data = robots(1);
    data.site = { base: 'https://example.test', strings: { hello: 'hello' } } as never;
    const files: RenderedFile[] = [];
    await new EleventyRunner({ theme, eleventyConfig: config }).render(data, (file, text) => files.push([file, text]));
    expect(files).toEqual([['r0/robots.txt', 'false false false hello\n']]);
    expect(Object.isFrozen(data.site)).toBe(false);
    expect(Object.isFrozen((data.site as unknown as { strings: object }).strings)).toBe(false);
  });
});

describe('each template is compiled once a pass', () => {
  // Eleventy's own Nunjucks engine keeps out of Eleventy's compile cache: a paginated template's
  // text was compiled again for every page (nunjucks-engine.ts nunjucksCompiledOnce).
  it('120 pages of one template, one compile of its text', async () => {
    const made: string[] = [];
    const Original = nunjucks.Template;
    (nunjucks as { Template: unknown }).Template = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        if (typeof args[0] === 'string' && String(args[2]).endsWith('robots.njk')) made.push(args[2]!);
      }
    };
    try {
      const files: RenderedFile[] = [];
      await new EleventyRunner(NO_EXTENSIONS).render(robots(120), (file, text) => files.push([file, text]));
      expect(files.length).toBe(120);
      for (const [, body] of files) expect(body).toBe(ROBOTS);
    } finally {
      (nunjucks as { Template: unknown }).Template = Original;
    }
    expect(made.length).toBe(1);
  });

  it('an operator\'s own template still renders a permalink holding Nunjucks, with an operator\'s filter', async () => {
    const dir = await tempDir('vs-runner-');
    const config = path.join(dir, 'site.config.mjs');
    await fs.writeFile(
      config,
      "export default function (c) {\n  c.addFilter('shout', (v) => String(v).toUpperCase() + '!');\n  c.addTemplate('extra.njk', '---\\npermalink: \"extra/{{ 40 + 2 }}/index.html\"\\n---\\n{{ \"made\" | shout }}');\n  c.addTemplate('plain.njk', '---\\npermalink: plain/index.html\\n---\\nplain');\n}\n",
    );
    const files: RenderedFile[] = [];
    await new EleventyRunner({ theme: null, eleventyConfig: config }).render(robots(1), (file, text) => files.push([file, text]));
    expect(files.sort()).toEqual([['extra/42/index.html', 'MADE!'], ['plain/index.html', 'plain'], ['r0/robots.txt', ROBOTS]]);
  });
});
