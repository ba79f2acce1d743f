// Where the project's files are. The code runs from source (`shared/x.ts`, with tsx) or
// compiled (`dist/shared/x.js`, the installed package and `npm start`); templates, assets,
// the example vault and the admin app's bundle live at the project root either way.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = fileURLToPath(import.meta.url);

/** '.ts' when running from source, '.js' when running compiled (from a module, or the build command's one `.cjs` bundle). */
export const CODE_EXT = path.extname(HERE) === '.ts' ? '.ts' : '.js';

/** Running from `dist/bundle/` (scripts/server-bundle.ts), where this module is part of a bundle. */
const BUNDLED = path.basename(path.dirname(HERE)) === 'bundle';

/** Root of the running code: the project itself, or its `dist/` folder. */
export const CODE_DIR = path.resolve(path.dirname(HERE), '..');

/** The project (or installed package) root: package.json, site/templates, example-vault… */
export const PROJECT_DIR = CODE_EXT === '.ts' ? CODE_DIR : path.dirname(CODE_DIR);

/** Modules started as a process or thread of their own: dist/bundle/ holds each as an entry point under its name (scripts/server-bundle.ts). */
export const BUNDLE_ENTRIES: ReadonlySet<string> = new Set(['site/build/builder-process', 'site/build/build-thread']);

/**
 * The one-file bundle this process runs through V8's code cache (`npm run build`), and the
 * module that runs it (under the key scripts/cached-bundle.cjs CACHED_BUNDLE); null for any
 * other process.
 */
export function cachedBundle(): { file: string; runner: string } | null {
  return ((globalThis as Record<symbol, unknown>)[Symbol.for('vault-service.cached-bundle')] as { file: string; runner: string } | undefined) ?? null;
}

/**
 * A module of the running code by its extension-less project path, e.g. `site/build/builder-process`:
 * from a bundle, the bundle's own entry point when it has one, so a process or thread it
 * starts loads the bundle too.
 */
export function codeFile(modulePath: string): string {
  if (BUNDLED && BUNDLE_ENTRIES.has(modulePath)) return path.join(CODE_DIR, 'bundle', `${path.basename(modulePath)}.js`);
  return path.join(CODE_DIR, modulePath + CODE_EXT);
}
