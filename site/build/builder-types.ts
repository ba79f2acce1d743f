// What the site builder is given and what each build answers (site-builder.ts).
import type { Config } from '../../shared/config.ts';
import type { PageRenderer } from '../render/page-render.ts';
import type { ServedEntry } from '../plan/plan-types.ts';
import type { SiteExtensions } from '../render/eleventy-site.ts';

/**
 * A static snapshot: each page is written as a static host serves it, with what the server
 * fills per request filled in (site/render/snapshot-page.ts).
 */
export interface SnapshotSite {
  siteUrl: string | null;
  /** The address pages link the designer's custom.css by (site/plan/custom-css.ts), or null. */
  customCss?: string | null;
}

export interface SiteBuilderOptions {
  config: Config;
  /** Folder the builder owns: generations and the staging folder live here. */
  outRoot: string;
  skipDirs?: string[];
  /** Base URL baked into the pages; the default is the token the server replaces per request. */
  base?: string;
  useGit?: boolean;
  /** Pages rendered per pass in a full build (bounds memory). */
  chunkSize?: number;
  /** Remember each generation (state beside it) so a restart can resume it. */
  remember?: boolean;
  /** A full build shares its work with a build thread (default: yes, for a vault big enough). */
  buildThread?: boolean;
  /** From how many notes a build thread is big enough to pay (default full-build.ts BUILD_THREAD_MIN_NOTES). */
  buildThreadFrom?: number;
  /** A static snapshot (`npm run build`) instead of the server's site. */
  snapshot?: SnapshotSite;
  /** The operator's theme and Eleventy config function (CONTRACT §16; default: none). */
  extensions?: SiteExtensions;
  /** Renders the pages (default: Eleventy, in this process; `npx @11ty/eleventy` collects the views instead). */
  renderer?: PageRenderer;
  /**
   * A first build of this many searchable notes or more goes live before its search base,
   * made at the next quiet moment (site/plan/search-index.ts; default: made in the build).
   */
  searchBaseLaterFrom?: number;
  /** Folder whose settings.json the site is built with (default: the data directory). */
  settingsDir?: string;
  /** Told what a full build is doing (the command line's progress line; in-process builds only). */
  onProgress?: (progress: BuildProgress) => void;
}

/** Where a full build is: reading the vault, planning, rendering pages (done of total), writing files. */
export interface BuildProgress {
  phase: 'read' | 'plan' | 'render' | 'files' | 'finish';
  done?: number;
  total?: number;
}

export interface BuildResult {
  full: boolean;
  /** The folder that now holds the live site. */
  dir: string;
  /** Full builds: every served address. */
  entries?: [string, ServedEntry][];
  upserts: [string, ServedEntry][];
  removals: string[];
  /** The topic row fragment, when it changed (every full build). */
  nav: string | null;
  /** Every address answering 301 and where to (CONTRACT §7), when they changed; null otherwise. */
  redirects?: [string, string][] | null;
  rendered: number;
  ms: number;
  gitCreated?: [string, number][];
  /** A catch-up pass: the notes it parsed (changed while the server was down, or not kept) of all it holds. */
  notes?: { parsed: number; of: number };
  /** The search index's delta has grown: a `tidy()` pass when the builder is idle makes a new base. */
  tidy?: boolean;
}
