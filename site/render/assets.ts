// The blog's stylesheets and its few browser scripts (site/client/, one bundle made by
// client-bundle.ts), read once per process and served under content-hashed names. KaTeX's stylesheet (with
// its woff2 fonts) and mermaid's script are assets too, but a page links them only when
// its body has math or a diagram (CONTRACT §7).
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { PROJECT_DIR } from './paths.ts';
import { clientBundle } from './client-bundle.ts';
import { withThemeChoice } from './theme-css.ts';
import type { Address } from '../../shared/model/addresses.ts';
import type { Asset } from '../plan/plan.ts';

// The blog's stylesheet, then what Obsidian's syntax needs (callouts, footnotes, embeds…), code's colours, the garden's and reader's tools, and paper's.
const STYLESHEETS = ['site/assets/blog.css', 'site/assets/obsidian.css', 'site/assets/code.css', 'site/assets/comments.css', 'site/assets/garden.css', 'site/assets/search.css', 'site/assets/documents.css', 'site/assets/print.css'].map((p) => path.join(PROJECT_DIR, p));

/**
 * Where Node finds package `name` from here: its folder in the nearest node_modules holding it.
 * Not `require.resolve('name/package.json')`: that goes through the package's exports map,
 * whose resolver Node loads for it (4 ms of every build thread's start, with the build's flags).
 */
function packageDir(name: string): string {
  const paths = createRequire(import.meta.url).resolve.paths(name) ?? [];
  const dir = paths.map((d) => path.join(d, name)).find((d) => existsSync(path.join(d, 'package.json')));
  if (!dir) throw new Error(`vault-service: the package ${name} is not installed`);
  return dir;
}

const katexDir = () => path.join(packageDir('katex'), 'dist');
const mermaidFile = () => path.join(packageDir('mermaid'), 'dist/mermaid.min.js');

export interface SiteAssets {
  assets: Asset[];
  css: string;
  js: string;
  /** The script run before a page is drawn: the reader's choice of light or dark. */
  theme: string;
  /** The search page's and the search dialog's script (MiniSearch and the results). */
  search: string;
  /** KaTeX's stylesheet, for pages with math. */
  katex: string;
  /** mermaid's script, for pages with a diagram. */
  mermaid: string;
}

function hashed(name: string, ext: string, content: string | Uint8Array): Asset {
  const hash = createHash('sha1').update(content).digest('hex').slice(0, 10);
  const file = `_s/${name}.${hash}.${ext}`;
  return { address: ('/' + file) as Address, file, content };
}

/**
 * KaTeX's stylesheet pointing at its woff2 fonts under hashed names (older formats left out: every
 * browser we serve reads woff2), relative to it (`katex/…` beside `_s/katex.….css`): a site served
 * under a path finds them.
 */
async function katexAssets(): Promise<{ css: Asset; fonts: Asset[] }> {
  const dir = katexDir();
  const css = await fs.readFile(path.join(dir, 'katex.min.css'), 'utf8');
  const fonts = new Map<string, Asset>();
  for (const name of new Set([...css.matchAll(/url\(fonts\/([\w-]+)\.woff2\)/g)].map((m) => m[1]!))) {
    fonts.set(name, hashed(`katex/${name}`, 'woff2', await fs.readFile(path.join(dir, 'fonts', `${name}.woff2`))));
  }
  const rewritten = css.replace(/src:url\(fonts\/([\w-]+)\.woff2\) format\("woff2"\)(?:,url\([^)]*\) format\("[^"]*"\))*/g, (_m, name: string) => `src:url(${fonts.get(name)!.file.slice('_s/'.length)}) format("woff2")`);
  const math = (asset: Asset): Asset => ({ ...asset, need: 'math' });
  return { css: math(hashed('katex', 'css', rewritten)), fonts: [...fonts.values()].map(math) };
}

async function blogCss(): Promise<Asset> {
  const parts = await Promise.all(STYLESHEETS.map((f) => fs.readFile(f, 'utf8')));
  return hashed('blog', 'css', withThemeChoice(parts.join('\n')));
}

/** The addresses of the site's stylesheet and KaTeX's, as every build names them (the admin's preview links them). */
export async function stylesheetAddresses(): Promise<{ css: Address; katex: Address }> {
  const [css, katex] = await Promise.all([blogCss(), katexAssets()]);
  return { css: css.address, katex: katex.css.address };
}

export async function buildAssets(): Promise<SiteAssets> {
  const [cssAsset, bundle, themeBundle, searchBundle, katex, mermaid] = await Promise.all([
    blogCss(),
    clientBundle('blog'),
    clientBundle('theme'),
    clientBundle('search'),
    katexAssets(),
    fs.readFile(mermaidFile()),
  ]);
  const jsAsset = hashed('blog', 'js', bundle);
  const themeAsset = hashed('theme', 'js', themeBundle);
  const searchAsset = hashed('search', 'js', searchBundle);
  const mermaidAsset: Asset = { ...hashed('mermaid', 'js', mermaid), need: 'mermaid' };
  return {
    assets: [cssAsset, jsAsset, themeAsset, searchAsset, katex.css, ...katex.fonts, mermaidAsset],
    css: cssAsset.address,
    js: jsAsset.address,
    theme: themeAsset.address,
    search: searchAsset.address,
    katex: katex.css.address,
    mermaid: mermaidAsset.address,
  };
}
