// `vault-service build` (and `npm run build`): a static snapshot of the public site for the
// current vault, written to SITE_OUT (default ./_site) for any static host (CONTRACT §1),
// with progress while it runs and a summary after: pages written, time, and the warnings,
// each naming its note. `--strict` fails on any warning before anything is replaced.
import { copyFileSync, promises as fs, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../../shared/config.ts';
import { DATA_FILES } from '../../shared/data-path.ts';
import { customCssAddress } from '../../site/plan/custom-css.ts';
import { log } from '../../shared/log.ts';
import { formatWarning, type BuildWarning } from '../../shared/model/build-warnings.ts';
import type { BuildProgress } from '../../site/build/site-builder.ts';
import type { PageRenderer } from '../../site/render/page-render.ts';
import { extensionsOf } from '../../site/render/eleventy-site.ts';
import { createProgress } from './progress.ts';
import { SITE_MARKER, SITE_MARKER_TEXT, siteOutProblem } from '../site-out-guard.ts';
import { LockFile } from '../../shared/lock-file.ts';

type TreeEntries = ReturnType<typeof treeOf>;

/** Everything under `dir` (names only: nothing is read). Synchronous: nothing else runs now, and a promise per folder took twice as long (15 ms at 10,000 notes). */
const treeOf = (dir: string) => readdirSync(dir, { withFileTypes: true, recursive: true });

/** How many of `entries` are files, and how many pages. */
function countFiles(entries: TreeEntries): { files: number; pages: number } {
  let files = 0;
  let pages = 0;
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    files++;
    if (entry.name.endsWith('.html')) pages++;
  }
  return { files, pages };
}

/**
 * A page whose address is a folder too (`topic/a.html` beside `topic/a/feed.xml` and
 * `topic/a/b.html`) is written again as that folder's `index.html`: a host that answers
 * `/topic/a` by the folder (a redirect to `/topic/a/`, as GitLab Pages does) finds the page
 * there. Its links all start at the site's root, so they read the same from either place.
 */
export function indexFolderPages(dir: string, entries: TreeEntries = treeOf(dir)): number {
  let copies = 0;
  const files = new Set(entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name)));
  for (const entry of entries) {
    if (!entry.isDirectory()) continue;
    const folder = path.join(entry.parentPath, entry.name);
    if (!files.has(`${folder}.html`) || files.has(path.join(folder, 'index.html'))) continue;
    copyFileSync(`${folder}.html`, path.join(folder, 'index.html'));
    copies++;
  }
  return copies;
}

/** The build did not replace SITE_OUT; the message says why in one sentence. */
export class BuildRefused extends Error {
  constructor(
    message: string,
    /** The warnings that failed a --strict build. */
    readonly warnings: BuildWarning[] = [],
  ) {
    super(message);
  }
}

const guardedFolders = (config: Config) => [
  { name: 'vault', dir: config.vaultDir },
  { name: 'data directory', dir: config.dataDir },
];

export interface SnapshotOptions {
  onProgress?: (progress: BuildProgress) => void;
  /** Refuse to replace SITE_OUT when the build has warnings. */
  strict?: boolean;
  /** Renders the pages (default: Eleventy, here and in a build thread); given, the build runs on this thread alone. */
  renderer?: PageRenderer;
}

export interface Snapshot {
  /** HTML pages written. */
  pages: number;
  /** Every file written (pages, feed, sitemap, assets, attachments). */
  files: number;
  ms: number;
  warnings: BuildWarning[];
}

/**
 * The site settings a build uses: the data directory's, else the ones travelling with the
 * vault in `.service/` (a CI build has a fresh data directory; a server's first start
 * would adopt the same file).
 */
async function settingsDir(config: Config): Promise<string> {
  const has = (dir: string) => fs.stat(path.join(dir, 'settings.json')).then((s) => s.isFile(), () => false);
  if (await has(config.dataDir)) return config.dataDir;
  const travelled = path.join(config.vaultDir, '.service');
  return (await has(travelled)) ? travelled : config.dataDir;
}

export async function buildSnapshot(config: Config, options: SnapshotOptions = {}): Promise<Snapshot> {
  const started = Date.now();
  const refused = await siteOutProblem(config.siteOut, guardedFolders(config));
  if (refused) throw new BuildRefused(`${refused}; refusing to build there, nothing was written or deleted`);
  // One build at a time writes a SITE_OUT: two at once once left a site with files missing
  // (the loser's delete ran into the winner's new folder), and the winner answered 0.
  await fs.mkdir(path.dirname(config.siteOut), { recursive: true });
  const lock = await new LockFile({ file: `${config.siteOut}${OUT_LOCK}`, staleMs: OUT_LOCK_STALE_MS, refreshMs: OUT_LOCK_REFRESH_MS, label: 'site build lock' }).take();
  if (!lock.ok) throw new BuildRefused(`another build (pid ${lock.holder.pid}) is writing ${config.siteOut}; nothing was written or deleted`);
  try {
    return await buildLocked(config, options, started);
  } finally {
    await lock.lock.release();
  }
}

/** Beside SITE_OUT while a build writes it. */
const OUT_LOCK = '.vault-service-lock';
const OUT_LOCK_REFRESH_MS = 10_000;
/** A build touches its lock every 10 s: one untouched for 2 minutes was left by a build that hung. */
const OUT_LOCK_STALE_MS = 120_000;

/** Folders beside SITE_OUT a build cut short leaves (its work folder, the site it was replacing). */
const leftBehind = (siteOut: string) => new RegExp(`^${escapeRegExp(path.basename(siteOut))}\\.(building|old)-\\d+$`);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function buildLocked(config: Config, options: SnapshotOptions, started: number): Promise<Snapshot> {
  // Holding the lock, no other build is under way: what one cut short (a signal, a crash) left goes.
  const parent = path.dirname(config.siteOut);
  const stale = leftBehind(config.siteOut);
  for (const name of await fs.readdir(parent).catch(() => [] as string[])) {
    if (stale.test(name)) await fs.rm(path.join(parent, name), { recursive: true, force: true });
  }
  // Loaded once SITE_OUT is known to be safe: a refusal answers at once.
  const { SiteBuilder } = await import('../../site/build/site-builder.ts');
  const work = `${config.siteOut}.building-${process.pid}`;
  await fs.rm(work, { recursive: true, force: true });
  const settingsFrom = await settingsDir(config);
  try {
    // Each page is written once, as the static host will serve it (site/render/snapshot-page.ts).
    const builder = new SiteBuilder({
      config,
      outRoot: work,
      base: config.siteUrl ?? '',
      settingsDir: settingsFrom,
      onProgress: options.onProgress,
      snapshot: { siteUrl: config.siteUrl, customCss: customCssAddress(settingsFrom) },
      extensions: extensionsOf(config),
      ...(options.renderer ? { renderer: options.renderer, buildThread: false } : {}),
    });
    const result = await builder.full();
    const warnings = builder.warnings();
    if (options.strict && warnings.length > 0) {
      throw new BuildRefused(`${count(warnings)} with --strict: the build failed, ${config.siteOut} was left as it was`, warnings);
    }
    await fs.writeFile(path.join(result.dir, SITE_MARKER), SITE_MARKER_TEXT);
    await writeFavicon(config.vaultDir, result.dir);
    await writeCustomCss(settingsFrom, result.dir);
    // One walk of the tree: the folders' index copies are made from it, and it is counted (the copies are files, not pages).
    const tree = treeOf(result.dir);
    const copies = indexFolderPages(result.dir, tree);
    // Checked again right before the folder is replaced (it may have changed during the build).
    const problem = await siteOutProblem(config.siteOut, guardedFolders(config));
    if (problem) throw new BuildRefused(`${problem}; refusing to build there, nothing was written or deleted`);
    const { files, pages } = countFiles(tree);
    // Two renames, then the old site goes: stopped at any point, SITE_OUT is the old site or the
    // new one (for the instant between the renames, none), never half of one. Deleting the old
    // site first once left a half-deleted one, and no marker, which every later build refused.
    const old = `${config.siteOut}.old-${process.pid}`;
    await fs.mkdir(path.dirname(config.siteOut), { recursive: true });
    const hadOld = await fs.rename(config.siteOut, old).then(
      () => true,
      (err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return false;
        throw err;
      },
    );
    await fs.rename(result.dir, config.siteOut);
    if (hadOld) await fs.rm(old, { recursive: true, force: true });
    return { pages, files: files + copies - 1, ms: Date.now() - started, warnings };
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/**
 * CONTRACT §7: `/favicon.ico` is the vault's favicon.ico or favicon.png, else the bundled
 * one, on a static host too (a browser asks every site for it). A published note's
 * attachment of that name, already written, is the same file.
 */
async function writeFavicon(vaultDir: string, siteDir: string): Promise<void> {
  const file = path.join(siteDir, 'favicon.ico');
  if (await fs.lstat(file).then(() => true, () => false)) return;
  const { faviconOf } = await import('../../site/serve/favicon-file.ts');
  await fs.writeFile(file, (await faviconOf(vaultDir)).body);
}

/** The designer's stylesheet the pages link after ours (`/custom.css?v=…`), from beside the settings the build used, or an empty one, as the server answers it. */
async function writeCustomCss(dir: string, siteDir: string): Promise<void> {
  const css = await fs.readFile(path.join(dir, DATA_FILES.customCss)).catch(() => Buffer.alloc(0));
  await fs.writeFile(path.join(siteDir, DATA_FILES.customCss), css);
}

const ENV_NAMES: Record<string, string> = { siteName: 'SITE_NAME', tagline: 'SITE_TAGLINE', homeNote: 'HOME_NOTE', footer: 'SITE_FOOTER', language: 'SITE_LANG', 'publishing.layout': 'PUBLIC_LAYOUT' };

/** A flag or variable the saved settings outvote (spec 2.1: a saved setting wins) is said, not dropped in silence. */
async function warnOutvoted(config: Config): Promise<void> {
  const dir = await settingsDir(config);
  const { createSettingsReader, siteSettingsOf } = await import('../../shared/settings.ts');
  const site = siteSettingsOf(await createSettingsReader(dir)(), config);
  for (const [key, given, saved] of site.outvoted) {
    log.warn(`${ENV_NAMES[key] ?? key}=${given} is not used: the saved settings say ${saved} (${path.join(dir, 'settings.json')}), and a saved setting wins.`);
  }
}

export interface BuildCommandOptions {
  strict: boolean;
  quiet: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream & { isTTY?: boolean };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a build the way the command line does; answers the exit code (0 built, 1 failed). */
export async function buildCommand(config: Config, options: BuildCommandOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  if (!config.isPublic) {
    stderr.write('vault-service: PUBLIC=false: a static snapshot would publish a private site; nothing was written.\n');
    return 1;
  }
  if (!config.siteUrl && options.strict) {
    stderr.write('vault-service: SITE_URL is not set: with --strict the build fails, as the feed, sitemap, robots.txt and SEO tags need the site\'s address; nothing was written.\n');
    return 1;
  }
  if (!config.siteUrl) log.warn('SITE_URL is not set: absolute URLs in the feed, sitemap, robots.txt and SEO tags will be relative to "/".');
  await warnOutvoted(config);
  const progress = createProgress({ stream: stderr, quiet: options.quiet });
  let built: Snapshot;
  try {
    built = await buildSnapshot(config, { onProgress: (p) => progress.update(p), strict: options.strict });
  } catch (err) {
    progress.done();
    if (!(err instanceof BuildRefused)) throw err;
    printWarnings(err.warnings, stderr);
    stderr.write(`vault-service: ${err.message}.\n`);
    return 1;
  }
  progress.done();
  if (!options.quiet) stdout.write(`built ${built.pages} pages (${built.files} files) into ${config.siteOut} in ${seconds(built.ms)}\n`);
  printWarnings(built.warnings, stderr);
  return 0;
}

/** Warnings past a note's cap are counted in its last one (build-warnings.ts). */
const count = (warnings: BuildWarning[]) => {
  const n = warnings.reduce((sum, w) => sum + (w.more ?? 1), 0);
  return n === 1 ? '1 warning' : `${n} warnings`;
};

function printWarnings(warnings: BuildWarning[], stream: NodeJS.WritableStream): void {
  if (warnings.length === 0) return;
  // One write: a line each was a system call each (10,000 notes can warn thousands of times).
  stream.write(`${count(warnings)}:\n${warnings.map((w) => `  ${formatWarning(w)}\n`).join('')}`);
}
