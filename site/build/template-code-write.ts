// Writes dist/templates.json (template-code.ts) at `npm run compile`: each template's code
// for exactly the text a process will compile, a page template's body after its front
// matter (template-runner.ts) and an imported one's whole file (as Nunjucks' loader reads it).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { environment } from './nunjucks-engine.ts';
import { TEMPLATES_DIR } from './paths.ts';
import { codeTable, TEMPLATE_CODE_FILE } from './template-code.ts';
import { paginationOf } from './template-runner.ts';

export async function writeTemplateCode(): Promise<void> {
  const sources = new Map<string, string>();
  const includes = path.join(TEMPLATES_DIR, '_includes');
  for (const name of (await fs.readdir(TEMPLATES_DIR)).filter((n) => n.endsWith('.njk')).sort()) {
    const file = path.join(TEMPLATES_DIR, name);
    sources.set(file, paginationOf(name, await fs.readFile(file, 'utf8')).body);
  }
  for (const name of (await fs.readdir(includes)).filter((n) => n.endsWith('.njk')).sort()) {
    const file = path.join(includes, name);
    sources.set(file, await fs.readFile(file, 'utf8'));
  }
  const work = `${TEMPLATE_CODE_FILE}.new-${process.pid}`;
  await fs.mkdir(path.dirname(TEMPLATE_CODE_FILE), { recursive: true });
  await fs.writeFile(work, JSON.stringify(codeTable(environment(), sources)));
  await fs.rename(work, TEMPLATE_CODE_FILE);
}
