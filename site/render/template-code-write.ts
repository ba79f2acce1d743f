// Writes dist/templates.json (template-code.ts) at `npm run compile`: each include's code
// for exactly the text a process will compile (the whole file, as Nunjucks' loader reads
// it). A page template is one line including its page's body (`_includes/pages/`): Eleventy
// compiles that line itself.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { environment } from './nunjucks-engine.ts';
import { TEMPLATES_DIR } from './paths.ts';
import { codeTable, TEMPLATE_CODE_FILE } from './template-code.ts';

export async function writeTemplateCode(): Promise<void> {
  const sources = new Map<string, string>();
  const includes = path.join(TEMPLATES_DIR, '_includes');
  for (const name of ((await fs.readdir(includes, { recursive: true })) as string[]).filter((n) => n.endsWith('.njk')).sort()) {
    const file = path.join(includes, name);
    sources.set(file, await fs.readFile(file, 'utf8'));
  }
  const work = `${TEMPLATE_CODE_FILE}.new-${process.pid}`;
  await fs.mkdir(path.dirname(TEMPLATE_CODE_FILE), { recursive: true });
  await fs.writeFile(work, JSON.stringify(codeTable(environment(), sources)));
  await fs.rename(work, TEMPLATE_CODE_FILE);
}
