// The blog's browser scripts (site/client/) as three files: blog.js on every page,
// theme.js before every page is drawn (the reader's light or dark), and search.js
// (MiniSearch and the results) on the search page, or once the search dialog opens. From source they are
// bundled by esbuild on first use; compiled code reads the bundles made with it
// (scripts/compile.ts), because esbuild is a build-time tool the installed package does not carry.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CODE_DIR, CODE_EXT, PROJECT_DIR } from '../../shared/project-dir.ts';

/** Each bundle: its entry point under site/client/. */
export const CLIENT_BUNDLES = { blog: 'main.ts', search: 'search/main.ts', theme: 'theme-early.ts' } as const;
export type ClientBundle = keyof typeof CLIENT_BUNDLES;

/** Where compiled code finds a bundle (dist/site/client/<name>.js). */
export const bundleFile = (name: ClientBundle) => path.join(CODE_DIR, `site/client/${name}.js`);
export const CLIENT_SOURCES = path.join(PROJECT_DIR, 'site/client');

export async function clientBundle(name: ClientBundle): Promise<string> {
  return CODE_EXT === '.js' ? fs.readFile(bundleFile(name), 'utf8') : (await bundleClient(name)).text;
}

/** Bundles one entry point of site/client/ with esbuild (from source, or at compile time); `inputs`: every file it read, project-relative. */
export async function bundleClient(name: ClientBundle): Promise<{ text: string; inputs: string[] }> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(CLIENT_SOURCES, CLIENT_BUNDLES[name])],
    absWorkingDir: PROJECT_DIR,
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { text: result.outputFiles[0]!.text, inputs: Object.keys(result.metafile.inputs).sort() };
}

/** Where a compiled bundle's inputs are kept, beside it. */
export const inputsFile = (bundle: string) => bundle.replace(/\.js$/, '.inputs.json');

/**
 * Whether a compiled bundle is older than a file it was made of (or its inputs are not known):
 * the search bundle is mostly shared/ code, and a change there once left the site serving the
 * old tokenizer beside an index made by the new one.
 */
export async function bundleStale(bundle: string, projectDir = PROJECT_DIR): Promise<boolean> {
  const mtime = (file: string) => fs.stat(file).then((s) => s.mtimeMs, () => -1);
  const built = await mtime(bundle);
  const inputs = await fs.readFile(inputsFile(bundle), 'utf8').then((t) => JSON.parse(t) as string[], () => null);
  if (built < 0 || !inputs) return true;
  for (const input of inputs) if ((await mtime(path.join(projectDir, input))) > built) return true;
  return false;
}
