// The house's rules (STYLE.md, docs/dev/architecture.md) as checks over the source tree:
// each fails when a file breaks its rule, and each allowed exception is named here with why.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allSources } from '../helpers/sources.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The server's sources under the given folders, `/`-separated from the root: the admin app's browser code left out. */
function sources(...dirs: string[]): string[] {
  return allSources(ROOT, ...dirs).filter((rel) => !rel.startsWith('admin/ui/src/'));
}

const text = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');

/** The files among `files` whose text matches `pattern`. */
function filesMatching(files: string[], pattern: RegExp): string[] {
  return files.filter((rel) => pattern.test(text(rel)));
}

const SERVER_CODE = sources('admin', 'shared', 'site');

describe('the house rules hold in the source tree', () => {
  it('the tree has sources to check (a moved folder must not make every rule pass vacuously)', () => {
    expect(SERVER_CODE.length).toBeGreaterThan(150);
    expect(SERVER_CODE).toContain('shared/vault-walk.ts');
    expect(SERVER_CODE).toContain('admin/http.ts');
  });

  it('a route makes no service, scheduler, store, index or vault model: it parses, calls one domain function, maps the answer', () => {
    const routes = SERVER_CODE.filter((f) => f.startsWith('admin/routes/'));
    expect(routes.length).toBeGreaterThan(10);
    expect(filesMatching(routes, /new [A-Za-z]*(Service|Scheduler|Store|Index|Posts)\b|VaultStore/)).toEqual([]);
  });

  it('the vault model is made in one place, the site builder', () => {
    const code = [...SERVER_CODE, ...sources('scripts').filter((f) => !f.startsWith('scripts/bench'))];
    expect(filesMatching(code, /new VaultStore\b/)).toEqual(['site/build/site-builder.ts']);
  });

  it('no module-level state is keyed by the admin context (the context owns what it builds)', () => {
    const admin = SERVER_CODE.filter((f) => f.startsWith('admin/'));
    expect(filesMatching(admin, /\bWeakMap\b|Map<AdminContext/)).toEqual([]);
  });

  it('one module walks the vault; every other folder read is one of the folders named here', () => {
    // Each folder read outside the walker, and why it is not a walk of the vault.
    const allowed: Record<string, string> = {
      'shared/vault-walk.ts': 'the one walker of the vault',
      'shared/vault-path.ts': "reads the names beside one new path to compare their case (a lookup of one folder, not a walk)",
      'admin/versions/version-store.ts': 'the data directory: versions/',
      'admin/vault/rename-journal.ts': 'the data directory: renames-pending/',
      'admin/travel/files.ts': "the data directory and the vault's .service/, which the walker never enters",
      'admin/vault/trash.ts': "the bin's own folder, .trash/, which the walker never enters",
      'admin/ui/stamp.mjs': "the admin app's own source folder",
      'site/write/generation.ts': 'the build output: the generations in the data directory',
      'shared/git-run.ts': 'the temp directory: the git helpers\' folders of processes that were killed outright',
      'site/read/record-cache.ts': 'the data directory: note-records/, for a temp file a write cut short left',
      'site/render/image-variants.ts': "the data directory: image-variants/, whose folders no image shows any more are pruned",
      'site/render/eleventy-site.ts': "the project's templates folder and an operator's theme folder",
      'site/render/template-code-write.ts': "the project's templates folder",
    };
    const readers = filesMatching(SERVER_CODE, /\breaddir(Sync)?\b/);
    expect(readers.filter((f) => !(f in allowed))).toEqual([]);
    // An exception that is no longer needed goes too, so the list stays the truth.
    expect(Object.keys(allowed).filter((f) => !readers.includes(f))).toEqual([]);
  });

  it('only the HTTP layer knows statuses: a domain error carries a code, admin/http.ts maps it', () => {
    // site/serve/ is the public site's own HTTP layer; the rule is for the admin and the domain.
    const domain = SERVER_CODE.filter((f) => f.startsWith('admin/') || f.startsWith('shared/'));
    expect(filesMatching(domain, /HttpError|status: number/)).toEqual(['admin/http.ts']);
  });

  it('the sync branch has its default in the settings view alone', () => {
    expect(filesMatching(SERVER_CODE, /branch \|\| 'main'/)).toEqual([]);
  });

  it('site/ and admin/ never import each other: they meet through the vault, the data directory and shared/', () => {
    const importsFrom = (files: string[], folder: string) =>
      files.filter((f) => [...text(f).matchAll(/(?:from|import\()\s*'([^']+)'/g)].some((m) => m[1]!.startsWith('.') && path.posix.normalize(path.posix.join(path.posix.dirname(f), m[1]!)).startsWith(`${folder}/`)));
    expect(importsFrom(SERVER_CODE.filter((f) => f.startsWith('site/')), 'admin')).toEqual([]);
    expect(importsFrom(SERVER_CODE.filter((f) => f.startsWith('admin/')), 'site')).toEqual([]);
    expect(importsFrom(SERVER_CODE.filter((f) => f.startsWith('shared/')), 'admin')).toEqual([]);
    expect(importsFrom(SERVER_CODE.filter((f) => f.startsWith('shared/')), 'site')).toEqual([]);
  });

  it('one module runs git: shared/git-run.ts alone starts child processes, but for the build process', () => {
    const allowed: Record<string, string> = {
      'shared/git-run.ts': 'the one git runner',
      'site/build/builder-client.ts': 'forks the build process (node, not git)',
    };
    const spawners = filesMatching(SERVER_CODE, /from 'node:child_process'|require\('(node:)?child_process'\)/);
    expect(spawners.filter((f) => !(f in allowed))).toEqual([]);
    expect(Object.keys(allowed).filter((f) => !spawners.includes(f))).toEqual([]);
  });

  it('no source file is over about 400 lines, but the ones named here, none of which grows', () => {
    const MOST_LINES = 450;
    // Each file over the limit, the length it may not pass, and why it is still one file.
    const allowed: Record<string, { most: number; why: string }> = {
      'test/integration/package.test.ts': { most: 470, why: 'the packed package from one npm pack, shared by every check of it' },
    };
    const lengths = new Map(allSources(ROOT, 'admin', 'shared', 'site', 'scripts', 'test').map((f) => [f, text(f).split('\n').length]));
    const over = [...lengths].filter(([f, n]) => n > (allowed[f]?.most ?? MOST_LINES)).map(([f, n]) => `${f}: ${n} lines`);
    expect(over).toEqual([]);
    // An exception back under the limit goes from the list.
    expect(Object.keys(allowed).filter((f) => (lengths.get(f) ?? 0) <= MOST_LINES)).toEqual([]);
  });

  it('no comment holds a benchmark diary (a measured "N ms against M"): the figures live in docs/dev/performance.md, the history in git', () => {
    const diary = /(?:\/\/|^\s*\*|\/\*).*\d[\d.,]*(?:[-–][\d.,]+)? ?(?:ms|µs|s|MB|KB|GB)\b[^.;]*\b(?:against|vs\.?|versus)\s*\d/m;
    const code = allSources(ROOT, 'admin', 'shared', 'site', 'scripts');
    const diaries = code.flatMap((f) => text(f).split('\n').filter((line) => diary.test(line)).map((line) => `${f}: ${line.trim()}`));
    expect(diaries).toEqual([]);
  });

  it('no ICU object is made a call: localeCompare takes no locale or options (shared/natural-order.ts keeps one collator)', () => {
    const perCall = /\.localeCompare\([^()]*,/;
    const code = allSources(ROOT, 'admin', 'shared', 'site');
    expect(code.filter((f) => perCall.test(text(f)))).toEqual([]);
  });

  it("the server orders text one way whatever its LANG: localeCompare only in shared/natural-order.ts (the admin's browser code sorts in its reader's language)", () => {
    const server = allSources(ROOT, 'admin', 'shared', 'site').filter((f) => !f.startsWith('admin/ui/src/') && !f.startsWith('site/client/') && f !== 'shared/natural-order.ts');
    expect(server.filter((f) => /\.localeCompare\(/.test(text(f)))).toEqual([]);
  });

  it('no comment cites an issue number as its reason (the why goes in the comment, the history in git)', () => {
    const comment = /(?:\/\/|^\s*\*|\/\*).*\bissues? #?\d+/im;
    const code = allSources(ROOT, 'admin', 'shared', 'site', 'scripts', 'test');
    const citing = code.filter((f) => text(f).split('\n').some((line) => comment.test(line)));
    expect(citing).toEqual([]);
  });
});
