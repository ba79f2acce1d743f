// Every regular expression written in the server's and the site's code reads its text in time
// proportional to its length: a vault file, a reader's request or comment and a git remote's
// message are hostile input, and an expression that reads a long run once from each of its
// characters held the builder for seconds to minutes on one note (a line of 100,000
// backticks in a note's base-block check took 12 s at 95 KB). recheck (makenowjust-labs)
// decides each expression written as a literal, by automaton where it can and by seeded
// fuzzing where lookarounds need it; the few it flags are named below with why their input
// stays short. An expression built at run time (`new RegExp`) is named with why it is linear.
// The usual fix: `(?<!x)x+$` for a trailing run, `[#?][^]*$` for "from here on".
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { check } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { allSources } from '../helpers/sources.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Flagged expressions whose input is bounded, by file and source, with the bound. */
const BOUNDED: Record<string, string> = {
  'shared/log.ts /([a-z][a-z0-9+.-]{0,31}:\\/\\/)[^\\s/@]+@/gi': 'a scheme of at most 32 characters before each `://` (flagged for the bounded repeat)',
  'site/render/theme-css.ts /\\/\\*[\\s\\S]*?\\*\\//g': "our own stylesheets' dark blocks, never a vault's or an operator's",
  'admin/comments/rules.ts /^[^\\s@<>"]+@[^\\s@<>"]+\\.[^\\s@<>"]+$/': 'a comment email, cut at 254 characters first (COMMENT_LIMITS.email)',
  'admin/ui/server/images.ts /^(<\\?xml[^>]*>\\s*)?(<!--[\\s\\S]*?-->\\s*)*(<!DOCTYPE svg[^>]*>\\s*)?<svg[\\s>]/i': "an upload's first 1,024 bytes",
  'admin/sync/pass.ts /repository .{0,200}not found|does not appear to be a git repository|the requested url returned error: 404/i': 'at most 200 characters from each "repository " (flagged for the bounded repeat)',
};

/** Expressions built at run time (`new RegExp`), which recheck cannot read here: how many each file builds, and why each reads in linear time. */
const BUILT: Record<string, [count: number, why: string]> = {
  'admin/ui/src/health/model.ts': [1, 'a link as written, escaped, between fixed marks, one line at a time'],
  'shared/note/bare-links.ts': [5, "linkify-it's own sources, tried where linkify-it found a link; note-parse-linear.test.ts holds the notes that tried them"],
  'shared/note/excerpt.ts': [2, 'a timestamp line of at most 200 characters; the tags line, judged safe by recheck when written'],
  'shared/note/frontmatter.ts': [1, 'a fixed key before `:`, one line'],
  'shared/note/html-tags.ts': [1, 'the literal `</name` of each raw-text element'],
  'shared/note/obsidian/tag-syntax.ts': [1, 'one character class, sticky'],
  'shared/search/index-format.ts': [2, 'one character class each'],
  'site/plan/explorer-view.ts': [1, 'an attribute of our own template, `name="…"`'],
};

interface Literal {
  file: string;
  line: number;
  source: string;
  flags: string;
}

/** A file's regular expression literals, and how many it builds with `new RegExp`, by one TypeScript parse. */
function expressionsOf(rel: string): { literals: Literal[]; built: number } {
  const file = ts.createSourceFile(rel, readFileSync(path.join(ROOT, rel), 'utf8'), ts.ScriptTarget.Latest, true);
  const literals: Literal[] = [];
  let built = 0;
  const visit = (node: ts.Node) => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const written = node.getText(file);
      const end = written.lastIndexOf('/');
      literals.push({ file: rel, line: file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1, source: written.slice(1, end), flags: written.slice(end + 1) });
    } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && ts.isIdentifier(node.expression) && node.expression.text === 'RegExp') built++;
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { literals, built };
}

/** Every source file of admin/, shared/ and site/ with its expressions, read once for both checks. */
const EXPRESSIONS = new Map(
  allSources(ROOT, 'admin', 'shared', 'site')
    .filter((rel) => !rel.endsWith('.cjs'))
    .map((rel) => [rel, expressionsOf(rel)] as const),
);

// The expressions recheck judged safe, kept so the suite asks it only about new ones (about
// 20 s for all of them): `UPDATE_REGEX_VERDICTS=1 npx vitest run test/unit/regex-time.test.ts`
// asks about every one and writes the list again.
const VERDICTS = path.join(import.meta.dirname, 'regex-verdicts.json');

describe('regular expressions read in linear time', () => {
  it('every literal in admin/, shared/ and site/ is safe by recheck, or bounded and named', async () => {
    const all = [...EXPRESSIONS.values()].flatMap((e) => e.literals);
    expect(all.length).toBeGreaterThan(300);
    const update = process.env.UPDATE_REGEX_VERDICTS === '1';
    const known = new Set<string>(update ? [] : JSON.parse(readFileSync(VERDICTS, 'utf8')));
    const key = (l: Literal) => `/${l.source}/${l.flags}`;
    // Seeded, and one at a time (recheck's answers to questions asked together mixed up): the
    // same verdict on any machine, unless one runs out of time ('unknown').
    const verdicts = new Map<string, string>();
    for (const l of all) {
      if (known.has(key(l)) || verdicts.has(key(l)) || `${l.file} ${key(l)}` in BOUNDED) continue;
      verdicts.set(key(l), (await check(l.source, l.flags, { randomSeed: 1, timeout: 20_000 })).status);
    }
    const flagged: string[] = [];
    for (const l of all) {
      if (known.has(key(l)) || `${l.file} ${key(l)}` in BOUNDED) continue;
      const status = verdicts.get(key(l))!;
      if (status === 'safe') continue;
      flagged.push(`${l.file}:${l.line} ${key(l)} (${status})`);
    }
    expect(flagged).toEqual([]);
    const written = new Set(all.map(key));
    if (update) {
      const safe = [...verdicts].filter(([, v]) => v === 'safe').map(([k]) => k);
      writeFileSync(VERDICTS, `${JSON.stringify(safe.sort(), null, 1)}\n`);
    }
    // The lists stay the truth: an expression no longer written leaves them.
    expect([...known].filter((k) => !written.has(k))).toEqual([]);
    expect(Object.keys(BOUNDED).filter((k) => !written.has(k.slice(k.indexOf(' ') + 1)))).toEqual([]);
  }, 300_000);

  it('every expression built at run time is named, with why it reads in linear time', () => {
    const counts = Object.fromEntries([...EXPRESSIONS].filter(([, e]) => e.built > 0).map(([rel, e]) => [rel, e.built]));
    expect(counts).toEqual(Object.fromEntries(Object.entries(BUILT).map(([rel, [n]]) => [rel, n])));
  });
});
