// `npm run build`: a static snapshot of the public site for the current vault,
// written to SITE_OUT (default ./_site) for any static host (CONTRACT §1).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { loadConfigOrExit, type Config } from '../shared/config.ts';
import { log } from '../shared/log.ts';
import { SiteBuilder } from '../site/build/site-builder.ts';
import { NAV_FILE } from '../site/build/plan-outputs.ts';
import { materialize } from '../site/serve/substitute.ts';

async function htmlFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.html')) out.push(path.join(entry.parentPath ?? (entry as { path: string }).path, entry.name));
  }
  return out;
}

export async function buildSnapshot(config: Config): Promise<{ files: number; ms: number }> {
  const started = Date.now();
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
  const { files, ms } = await buildSnapshot(config);
  process.stdout.write(`wrote ${files} files to ${config.siteOut} in ${ms} ms\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename ?? '')) {
  await main();
  process.exit(0);
}
