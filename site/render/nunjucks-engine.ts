// The site's Nunjucks: one environment (the templates' folders, autoescape, our filters),
// each template compiled once per process, or ahead of it (template-code.ts).
import path from 'node:path';
import nunjucks from 'nunjucks';
import { TEMPLATES_DIR } from './paths.ts';
import { filters } from './filters.ts';
import { compiledAhead } from './template-code.ts';

const environments = new Map<string, nunjucks.Environment>();

/** The environment for our templates, a theme's (a folder whose templates and includes come before ours) when named. */
export function environment(theme: string | null = null): nunjucks.Environment {
  let env = environments.get(theme ?? '');
  if (env) return env;
  const ours = [path.join(TEMPLATES_DIR, '_includes'), TEMPLATES_DIR];
  const loader = new nunjucks.FileSystemLoader(theme ? [path.join(theme, '_includes'), theme, ...ours] : ours);
  // An imported template (`{% from "frame.njk" import page %}`) comes compiled ahead when its text is the one compiled.
  const read = loader.getSource.bind(loader);
  loader.getSource = (name) => {
    const found = read(name);
    if (!found || typeof found.src !== 'string') return found;
    const props = compiledAhead(found.path, found.src);
    return props ? { ...found, src: { type: 'code', obj: props } } : found;
  };
  env = new nunjucks.Environment(loader, { autoescape: true });
  for (const [name, filter] of Object.entries(filters)) env.addFilter(name, filter as (...args: unknown[]) => unknown);
  environments.set(theme ?? '', env);
  return env;
}

type CompiledTemplate = (context: object) => Promise<string>;

/** `source` compiled now (or ahead) in `env`; `file` names it in errors and resolves its imports. */
function compileTemplate(env: nunjucks.Environment, source: string, file: string | undefined): CompiledTemplate {
  const props = file ? compiledAhead(file, source) : null;
  const template = new nunjucks.Template(props ? { type: 'code', obj: props } : source, env, file, true);
  return (context) =>
    new Promise((resolve, reject) => {
      template.render(context, (err, out) => (err ? reject(err) : resolve(out ?? '')));
    });
}

/** Whether a permalink's text holds Nunjucks (what Eleventy's own engine asks before rendering one). */
const HOLDS_NUNJUCKS = /\{\{|\{%/;

/**
 * Eleventy's `njk` as its `addExtension` lets a built-in language be overridden: the same
 * rendering in `env`, each template's text compiled once and kept in Eleventy's compile cache.
 * Eleventy's own Nunjucks engine stays out of that cache, so a paginated template's text was
 * compiled again for every page it made. Filters, shortcodes and tags given to Eleventy still
 * reach `env` (it is the library `setLibrary` names).
 */
export function nunjucksCompiledOnce(env: nunjucks.Environment) {
  const compile = (source: string, inputPath?: string) => compileTemplate(env, source, inputPath);
  return {
    compile,
    compileOptions: {
      cache: true,
      // A permalink's text holding Nunjucks renders as Eleventy's engine renders it; a function
      // (ours) is Eleventy's to call, `false` writes nothing, and none leaves Eleventy's default.
      permalink: (value: unknown, inputPath: string) => {
        if (typeof value === 'string') return HOLDS_NUNJUCKS.test(value) ? compile(value, inputPath) : () => value;
        return value === false ? () => false : value;
      },
    },
  };
}
