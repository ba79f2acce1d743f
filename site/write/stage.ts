// The staging folder a pass renders into, and the swap into the live folder: each new
// file is renamed over the live one, so a visitor reads the old page or the new one,
// never half of either.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { PageRenderer } from '../render/page-render.ts';
import type { SitePlan } from '../plan/plan.ts';
import type { PlannedPage } from '../plan/plan-types.ts';
import { isSiteFile } from './generation.ts';

/**
 * Where `file` lies in the live folder, reached through no link: the folder lives in the data
 * directory, which is input too (a generation's record once named `../../../etc/passwd`, and
 * a link put in place of a folder took the pages written into it elsewhere). `known`: folders
 * of this pass already looked at.
 */
async function placeIn(live: string, file: string, known: Set<string>): Promise<string> {
  if (!isSiteFile(file)) throw new Error(`a site file named ${JSON.stringify(file)} would lie outside the site folder`);
  let dir = live;
  for (const part of file.split('/').slice(0, -1)) {
    dir = path.join(dir, part);
    if (known.has(dir)) continue;
    const stat = await fs.lstat(dir).catch(() => null);
    if (stat && !stat.isDirectory()) throw new Error(`${path.relative(live, dir)} in the site folder is not a folder (a link, or a file): nothing is written through it`);
    if (stat) known.add(dir);
  }
  return path.join(live, file);
}

export class Stage {
  constructor(
    readonly dir: string,
    private readonly renderer: PageRenderer,
    private readonly vaultDir: string,
  ) {}

  /** An empty staging folder. */
  async reset(): Promise<void> {
    await fs.rm(this.dir, { recursive: true, force: true });
    await fs.mkdir(this.dir, { recursive: true });
  }

  /** Renders changed outputs into the staging folder and copies files next to them. */
  async produce(plan: SitePlan, pages: PlannedPage[]): Promise<void> {
    await this.renderer.renderInto(this.dir, plan, pages, 1500);
    this.renderer.writeFiles(this.dir, this.vaultDir, pages);
  }

  /** A file made in this pass, as text. */
  read(file: string): Promise<string> {
    return fs.readFile(path.join(this.dir, file), 'utf8');
  }

  /** Renames each page's new file over the live one. */
  async swapInto(live: string, pages: PlannedPage[]): Promise<void> {
    const folders = new Set<string>();
    for (const page of pages) {
      const from = path.join(this.dir, page.file);
      const to = await placeIn(live, page.file, folders);
      await fs.mkdir(path.dirname(to), { recursive: true });
      await fs.rename(from, to).catch((err) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      });
    }
  }

  /** A pass's pages rendered and swapped into the live folder, and the files it no longer has removed. */
  async replace(plan: SitePlan, live: string, pages: PlannedPage[], gone: string[]): Promise<void> {
    await this.reset();
    await this.produce(plan, pages);
    await this.swapInto(live, pages);
    await this.remove(live, gone);
  }

  /** Removes files of the live folder (outputs gone from the plan). */
  async remove(live: string, files: string[]): Promise<void> {
    const folders = new Set<string>();
    for (const file of files) await fs.rm(await placeIn(live, file, folders), { force: true });
  }

  /** The whole staging folder becomes `dir` (a full build's new generation). */
  async becomes(dir: string): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    await fs.rename(this.dir, dir);
  }
}
