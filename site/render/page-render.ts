// Turning planned pages into files: templated pages through the site's templates
// (in passes of many pages, split and written once each), the site's assets, and the
// attachments published notes show. Used by the build process and by the build thread of
// a full build alike.
import { copyFileSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { log } from '../../shared/log.ts';
import { copyVaultFileSync, readVaultFileSync } from '../../shared/vault-read.ts';
import { buildAssets, type SiteAssets } from './assets.ts';
import type { FileWriter } from '../write/file-writer.ts';
import { EleventyRunner, type RenderedFile } from './eleventy-runner.ts';
import { NO_EXTENSIONS, type SiteExtensions } from './eleventy-site.ts';
import type { SitePlan } from '../plan/plan.ts';
import type { PlannedPage } from '../plan/plan-types.ts';
import { snapshotCopyOf } from '../write/snapshot-attachments.ts';
import { MAX_SVG_BYTES } from './snapshot-svg.ts';
import { emptyRender, type RenderData, type SnapshotParts } from './render-state.ts';
import { pageWriter } from '../write/write-pages.ts';

/** What is done to a page's text before it is written (a static snapshot's links under a site's base path); null: not written. */
export type PageFinish = (file: string, body: string) => string | null;

const readOrEmpty = (file: string): Buffer => {
  try {
    return readFileSync(file);
  } catch {
    return Buffer.alloc(0);
  }
};

export const isTemplated = (p: PlannedPage) => p.kind !== 'attachment' && p.kind !== 'imageVariant' && p.kind !== 'asset' && p.kind !== 'searchIndex';

export class PageRenderer {
  private readonly runner: EleventyRunner;
  private assetsMade: Promise<SiteAssets> | null = null;
  private snapshot: SnapshotParts | null = null;

  constructor(readonly extensions: SiteExtensions = NO_EXTENSIONS) {
    this.runner = new EleventyRunner(extensions);
  }

  /**
   * The stylesheets and scripts, made once per process (asked for early, they are read
   * while the notes are parsed). One that failed is tried again when next asked for.
   */
  assets(): Promise<SiteAssets> {
    this.assetsMade ??= buildAssets().catch((err: unknown) => {
      this.assetsMade = null;
      throw err;
    });
    return this.assetsMade;
  }

  /** What every page of the plan is rendered with: the frame, the assets, the logo, the vault's stylesheet. */
  async siteOf(plan: SitePlan): Promise<NonNullable<RenderData['site']>> {
    const { frame } = plan.ctx;
    const { css, js, theme, search, katex, mermaid } = await this.assets();
    return { ...frame, assets: { css, js, theme, search, katex, mermaid }, logoUrl: plan.ctx.imageUrl(frame.logo, null), publishCss: plan.ctx.publishCss, snapshot: this.snapshot };
  }

  /** Eleventy loaded and configured ahead of the first pages (EleventyRunner.warm). */
  warm(): Promise<void> {
    return this.runner.warm();
  }

  /** From now on, pages are rendered as a static snapshot's (snapshot-page.ts): `parts` in place of the server's markers. */
  renderAsSnapshot(parts: SnapshotParts): void {
    this.snapshot = parts;
  }

  /** The views of templated pages, as the templates read them (plain data: they can cross to the build thread). */
  async viewsOf(plan: SitePlan, pages: PlannedPage[]): Promise<RenderData> {
    const data = emptyRender();
    data.site = await this.siteOf(plan);
    for (const page of pages) {
      switch (page.kind) {
        case 'article':
          data.articles.push(page.view() as RenderData['articles'][number]);
          break;
        case 'list':
          data.lists.push(page.view() as RenderData['lists'][number]);
          break;
        case 'folder':
          data.folders.push(page.view() as RenderData['folders'][number]);
          break;
        case 'feed':
          data.feeds.push(page.view() as RenderData['feeds'][number]);
          break;
        case 'sitemap':
          data.sitemaps.push(page.view() as RenderData['sitemaps'][number]);
          break;
        case 'robots':
          data.robots.push({ file: page.file });
          break;
        case 'notFound':
          data.notFound.push({ file: page.file });
          break;
        case 'nav':
          data.nav.push({ ...(page.view() as RenderData['nav'][number]), file: page.file });
          break;
        case 'search':
          data.search.push(page.view() as RenderData['search'][number]);
          break;
        default:
          break;
      }
    }
    return data;
  }

  /** Renders templated pages in one pass; answers their outputs. */
  async render(plan: SitePlan, pages: PlannedPage[]): Promise<RenderedFile[]> {
    const out: RenderedFile[] = [];
    await this.runner.render(await this.viewsOf(plan, pages.filter(isTemplated)), (file, text) => out.push([file, text]));
    return out;
  }

  /** Renders views made elsewhere (the build's, on its build thread) into `dir`. */
  async renderViewsInto(dir: string, data: RenderData, finish?: PageFinish): Promise<void> {
    await this.runner.render(data, pageWriter(dir, finish));
  }

  /** Renders templated pages into `dir`, `chunk` pages per pass (bounds memory), written here or by `writer`. */
  async renderInto(dir: string, plan: SitePlan, pages: PlannedPage[], chunk: number, finish?: PageFinish, writer?: FileWriter | null): Promise<void> {
    const templated = pages.filter(isTemplated);
    for (let i = 0; i < templated.length; i += chunk) {
      await this.runner.render(await this.viewsOf(plan, templated.slice(i, i + chunk)), pageWriter(dir, finish, writer));
    }
  }

  /**
   * Writes the assets and the search index's files and copies the attachments among `pages`
   * into `dir`. For a static snapshot (`snapshot`: the vault path the site itself loads, its
   * publish.css, or null) only what snapshot-attachments.ts allows; answers what was left
   * out (vault path → why).
   */
  writeFiles(dir: string, vaultDir: string, pages: PlannedPage[], snapshot: { siteFile: string | null } | null = null): Map<string, string> {
    const made = new Set<string>();
    const leftOut = new Map<string, string>();
    const parent = (target: string) => {
      const folder = path.dirname(target);
      if (!made.has(folder)) mkdirSync(folder, { recursive: true });
      made.add(folder);
    };
    for (const page of pages) {
      const target = path.join(dir, page.file);
      if (page.kind === 'asset' || page.kind === 'searchIndex') {
        parent(target);
        writeFileSync(target, typeof page.content === 'function' ? page.content() : (page.content ?? ''));
      } else if (page.kind === 'imageVariant' && page.source) {
        parent(target);
        linkOrCopy(page.source, target);
      } else if (page.kind === 'attachment' && page.source) {
        const source = page.source;
        const copy = snapshot ? snapshotCopyOf(source, () => readVaultFileSync(vaultDir, source, MAX_SVG_BYTES), source === snapshot.siteFile) : { copy: true as const };
        if ('leftOut' in copy) {
          leftOut.set(source, copy.leftOut);
          continue;
        }
        parent(target);
        try {
          if ('bytes' in copy) writeFileSync(target, copy.bytes);
          else if (!copyVaultFileSync(vaultDir, source, target)) log.warnOnce(`copy:${source}`, `could not publish the attachment ${source}: it is no longer a regular file of the vault`);
        } catch (err) {
          log.warnOnce(`copy:${source}`, `could not publish the attachment ${source}: ${(err as NodeJS.ErrnoException).code}`);
        }
      }
    }
    return leftOut;
  }
}

/** An image's copy into the site: a hard link to the kept file (it never changes), a copy across file systems. */
function linkOrCopy(source: string, target: string): void {
  try {
    rmSync(target, { force: true });
    linkSync(source, target);
  } catch {
    try {
      copyFileSync(source, target);
    } catch (err) {
      log.warnOnce(`copy:${source}`, `could not publish the image copy ${path.basename(source)}: ${(err as NodeJS.ErrnoException).code}`);
    }
  }
}

/**
 * The pages' views gathered, not rendered: `npx @11ty/eleventy` (scripts/eleventy-standalone.ts)
 * hands them all to the Eleventy run that asked, which renders and writes them itself. A
 * page rendered on its own (a snapshot's topic row, put into every page) is still rendered.
 */
export class ViewCollector extends PageRenderer {
  readonly views: RenderData = emptyRender();

  override async renderInto(_dir: string, plan: SitePlan, pages: PlannedPage[]): Promise<void> {
    const made = await this.viewsOf(plan, pages.filter(isTemplated));
    this.views.site = made.site;
    for (const list of Object.keys(made) as (keyof RenderData)[]) {
      if (list !== 'site') (this.views[list] as unknown[]).push(...made[list]);
    }
  }
}
