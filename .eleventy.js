// The public site's Eleventy configuration (CONTRACT §16; site/render/eleventy-site.ts says
// what it registers). The server's builder and `vault-service build` run Eleventy with this
// file and hand it each pass's views; `npx @11ty/eleventy --output=DIR` with VAULT, SITE_URL
// and SERVICE_DATA set builds the whole vault's static snapshot with it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = path.dirname(fileURLToPath(import.meta.url));
const DRIVER = Symbol.for('vault-service.eleventy-site');

export default async function (eleventyConfig) {
  const driver = globalThis[DRIVER];
  if (typeof driver === 'function') return driver(eleventyConfig);
  // Run by Eleventy's own command line: in a clone the server is compiled first (an installed package ships it compiled).
  const compile = path.join(ROOT, 'scripts/compile-if-stale.cjs');
  if (existsSync(compile)) execFileSync(process.execPath, [compile], { stdio: 'inherit' });
  const { standaloneSite } = await import(pathToFileURL(path.join(ROOT, 'dist/scripts/eleventy-standalone.js')).href);
  return standaloneSite(eleventyConfig);
}
