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

export type CompiledTemplate = (context: object) => Promise<string>;

/** `source` compiled now (or ahead); `file` names it in errors and resolves its imports. */
export function compileTemplate(source: string, file: string): CompiledTemplate {
  const props = compiledAhead(file, source);
  const template = new nunjucks.Template(props ? { type: 'code', obj: props } : source, environment(), file, true);
  return (context) =>
    new Promise((resolve, reject) => {
      template.render(context, (err, out) => (err ? reject(err) : resolve(out ?? '')));
    });
}
