// `npm run build`: a static snapshot of the public site for the current vault,
// written to SITE_OUT (default ./_site) for any static host (CONTRACT §1).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit, type Config } from '../shared/config.ts';
import { log } from '../shared/log.ts';
import { SITE_MARKER, SITE_MARKER_TEXT, siteOutProblem } from './site-out-guard.ts';

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) out.push(path.join(entry.parentPath ?? (entry as { path: string }).path, entry.name));
  }
  return out;
}

export class SiteOutRefused extends Error {}

const guardedFolders = (config: Config) => [
  { name: 'vault', dir: config.vaultDir },
  { name: 'data directory', dir: config.dataDir },
];

export async function buildSnapshot(config: Config): Promise<{ files: number; ms: number }> {
  const started = Date.now();
  const refused = await siteOutProblem(config.siteOut, guardedFolders(config));
  if (refused) throw new SiteOutRefused(refused);
  // Loaded once SITE_OUT is known to be safe: a refusal answers at once.
  const [{ SiteBuilder }, { NAV_FILE }, { materialize }] = await Promise.all([
    import('../site/build/site-builder.ts'),
    import('../site/build/plan-outputs.ts'),
    import('../site/serve/substitute.ts'),
  ]);
  const work = `${config.siteOut}.building-${process.pid}`;
  await fs.rm(work, { recursive: true, force: true });
  const builder = new SiteBuilder({ config, outRoot: work, base: config.siteUrl ?? '' });
  const result = await builder.full();
  // Fill what the server fills per request: the topic row; no Edit links in a snapshot.
  const nav = await fs.readFile(path.join(result.dir, NAV_FILE), 'utf8');
  const pages = await htmlFiles(result.dir);
  for (const file of pages) {
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(file, materialize(text, { base: config.siteUrl ?? '', nav, admin: false }));
  }
  await fs.rm(path.join(result.dir, path.dirname(NAV_FILE)), { recursive: true, force: true });
  await fs.writeFile(path.join(result.dir, SITE_MARKER), SITE_MARKER_TEXT);
  // Checked again right before the folder is replaced (it may have changed during the build).
  const problem = await siteOutProblem(config.siteOut, guardedFolders(config));
  if (problem) {
    await fs.rm(work, { recursive: true, force: true });
    throw new SiteOutRefused(problem);
  }
  await fs.rm(config.siteOut, { recursive: true, force: true });
  await fs.mkdir(path.dirname(config.siteOut), { recursive: true });
  await fs.rename(result.dir, config.siteOut);
  await fs.rm(work, { recursive: true, force: true });
  return { files: result.rendered, ms: Date.now() - started };
}

async function main(): Promise<void> {
  const config = loadConfigOrExit();
  if (!config.isPublic) {
    process.stderr.write('vault-service: PUBLIC=false: a static snapshot would publish a private site; nothing was written.\n');
    process.exit(1);
  }
  if (!config.siteUrl) log.warn('SITE_URL is not set: absolute URLs in the feed, sitemap, robots.txt and SEO tags will be relative to "/".');
  let built: { files: number; ms: number };
  try {
    built = await buildSnapshot(config);
  } catch (err) {
    if (!(err instanceof SiteOutRefused)) throw err;
    process.stderr.write(`vault-service: ${err.message}; refusing to build there, nothing was written or deleted.\n`);
    process.exit(1);
  }
  const { files, ms } = built;
  process.stdout.write(`wrote ${files} files to ${config.siteOut} in ${ms} ms\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  await main();
  process.exit(0);
}
