// Renders a pass's views through Eleventy: one instance per process, configured by the
// project's `.eleventy.js`, its global data `vault` the views of this pass only (subset
// rendering: a pass hands it just the pages whose inputs changed). Each page template
// paginates over its list of views, one page per view, its permalink the view's file.
import path from 'node:path';
import type { Eleventy } from '@11ty/eleventy';
import { importModule } from '../../shared/import-module.ts';
import { cachedBundle } from '../../shared/project-dir.ts';
import { PROJECT_DIR, TEMPLATES_DIR } from './paths.ts';
import { emptyRender, type RenderData } from './render-state.ts';
import { configureSite, SITE_DRIVER, type SiteExtensions } from './eleventy-site.ts';

/** One output of a render: the site file's path, and its text. */
export type RenderedFile = [file: string, text: string];

/** Takes one output of a render: the site file's path, and its text. */
export type OutputSink = (file: string, text: string) => void;

/** The project's Eleventy configuration. */
export const ELEVENTY_CONFIG = path.join(PROJECT_DIR, '.eleventy.js');

/** Eleventy's output folder: nothing is written there (pages come back as JSON, and go to the pass's sink). */
const OUTPUT = path.join(PROJECT_DIR, '_eleventy-unused');

/**
 * Eleventy's notes on slow filters and transforms ("Benchmark 52ms 9% … Transform") would land
 * in the build's own output, a --quiet one's too: its quiet mode reaches the benchmark groups
 * made after it is set, not the "Configuration" group its config object makes first. The group
 * is told through the manager plugins use (eleventy-img reads it too).
 */
function quietBenchmarks(config: object): void {
  const manager = (config as { benchmarkManager?: { get(name: string): { setIsVerbose(verbose: boolean): void } | undefined } }).benchmarkManager;
  manager?.get('Configuration')?.setIsVerbose(false);
}

/** One instance at a time takes its configuration through the global key (eleventy-site.ts SITE_DRIVER). */
let configuring: Promise<unknown> = Promise.resolve();

export class EleventyRunner {
  private eleventy: Promise<Eleventy> | null = null;
  private passes = 0;
  private views: RenderData = emptyRender();

  constructor(private readonly extensions: SiteExtensions) {}

  /** Loads and configures Eleventy now, so the first render does not wait for it (a thread with nothing else to do). */
  async warm(): Promise<void> {
    await (this.eleventy ??= this.start());
  }

  /** Renders every view in `data`, handing each page to `sink`, in the order Eleventy makes them. */
  async render(data: RenderData, sink: OutputSink): Promise<void> {
    this.views = data;
    const eleventy = await (this.eleventy ??= this.start());
    // A second build on one instance reuses the first's template data unless restarted.
    if (this.passes++ > 0) {
      await eleventy.restart();
      await eleventy.init();
      eleventy.setIsVerbose(false);
    }
    for (const page of await eleventy.toJSON()) {
      if (page.outputPath === false) continue;
      sink(path.relative(OUTPUT, page.outputPath).split(path.sep).join('/'), page.content);
    }
  }

  private async start(): Promise<Eleventy> {
    // Eleventy's import cache-buster serves its own watch mode, which no build uses; on Node 20
    // it is a module-hooks thread that every later import waits on. Its documented switch, unless set.
    process.env.ELEVENTY_SKIP_ESM_RESOLVER ??= '1';
    // The server's bundle holds Eleventy (scripts/server-bundle.ts: no module resolved or read one by
    // one at each builder start). The snapshot's one bundle runs from V8's code cache, where Eleventy's
    // own import() of .eleventy.js would find no loader: there it stays a package, imported as one.
    const { Eleventy } = cachedBundle() ? await importModule<typeof import('@11ty/eleventy')>('@11ty/eleventy') : await import('@11ty/eleventy');
    const made = configuring.then(async () => {
      (globalThis as Record<symbol, unknown>)[SITE_DRIVER] = (config: Parameters<typeof configureSite>[0]) => {
        quietBenchmarks(config);
        return configureSite(config, () => this.views, this.extensions);
      };
      try {
        const eleventy = new Eleventy(TEMPLATES_DIR, OUTPUT, { configPath: ELEVENTY_CONFIG, quietMode: true });
        await eleventy.init();
        // Quiet through and through: Eleventy's benchmark notes ("a filter took 8%") would land in the build's own output.
        eleventy.setIsVerbose(false);
        return eleventy;
      } finally {
        delete (globalThis as Record<symbol, unknown>)[SITE_DRIVER];
      }
    });
    configuring = made.catch(() => undefined);
    return made;
  }
}
