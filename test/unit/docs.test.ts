// The documentation holds together: the README stays short, every relative link and #anchor
// in README.md, SECURITY.md, STYLE.md and docs/ leads somewhere (anchors as GitHub makes
// them), every file of the repository the pages name is there, each guide and decision page is
// listed, the benchmarks page keeps one dated table and names every benchmark and knob, and
// the code's citations of STYLE.md name one of its sections.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const README_MOST_LINES = 250;

function markdownFiles(): string[] {
  const docs = (readdirSync(path.join(ROOT, 'docs'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f.split(path.sep).join('/')}`);
  return ['README.md', 'SECURITY.md', 'STYLE.md', ...docs.sort()];
}

const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** A heading's anchor as GitHub makes it: lower case, punctuation but `-` and `_` dropped, each space a hyphen. */
export function githubSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*_]{1,2}([^`*_]+)[`*_]{1,2}/g, '$1')
    .replace(/<[^>]+>/g, '');
  return text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a markdown file offers, duplicates numbered as GitHub numbers them. */
function anchorsOf(rel: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of read(rel).replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const slug = githubSlug(m[1]!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** The relative links of a markdown file: target path (from the root) and anchor. */
function linksOf(rel: string): { text: string; target: string; anchor: string | null }[] {
  const out: { text: string; target: string; anchor: string | null }[] = [];
  for (const m of prose(read(rel)).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const href = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue;
    const [file, anchor] = href.split('#') as [string, string | undefined];
    const target = file === '' ? rel : path.posix.normalize(path.posix.join(path.posix.dirname(rel), decodeURI(file)));
    out.push({ text: href, target, anchor: anchor ?? null });
  }
  return out;
}

const SOURCE_DIRS = ['admin', 'shared', 'site', 'scripts', 'test'];

/** Every file and folder of the source tree, `/`-separated from the root. */
function sourceTree(): string[] {
  const out: string[] = [];
  for (const dir of SOURCE_DIRS) {
    for (const name of readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
      const rel = `${dir}/${name.split(path.sep).join('/')}`;
      if (!rel.includes('node_modules') && !rel.includes('/dist/')) out.push(rel);
    }
  }
  return out;
}

/** A name with `*` in it as a pattern over a whole name. */
const globPattern = (name: string) => new RegExp(`^${name.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`);

/** The inline code spans of a markdown file's prose and tables (fenced blocks left out). */
function codeSpans(rel: string): string[] {
  const text = read(rel).replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  return [...text.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!);
}

describe('the documentation', () => {
  it(`README.md is at most ${README_MOST_LINES} lines, for someone running it`, () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(README_MOST_LINES);
  });

  it('the checked files exist, and docs/ holds the guide, the developer pages and the decisions', () => {
    const files = markdownFiles();
    for (const page of ['docs/guide/configuration.md', 'docs/dev/architecture.md', 'docs/dev/performance.md', 'docs/decisions/README.md']) {
      expect(files).toContain(page);
    }
  });

  it('every relative link leads to a file or folder of the repository, and every #anchor to a heading there', () => {
    const broken: string[] = [];
    for (const rel of markdownFiles()) {
      for (const link of linksOf(rel)) {
        const abs = path.join(ROOT, link.target);
        if (link.target.startsWith('..') || !existsSync(abs)) {
          broken.push(`${rel}: ${link.text} (no ${link.target})`);
          continue;
        }
        if (link.anchor === null) continue;
        if (statSync(abs).isDirectory() || !link.target.endsWith('.md')) {
          broken.push(`${rel}: ${link.text} (an anchor into something that is not a markdown file)`);
        } else if (!anchorsOf(link.target).has(link.anchor)) {
          broken.push(`${rel}: ${link.text} (no heading "${link.anchor}" in ${link.target})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it("every file of the repository a page names in code (`site/plan/plan.ts`, `page-context.ts`) is there", () => {
    const tree = sourceTree();
    const names = new Set(tree.map((f) => f.slice(f.lastIndexOf('/') + 1)));
    const missing: string[] = [];
    for (const rel of markdownFiles()) {
      for (const span of codeSpans(rel)) {
        const word = span.split(/[\s:(]/)[0]!.replace(/[.,]$/, '');
        if (/^(admin|shared|site|scripts|test|docs|\.ci|example-vault)\/\S*$/.test(word)) {
          // A path from the root: the file or folder itself, or a match of its `*`.
          const target = word.replace(/\/$/, '');
          const found = target.includes('*') ? tree.some((f) => globPattern(target).test(f)) : existsSync(path.join(ROOT, target));
          if (!found) missing.push(`${rel}: ${word}`);
        } else if (/^[\w*.-]+\.(ts|tsx|mjs|cjs|njk)$/.test(word) && rel.startsWith('docs/dev/')) {
          // A source file by its name alone, in the developer pages: some file of the tree has it.
          const found = word.includes('*') ? [...names].some((n) => globPattern(word).test(n)) : names.has(word);
          if (!found) missing.push(`${rel}: ${word}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('the README lists every guide page, and the decisions page every decision', () => {
    const readme = read('README.md');
    const guide = readdirSync(path.join(ROOT, 'docs/guide')).filter((f) => f.endsWith('.md'));
    expect(guide.filter((f) => !readme.includes(`](docs/guide/${f}`))).toEqual([]);
    const decisions = read('docs/decisions/README.md');
    const pages = readdirSync(path.join(ROOT, 'docs/decisions')).filter((f) => f.endsWith('.md') && f !== 'README.md');
    expect(pages.filter((f) => !decisions.includes(`](${f})`))).toEqual([]);
  });

  it('docs/dev/performance.md keeps one table of current figures, each row with the date of its run', () => {
    const page = read('docs/dev/performance.md');
    const start = page.indexOf('## Current figures');
    expect(start).toBeGreaterThan(-1);
    const section = page.slice(start, page.indexOf('\n## ', start + 1));
    // A table is a run of lines that start with `|`.
    const tables: string[][] = [];
    let previous = '';
    for (const line of section.split('\n')) {
      if (line.startsWith('|')) {
        if (!previous.startsWith('|')) tables.push([]);
        tables.at(-1)!.push(line);
      }
      previous = line;
    }
    expect(tables.length).toBe(1);
    const [header, , ...rows] = tables[0]!;
    expect(header!.split('|').map((c) => c.trim()).at(-2)).toBe('Taken');
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.filter((row) => !/\d{4}-\d{2}-\d{2}[^|]*\|\s*$/.test(row))).toEqual([]);
  });

  it('docs/dev/performance.md has a row for every benchmark, and names every knob the benchmarks read', () => {
    const page = read('docs/dev/performance.md');
    const section = page.slice(page.indexOf('## Running the benchmarks'), page.indexOf('\n## ', page.indexOf('## Running the benchmarks') + 1));
    const rows = new Map(section.split('\n').filter((l) => /^\| `[\w-]+` \|/.test(l)).map((l) => [/^\| `([\w-]+)`/.exec(l)![1]!, l]));
    const dir = path.join(ROOT, 'scripts/bench');
    const problems: string[] = [];
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
      const knobs = [...new Set([...readFileSync(path.join(dir, file), 'utf8').matchAll(/process\.env\.(BENCH_\w+)/g)].map((m) => m[1]!))];
      if (file.startsWith('_')) {
        // A helper's knob applies to every benchmark that uses it: named anywhere on the section.
        problems.push(...knobs.filter((k) => !section.includes(k)).map((k) => `${file}: ${k}`));
        continue;
      }
      const name = file.slice(0, -3);
      const row = rows.get(name);
      if (!row) problems.push(`no row for the benchmark ${name}`);
      else problems.push(...knobs.filter((k) => !row.includes(k)).map((k) => `${name}: ${k}`));
    }
    problems.push(...[...rows.keys()].filter((n) => !existsSync(path.join(dir, `${n}.ts`))).map((n) => `a row for ${n}, which is no benchmark`));
    expect(problems).toEqual([]);
  });

  it('the slugs are GitHub’s', () => {
    expect(githubSlug('`vault-service --help`')).toBe('vault-service---help');
    expect(githubSlug('Why the build’s limits and flags')).toBe('why-the-builds-limits-and-flags');
    expect(githubSlug('Backup & sync')).toBe('backup--sync');
    expect(githubSlug('ملاحظات عن النشر')).toBe('ملاحظات-عن-النشر');
  });

  it('a source comment that cites a section of STYLE.md names one it has', () => {
    const sections = new Set([...read('STYLE.md').matchAll(/^## (.+)$/gm)].map((m) => m[1]!.trim()));
    const cited: string[] = [];
    for (const dir of ['admin', 'shared', 'site', 'scripts']) {
      for (const name of readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
        if (!/\.(ts|cjs|mjs)$/.test(name) || name.includes('dist')) continue;
        for (const m of read(`${dir}/${name}`).matchAll(/STYLE(?:\.md)?,? "([^"]+)"/g)) {
          if (!sections.has(m[1]!)) cited.push(`${dir}/${name}: "${m[1]}"`);
        }
      }
    }
    expect(cited).toEqual([]);
  });
});
