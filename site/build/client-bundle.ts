// The blog's browser scripts (site/client/) as one file. From source it is bundled by
// esbuild on first use; compiled code reads the bundle made with it (scripts/compile.ts),
// because esbuild is a build-time tool the installed package does not carry.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { CODE_DIR, CODE_EXT, PROJECT_DIR } from '../../shared/project-dir.ts';

/** Where compiled code finds the bundle (dist/site/client/blog.js). */
export const CLIENT_BUNDLE = path.join(CODE_DIR, 'site/client/blog.js');
export const CLIENT_SOURCES = path.join(PROJECT_DIR, 'site/client');

export async function clientBundle(): Promise<string> {
  return CODE_EXT === '.js' ? fs.readFile(CLIENT_BUNDLE, 'utf8') : bundleClient();
}

/** Bundles site/client/main.ts with esbuild (from source, or at compile time). */
export async function bundleClient(): Promise<string> {
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: [path.join(CLIENT_SOURCES, 'main.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: ['es2020'],
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
