// `npx @11ty/eleventy --output=DIR` in a clone, with VAULT, SITE_URL and SERVICE_DATA set
// (CONTRACT §16): the static snapshot `vault-service build --out DIR` writes, file for file.
// The snapshot build runs on this thread with its pages' views gathered instead of rendered
// (page-render.ts ViewCollector), writing the files that are not pages (assets, search
// index, attachments, favicon) into DIR; then this Eleventy run renders every page from
// those views and writes it into DIR itself.
import path from 'node:path';
import type { UserConfig } from '@11ty/eleventy';
import { loadConfig } from '../shared/config.ts';
import { formatWarning } from '../shared/model/build-warnings.ts';
import { configureSite, extensionsOf, type SiteDirectories } from '../site/render/eleventy-site.ts';
import { ViewCollector } from '../site/render/page-render.ts';
import type { RenderData } from '../site/render/render-state.ts';
import { snapshotFinish } from '../site/render/snapshot-page.ts';
import { buildSnapshot, indexFolderPages } from './cli/build.ts';

export async function standaloneSite(eleventyConfig: UserConfig): Promise<SiteDirectories> {
  let output: string | null = null;
  eleventyConfig.on('eleventy.directories', ((dirs: { output: string }) => {
    output = path.resolve(dirs.output);
  }) as never);
  const base = loadConfig(process.env);
  const config = () => {
    if (!output) throw new Error('Eleventy named no output folder');
    return { ...base, siteOut: output };
  };
  const finish = snapshotFinish(base.siteUrl);
  eleventyConfig.addTransform('vault-service-snapshot', function (content) {
    const file = this.page.outputPath;
    if (!file || !output) return content;
    return finish(path.relative(output, file).split(path.sep).join('/'), content) ?? content;
  });
  // Once Eleventy has written the pages: a page that is a folder too is that folder's index as well, as `vault-service build` writes it.
  eleventyConfig.on('eleventy.after', (() => {
    if (output) indexFolderPages(output);
  }) as never);
  let views: Promise<RenderData> | null = null;
  const vault = () => (views ??= snapshotViews(config()));
  return configureSite(eleventyConfig, vault, extensionsOf(base));
}

/** Builds the snapshot's files that are not pages into its folder, and answers every page's views. */
async function snapshotViews(config: ReturnType<typeof loadConfig>): Promise<RenderData> {
  if (!config.isPublic) throw new Error('PUBLIC=false: a static snapshot would publish a private site');
  const collector = new ViewCollector(extensionsOf(config));
  const built = await buildSnapshot(config, { renderer: collector });
  if (built.warnings.length > 0) process.stderr.write(built.warnings.map((w) => `  ${formatWarning(w)}\n`).join(''));
  // The shared fragment is in every page already (a snapshot never writes it as a file); the full explorer page is a page.
  return { ...collector.views, nav: collector.views.nav.filter((n) => n.page) };
}
