// The templates compiled ahead. Nunjucks turns each template into JavaScript on
// its first use: about 40 ms of every process that renders pages (a snapshot build, its
// build thread, the server's builder), before the first page. `npm run compile` writes
// each template's code to dist/templates.json; a process takes a template's code only when
// it was made from the very text the process reads now (by its hash), else compiles the
// template itself, as before. A stale or missing file costs time, never a wrong page.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import nunjucks from 'nunjucks';
import { hashText } from '../../shared/note/text-hash.ts';
import { PROJECT_DIR, TEMPLATES_DIR } from './paths.ts';

export const TEMPLATE_CODE_FILE = path.join(PROJECT_DIR, 'dist/templates.json');

/** A template's compiled code, by its path under site/templates/. */
export type CodeTable = Record<string, { hash: string; code: string }>;

/** What a compiled template's code makes: its root render function, its blocks. */
export type TemplateProps = Record<string, unknown>;

let table: CodeTable | null = null;

function loadTable(): CodeTable {
  try {
    const read = JSON.parse(readFileSync(TEMPLATE_CODE_FILE, 'utf8')) as unknown;
    return typeof read === 'object' && read !== null ? (read as CodeTable) : {};
  } catch {
    return {};
  }
}

const keyOf = (file: string) => path.relative(TEMPLATES_DIR, file).split(path.sep).join('/');

/** The compiled code of `source`, as Nunjucks compiles it in `env`. */
export function compileToCode(env: nunjucks.Environment, source: string, file: string): string {
  return nunjucks.compiler.compile(source, env.asyncFilters, env.extensionsList, file, env.opts);
}

/** The template `file`'s props from `codes`, when its code was made from this `source`; else null. */
export function propsFrom(codes: CodeTable, file: string, source: string): TemplateProps | null {
  const entry = Object.hasOwn(codes, keyOf(file)) ? codes[keyOf(file)] : undefined;
  if (!entry || typeof entry.code !== 'string' || entry.hash !== hashText(source)) return null;
  return new Function(entry.code)() as TemplateProps;
}

/** The template `file`'s props from dist/templates.json, when made from this `source`; else null. */
export function compiledAhead(file: string, source: string): TemplateProps | null {
  table ??= loadTable();
  return propsFrom(table, file, source);
}

/** Every template's code, for dist/templates.json: `sources` are the texts the processes will compile, by file. */
export function codeTable(env: nunjucks.Environment, sources: Map<string, string>): CodeTable {
  const out: CodeTable = {};
  for (const [file, source] of sources) out[keyOf(file)] = { hash: hashText(source), code: compileToCode(env, source, file) };
  return out;
}
