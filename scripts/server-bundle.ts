// The compiled server as a few files (dist/bundle/), so a process loads its code in one read
// instead of resolving and compiling some 800 modules one by one: at 1,000 notes that was
// 0.4 s of a 1.25 s `npm run build`. Three entry points, each a process or a
// thread of its own: the command line, the server's build process and the build
// thread of a full build; code they share sits in chunks beside them, and a command's code loads only when
// it runs (`vault-service build` never loads the admin API).
//
// Bundled, a dependency no longer sits where it was written, so the few that ask where they
// are (`import.meta.url`) are told their real place in node_modules, found at run time as
// Node would find the package. Native or optional packages stay outside the bundle.
import { createRequire } from 'node:module';
import path from 'node:path';
import { promises as fs } from 'node:fs';
import type { Plugin } from 'esbuild';
import { BUNDLE_ENTRIES, PROJECT_DIR } from '../shared/project-dir.ts';

export const SERVER_BUNDLE_DIR = path.join(PROJECT_DIR, 'dist/bundle');

/** Output name → source: the command line, and the modules `codeFile` starts from the bundle. */
const ENTRIES: Record<string, string> = {
  cli: 'scripts/cli.ts',
  ...Object.fromEntries([...BUNDLE_ENTRIES].map((m) => [path.basename(m), `${m}.ts`])),
};

/**
 * Loaded from node_modules as they are: native code, build-time tools, and Eleventy's dev server
 * (its watch mode, which no build runs). Eleventy itself is bundled, but in the build command's
 * code-cached file (site/render/eleventy-runner.ts says why).
 */
const EXTERNAL = ['better-sqlite3', '@11ty/eleventy-dev-server', 'nunjucks', '@11ty/eleventy-plugin-rss', '@11ty/eleventy-img', 'sharp', 'esbuild', 'tsx', 'typescript', 'playwright-core'];

/** The URL a bundled dependency's file had (realModuleUrls): its package found as Node finds it from the bundle. */
const MODULE_URL_FINDER = [
  '/** The URL a bundled dependency\'s file had: its package found as Node finds it from here. */',
  'const __vsModuleUrl = (pkg, file) => {',
  '  const dir = (require.resolve.paths(pkg) ?? []).map((d) => __vsJoin(d, pkg)).find((d) => __vsExists(__vsJoin(d, "package.json")));',
  '  if (!dir) throw new Error(`vault-service: package ${pkg} not found`);',
  '  return __vsFileUrl(__vsJoin(dir, file)).href;',
  '};',
];

// Each output file gets `require` (for the CommonJS packages inside) and the finder.
const BANNER = [
  "import { createRequire as __vsCreateRequire } from 'node:module';",
  "import { existsSync as __vsExists } from 'node:fs';",
  "import { join as __vsJoin } from 'node:path';",
  "import { pathToFileURL as __vsFileUrl } from 'node:url';",
  'const require = __vsCreateRequire(import.meta.url);',
  ...MODULE_URL_FINDER,
].join('\n');

/** `import.meta.url` in a dependency's file becomes that file's real URL. */
const realModuleUrls: Plugin = {
  name: 'real-module-urls',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/].*\.(m?js|cjs)$/ }, async (args) => {
      const text = await fs.readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const m = /^(.*[\\/]node_modules[\\/])((?:@[^\\/]+[\\/])?[^\\/]+)[\\/](.*)$/.exec(args.path);
      if (!m) return undefined;
      const pkg = m[2]!.replaceAll('\\', '/');
      const file = m[3]!.replaceAll('\\', '/');
      return { contents: text.replaceAll('import.meta.url', `__vsModuleUrl(${JSON.stringify(pkg)}, ${JSON.stringify(file)})`), loader: 'js' };
    });
  },
};

/**
 * One KaTeX: our `import` would take its ES module build and the markdown-it plugin's
 * `require` its CommonJS one, two 0.5 MB copies parsed by every process that reads notes.
 */
const oneKatex: Plugin = {
  name: 'one-katex',
  setup(build) {
    const cjs = createRequire(import.meta.url).resolve('katex');
    build.onResolve({ filter: /^katex$/ }, () => ({ path: cjs }));
  },
};

/**
 * gray-matter reads YAML with js-yaml's safe schema, which never builds a function; yet
 * js-yaml's full schema, loaded beside it, requires esprima (a 0.3 MB parser) at load:
 * 10-14 ms of every process and thread that reads notes, for nothing. Bundled, it is not.
 */
const noEsprima: Plugin = {
  name: 'no-esprima',
  setup(build) {
    build.onLoad({ filter: /[\\/]js-yaml[\\/]lib[\\/]js-yaml[\\/]type[\\/]js[\\/]function\.js$/ }, async (args) => {
      const text = await fs.readFile(args.path, 'utf8');
      const call = "_require('esprima')";
      if (!text.includes(call)) throw new Error(`${args.path}: js-yaml no longer loads esprima as ${call}; review the no-esprima plugin`);
      // What js-yaml does when esprima is missing (a browser build): `!!js/function` is not resolved.
      return { contents: text.replace(call, 'undefined'), loader: 'js' };
    });
  },
};

/**
 * The output in ASCII: esbuild escapes strings, not the few regular expressions with
 * literal non-ASCII characters (KaTeX's, ours). One such character makes Node decode the
 * whole 1 MB chunk into a two-byte source string: about 10 ms more of every start. A `\uXXXX`
 * escape means the same character in a regular expression, a string or a comment.
 */
export function asciiOnly(code: string): string {
  return code.replace(/[^\x00-\x7f]/g, (ch, at: number) => {
    // `\…` (an escaped character) would become `\\u2026`: a backslash, then text.
    if (code[at - 1] === '\\') throw new Error(`the bundle escapes a non-ASCII character at ${at}: asciiOnly cannot rewrite it`);
    return `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** Writes dist/bundle/ afresh. */
export async function bundleServer(): Promise<void> {
  const { build } = await import('esbuild');
  const work = `${SERVER_BUNDLE_DIR}.new-${process.pid}`;
  await fs.rm(work, { recursive: true, force: true });
  const built = await build({
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, src]) => [name, path.join(PROJECT_DIR, src)])),
    outdir: work,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunk-[hash]',
    external: EXTERNAL,
    banner: { js: BANNER },
    plugins: [realModuleUrls, oneKatex, noEsprima],
    write: false,
    // Whitespace and syntax only: names are kept, so stack traces and logged names read as written.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'error',
  });
  for (const file of built.outputFiles) {
    await fs.mkdir(path.dirname(file.path), { recursive: true });
    await fs.writeFile(file.path, file.path.endsWith('.js') ? asciiOnly(file.text) : file.contents);
  }
  await bundleBuildCommand(path.join(work, BUILD_COMMAND_FILE));
  await moveIn(work, SERVER_BUNDLE_DIR, new Set([...Object.keys(ENTRIES).map((name) => `${name}.js`), BUILD_COMMAND_FILE]));
}

/** `npm run build`'s code as one CommonJS file, named so that `require` loads it as one in this ES module package (scripts/cached-bundle.cjs). */
export const BUILD_COMMAND_FILE = 'build.cjs';

// The same for a CommonJS file, whose `require` is its own; and the file's URL for our `import.meta.url`.
const COMMONJS_BANNER = [
  'const { existsSync: __vsExists } = require("node:fs");',
  'const { join: __vsJoin } = require("node:path");',
  'const { pathToFileURL: __vsFileUrl } = require("node:url");',
  'var __vsImportMetaUrl = __vsFileUrl(__filename).href;',
  ...MODULE_URL_FINDER,
].join('\n');

/**
 * The build command (scripts/cli/build-main.ts) bundled whole, with no chunks: a code cache
 * is made for one script, and Node 20 caches no ES module. Our `import.meta.url` becomes the
 * file's own URL; `import.meta.resolve` is asked for only when running from source.
 */
async function bundleBuildCommand(outfile: string): Promise<void> {
  const { build } = await import('esbuild');
  const built = await build({
    entryPoints: [path.join(PROJECT_DIR, 'scripts/cli/build-main.ts')],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    external: [...EXTERNAL, '@11ty/eleventy'],
    banner: { js: COMMONJS_BANNER },
    define: { 'import.meta.url': '__vsImportMetaUrl' },
    logOverride: { 'empty-import-meta': 'silent' },
    plugins: [realModuleUrls, oneKatex, noEsprima],
    write: false,
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'error',
  });
  await fs.writeFile(outfile, asciiOnly(built.outputFiles[0]!.text));
}

/** A chunk no entry point names any more is removed once it is this old (a process started before may still load it). */
const OLD_CHUNK_MS = 24 * 3_600_000;

/**
 * Moves a fresh bundle in beside the current one: chunks first (named by their content), the
 * entry points last, each by a rename. A process already running from the old bundle (a server
 * while `npm run build` recompiles) can still load the chunks it has not loaded yet.
 */
export async function moveIn(work: string, dir: string, entries: Set<string>): Promise<void> {
  await fs.mkdir(dir, { recursive: true });
  const fresh = await fs.readdir(work);
  for (const name of [...fresh.filter((n) => !entries.has(n)), ...fresh.filter((n) => entries.has(n))]) {
    await fs.rename(path.join(work, name), path.join(dir, name));
  }
  await fs.rm(work, { recursive: true, force: true });
  const keep = new Set(fresh);
  for (const name of await fs.readdir(dir)) {
    const file = path.join(dir, name);
    if (!keep.has(name) && Date.now() - (await fs.stat(file)).mtimeMs > OLD_CHUNK_MS) await fs.rm(file, { force: true });
  }
}
