// The blog's browser scripts (site/client/) as two files: blog.js on every page, and
// search.js (MiniSearch and the results) on the search page, or once the search dialog opens. From source they are
// bundled by esbuild on first use; compiled code reads the bundles made with it
// (scripts/compile.ts), because esbuild is a build-time tool the installed package does not carry.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CODE_DIR, CODE_EXT, PROJECT_DIR } from '../../shared/project-dir.ts';

/** Each bundle: its entry point under site/client/. */
export const CLIENT_BUNDLES = { blog: 'main.ts', search: 'search/main.ts' } as const;
export type ClientBundle = keyof typeof CLIENT_BUNDLES;

/** Where compiled code finds a bundle (dist/site/client/<name>.js). */
export const bundleFile = (name: ClientBundle) => path.join(CODE_DIR, `site/client/${name}.js`);
export const CLIENT_SOURCES = path.join(PROJECT_DIR, 'site/client');

export async function clientBundle(name: ClientBundle): Promise<string> {
  return CODE_EXT === '.js' ? fs.readFile(bundleFile(name), 'utf8') : bundleClient(name);
}

/** Bundles one entry point of site/client/ with esbuild (from source, or at compile time). */
export async function bundleClient(name: ClientBundle): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(CLIENT_SOURCES, CLIENT_BUNDLES[name])],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
