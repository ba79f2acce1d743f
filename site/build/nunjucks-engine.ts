// The site's Nunjucks: one environment (the templates' folders, autoescape, our filters),
// each template compiled once per process.
import path from 'node:path';
import nunjucks from 'nunjucks';
import { TEMPLATES_DIR } from './paths.ts';
import { filters } from './filters.ts';

let env: nunjucks.Environment | null = null;

function environment(): nunjucks.Environment {
  if (env) return env;
  env = new nunjucks.Environment(new nunjucks.FileSystemLoader([path.join(TEMPLATES_DIR, '_includes'), TEMPLATES_DIR]), { autoescape: true });
  for (const [name, filter] of Object.entries(filters)) env.addFilter(name, filter as (...args: unknown[]) => unknown);
  return env;
}

export type CompiledTemplate = (context: object) => Promise<string>;

/** `source` compiled now; `file` names it in errors and resolves its imports. */
export function compileTemplate(source: string, file: string): CompiledTemplate {
  const template = new nunjucks.Template(source, environment(), file, true);
  return (context) =>
    new Promise((resolve, reject) => {
      template.render(context, (err, out) => (err ? reject(err) : resolve(out ?? '')));
    });
}
