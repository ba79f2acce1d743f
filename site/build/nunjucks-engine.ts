// Nunjucks for Eleventy, compiled once per template. Eleventy 3.1 marks its Nunjucks
// engine uncacheable and, even behind `compileOptions.cache`, recompiles the template
// for every paginated page: at thousands of pages that was most of a full build.
// Eleventy still drives pagination, the data cascade, permalinks and writing.
import path from 'node:path';
import nunjucks from 'nunjucks';
import { PROJECT_DIR } from './paths.ts';
import { filters } from './filters.ts';

const TEMPLATES = path.join(PROJECT_DIR, 'site/templates');

let env: nunjucks.Environment | null = null;

function environment(): nunjucks.Environment {
  if (env) return env;
  env = new nunjucks.Environment(new nunjucks.FileSystemLoader([path.join(TEMPLATES, '_includes'), TEMPLATES]), { autoescape: true });
  for (const [name, filter] of Object.entries(filters)) env.addFilter(name, filter as (...args: unknown[]) => unknown);
  return env;
}

export function compileNunjucks(source: string, inputPath: string): (data: object) => Promise<string> {
  const template = new nunjucks.Template(source, environment(), inputPath, true);
  return (data) =>
    new Promise((resolve, reject) => {
      template.render(data, (err, out) => (err ? reject(err) : resolve(out ?? '')));
    });
}
