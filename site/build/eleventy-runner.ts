// One Eleventy instance for the life of the process (its file caches are
// process-wide). Each pass sets the render state to the pages that changed and
// runs restart() + init() + write(): calling write() again alone serves stale pages.
import path from 'node:path';
import './eleventy-env.ts';
import Eleventy from '@11ty/eleventy';
import { codeFile, PROJECT_DIR } from '../../shared/project-dir.ts';
import { renderState, type RenderData } from './render-state.ts';
import { handOverEleventySetup } from './eleventy-handoff.ts';
import { configureEleventy, type EleventyConfig } from './eleventy-setup.ts';

export { PROJECT_DIR };
const TEMPLATES = path.join(PROJECT_DIR, 'site/templates');
const CONFIG = codeFile('site/build/eleventy-config');

interface EleventyLike {
  init(): Promise<void>;
  restart(): Promise<void>;
  toJSON(): Promise<{ content: string }[]>;
  setIsVerbose?(v: boolean): void;
  disableLogger?(): void;
}

export class EleventyRunner {
  private elev: EleventyLike | null = null;
  private initialised = false;

  constructor(private readonly outputDir: string) {}

  private instance(): EleventyLike {
    if (!this.elev) {
      handOverEleventySetup((config) => configureEleventy(config as EleventyConfig));
      // Eleventy resolves its folders from the working directory.
      const rel = (p: string) => path.relative(process.cwd(), p) || '.';
      const ElevCtor = Eleventy as unknown as new (input: string, output: string, options: Record<string, unknown>) => EleventyLike;
      this.elev = new ElevCtor(rel(TEMPLATES), rel(this.outputDir), { configPath: rel(CONFIG), quietMode: true });
      this.elev.disableLogger?.();
    }
    return this.elev;
  }

  /**
   * Renders exactly the pages in `data` and returns Eleventy's outputs (batches of
   * pages) in memory: the driver splits them and writes each file once.
   */
  async render(data: RenderData): Promise<string[]> {
    const elev = this.instance();
    renderState.current = data;
    try {
      if (this.initialised) await elev.restart();
      await elev.init();
      this.initialised = true;
      return (await elev.toJSON()).map((r) => r.content);
    } finally {
      // Let the rendered views be collected: the state holds only one pass.
      renderState.current = { ...data, articles: [], lists: [], feeds: [], sitemaps: [] };
    }
  }
}
