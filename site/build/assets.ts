// The blog's stylesheet and its few browser scripts (site/client/), bundled once
// per process with esbuild and served under content-hashed names.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { PROJECT_DIR } from './eleventy-runner.ts';
import type { Address } from '../../shared/model/addresses.ts';
import type { Asset } from './plan.ts';

const CLIENT_ENTRY = path.join(PROJECT_DIR, 'site/client/main.ts');
const STYLESHEET = path.join(PROJECT_DIR, 'site/assets/blog.css');

function hashed(name: string, ext: string, content: string): Asset {
  const hash = createHash('sha1').update(content).digest('hex').slice(0, 10);
  const file = `_s/${name}.${hash}.${ext}`;
  return { address: ('/' + file) as Address, file, content };
}

export async function buildAssets(): Promise<{ assets: Asset[]; css: string; js: string }> {
  const [css, bundle] = await Promise.all([
    fs.readFile(STYLESHEET, 'utf8'),
    build({
      entryPoints: [CLIENT_ENTRY],
      bundle: true,
      minify: true,
      format: 'iife',
      target: ['es2020'],
      write: false,
      logLevel: 'silent',
    }),
  ]);
  const cssAsset = hashed('blog', 'css', css);
  const jsAsset = hashed('blog', 'js', bundle.outputFiles[0]!.text);
  return { assets: [cssAsset, jsAsset], css: cssAsset.address, js: jsAsset.address };
}
