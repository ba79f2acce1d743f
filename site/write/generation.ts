// The last good generation, remembered in the data directory (restarts
// are instant). Beside the built folder the builder keeps what it was built from
// (vault, code, settings) and every output's signature, so a restarted server can
// serve it at once and the builder can bring it up to date by re-rendering only
// the outputs whose signature changed while the server was down.
import { strictLineBreaksNow } from '../../shared/note/line-breaks.ts';
import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, promises as fs, lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import type { Config } from '../../shared/config.ts';
import { MAX_NOTE_BYTES } from '../../shared/model/note-reader.ts';
import { isTrue, parseFrontmatter } from '../../shared/note/frontmatter.ts';
import { hashText, isTextHash } from '../../shared/note/text-hash.ts';
import { fileStamp } from '../../shared/file-stamp.ts';
import { defaultSettings, settingsFile, withDefaults, type Settings } from '../../shared/settings.ts';
import { BASE_TOKEN, frameSig, siteFrame } from '../plan/frame.ts';
import { CODE_DIR, PROJECT_DIR } from '../../shared/project-dir.ts';
import type { PlannedPage, ServedEntry, ServeType } from '../plan/plan-types.ts';
import type { SitePlan } from '../plan/plan.ts';
import type { RememberedBase } from '../plan/search-base.ts';
import { SEARCH_DIR } from '../../shared/search/index-format.ts';
import { isWritableFile } from '../../shared/model/addresses.ts';

/** node:v8, loaded when a generation is read or written (only the server's builder does): one module fewer for `npm run build`. */
const v8 = () => createRequire(import.meta.url)('node:v8') as typeof import('node:v8');

const STATE_FILE = 'generation.v8';
const FORMAT = 3;

export interface GenerationState {
  format: number;
  /** Folder name of the generation under the builder's root. */
  dir: string;
  /** The vault's real path. */
  vault: string;
  /** Hash of the code and templates that render the site. */
  code: string;
  /** frameSig of the settings and environment the pages were rendered with. */
  frame: string;
  nav: string;
  /** Every output: [address, file, type, signature]; internal ones included. */
  pages: [string, string, ServeType, string][];
  /**
   * Every published note: [vault path, sha1 of its text, and the stamp of the file it was read
   * from (file-stamp.ts), or null] (retractedWhileDown).
   */
  notes: [string, string, (string | null)?][];
  /** The search base its pages hold, or null (made anew by the catch-up pass). */
  search: RememberedBase | null;
}

/** What a generation must match to be served: this vault, this code, these settings. */
export interface GenerationKey {
  vault: string;
  code: string;
  frame: string;
}

// What renders the site: every module of the site and of the shared model and note parsing
// (as the running code has them: sources, or dist/), then the templates, stylesheets, the
// Eleventy config and the dependencies beside them in the project. A part left out (the
// renderer's filters, .eleventy.js) would let a restart after an upgrade serve pages the new
// code no longer makes.
const CODE_PARTS = [
  ...['site', 'shared'].map((part) => [CODE_DIR, part] as const),
  ...['site/templates', 'site/assets', '.eleventy.js', 'package.json', 'package-lock.json'].map((part) => [PROJECT_DIR, part] as const),
];

// Synchronous on purpose: a restart reads these before anything else queues work on
// libuv's thread pool (the vault watcher's first scan is thousands of stats), so the
// old generation is up before the first request rather than behind that scan.
let codeStamp: string | null = null;

function filesUnder(abs: string): string[] {
  const stat = statSync(abs, { throwIfNoEntry: false });
  if (!stat) return [];
  if (stat.isFile()) return [abs];
  return (readdirSync(abs, { recursive: true }) as string[]).map((n) => path.join(abs, n)).sort();
}

/**
 * Hash of every file the rendered pages depend on: ours, and the operator's theme folder and
 * Eleventy config function (CONTRACT §16) as this process loaded them, so a theme changed
 * while the server was down is not answered with pages of the old one. Computed once per process.
 */
export function codeHash(operator: Pick<Config, 'siteTheme' | 'siteEleventyConfig'>): string {
  if (codeStamp === null) {
    const hash = createHash('sha1');
    // The operator's files named by where they are (another theme is another site), ours by their place in the project.
    const theirs = [operator.siteTheme, operator.siteEleventyConfig].flatMap((p) => (p === null ? [] : [[path.dirname(p), path.basename(p), p] as const]));
    for (const [root, part, named = ''] of [...CODE_PARTS, ...theirs]) {
      hash.update(named).update('\u0000');
      for (const file of filesUnder(path.join(root, part))) {
        if (!statSync(file).isFile()) continue;
        hash.update(path.relative(root, file)).update('\u0000').update(readFileSync(file));
      }
    }
    codeStamp = hash.digest('hex');
  }
  return codeStamp;
}

function readSettingsNow(dataDir: string): Settings {
  try {
    return withDefaults(JSON.parse(readFileSync(settingsFile(dataDir), 'utf8')));
  } catch {
    return defaultSettings();
  }
}

function realVault(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return path.resolve(dir);
  }
}

/** The key the pages of this server would be built with now. */
export function currentKey(config: Config, settings: Settings = readSettingsNow(config.dataDir), base = BASE_TOKEN): GenerationKey {
  // Pages and kept records made under the vault's other line breaks (this process's: shared/obsidian-app.ts) are made again.
  const breaks = strictLineBreaksNow() ? ':strict-line-breaks' : '';
  return { vault: realVault(config.vaultDir), code: codeHash(config) + breaks, frame: frameSig(siteFrame(settings, config, base)) };
}

export async function writeGeneration(outRoot: string, state: Omit<GenerationState, 'format'>): Promise<void> {
  await writeFileAtomic(path.join(outRoot, STATE_FILE), v8().serialize({ format: FORMAT, ...state }));
}

/** A build whose files are all in place (the plan, its folder, its navigation fragment). */
export interface BuiltGeneration {
  plan: SitePlan;
  dir: string;
  nav: string;
}

/** Writes the record of `built`, unless the settings changed since its plan (the next pass re-renders: nothing stale remembered). */
export async function rememberGeneration(outRoot: string, key: GenerationKey, built: BuiltGeneration, digestsOf: (pages: PlannedPage[]) => string[], searchOf: (files: ReadonlySet<string>) => RememberedBase | null): Promise<void> {
  const { plan, dir, nav } = built;
  // The frame's own signature, as the key makes it (the pages' signatures hold the vault's publish.css too).
  if (key.frame !== frameSig(plan.ctx.frame)) return;
  const pages = [...plan.pages.values()];
  const digests = digestsOf(pages);
  await writeGeneration(outRoot, {
    dir: path.basename(dir),
    ...key,
    nav,
    pages: pages.map((p, i) => [p.address, p.file, p.type, digests[i]!]),
    notes: plan.ctx.model.visible.map((note) => [note.path, note.hash, note.stamp]),
    search: searchOf(new Set(pages.map((p) => p.file))),
  });
}

const SERVE_TYPES = new Set<unknown>(['html', 'xml', 'txt', 'json', 'file']);

/**
 * A file of a site folder as its outputs name one: a relative path of plain names (no `..`,
 * no absolute or empty part). What a generation's record names is read, swapped into and
 * deleted from the folder (stage.ts): anything else would reach outside it.
 */
export function isSiteFile(file: unknown): file is string {
  return typeof file === 'string' && file.length <= 4096 && !path.isAbsolute(file) && isWritableFile(file);
}

/** An output as the record must hold it: [address, file, type, signature]. */
function isPageRecord(page: unknown): boolean {
  if (!Array.isArray(page) || page.length !== 4) return false;
  const [address, file, type, sig] = page as unknown[];
  return typeof address === 'string' && address.startsWith('/') && isSiteFile(file) && SERVE_TYPES.has(type) && typeof sig === 'string';
}

const isNoteRecord = (note: unknown): boolean =>
  Array.isArray(note) &&
  (note.length === 2 || (note.length === 3 && (note[2] === null || (typeof note[2] === 'string' && note[2].length <= 64)))) &&
  isSiteFile(note[0]) &&
  isTextHash(note[1]);

/**
 * How many of the generation's published notes went, or are no longer published, since it
 * was built (the server was down): a note whose file still has the stamp it was read with is
 * as it was (one lstat, not a read: at 7,000 notes the reads and hashes were a quarter of a
 * restart); any other is read (never through a link) and, when its text changed, its
 * frontmatter asked. The old pages (its own, lists, feeds, search) show such a
 * note, and a visitor must not see them until the catch-up pass (CONTRACT §6: unpublished
 * equals missing; a reviewer's find). A note merely edited is served as it was meanwhile.
 */
export function retractedWhileDown(vaultDir: string, state: GenerationState): number {
  let retracted = 0;
  for (const [notePath, hash, stamp] of state.notes) {
    const file = path.join(vaultDir, ...notePath.split('/'));
    if (stamp && unchanged(file, stamp)) continue;
    let fd: number | null = null;
    try {
      fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      const stats = fstatSync(fd);
      if (!stats.isFile() || stats.size > MAX_NOTE_BYTES) {
        retracted++;
        continue;
      }
      const text = readFileSync(fd, 'utf8');
      if (hashText(text) !== hash && !isTrue(parseFrontmatter(text, notePath).data.publish)) retracted++;
    } catch {
      retracted++;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
  return retracted;
}

/** The file (not a link) still has the stamp it had when it was read. */
function unchanged(file: string, stamp: string): boolean {
  try {
    const stats = lstatSync(file, { throwIfNoEntry: false });
    return stats !== undefined && stats.isFile() && fileStamp(stats) === stamp;
  } catch {
    return false;
  }
}

/**
 * The remembered generation, when it exists on disk and matches `key`; else null. The data
 * directory is input too: a record that is not whole and well formed is no generation (the
 * site is built again), never a crash at every start or a path outside the folder.
 */
export function readGeneration(outRoot: string, key: GenerationKey): GenerationState | null {
  let state: GenerationState;
  try {
    state = v8().deserialize(readFileSync(path.join(outRoot, STATE_FILE))) as GenerationState;
  } catch {
    return null;
  }
  if (state?.format !== FORMAT || state.vault !== key.vault || state.code !== key.code || state.frame !== key.frame) return null;
  if (typeof state.dir !== 'string' || !/^gen-[\w-]+$/.test(state.dir)) return null;
  if (typeof state.nav !== 'string' || !Array.isArray(state.pages) || !state.pages.every(isPageRecord)) return null;
  if (!Array.isArray(state.notes) || !state.notes.every(isNoteRecord)) return null;
  // A base not as its pages hold it is none: the catch-up pass makes one.
  if (!isRememberedBase(state.search, new Set(state.pages.map((p) => p[1])))) state.search = null;
  // The folder itself, not a link to one elsewhere.
  return lstatSync(path.join(outRoot, state.dir), { throwIfNoEntry: false })?.isDirectory() ? state : null;
}

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isSearchFile = (file: unknown, files: ReadonlySet<string>) => isSiteFile(file) && file.startsWith(SEARCH_DIR + '/') && files.has(file);

/** A remembered search base whose notes are note paths with their hashes and whose files are the generation's own. */
function isRememberedBase(base: unknown, files: ReadonlySet<string>): base is RememberedBase {
  if (typeof base !== 'object' || base === null) return false;
  const { paths, hashes, avg, lengths, shards, patchGrowth } = base as Partial<RememberedBase>;
  return (
    Array.isArray(paths) && paths.every(isSiteFile) && new Set(paths).size === paths.length &&
    Array.isArray(hashes) && hashes.length === paths.length && hashes.every(isTextHash) &&
    Array.isArray(avg) && avg.every((n) => typeof n === 'number' && Number.isFinite(n)) &&
    Array.isArray(lengths) && lengths.length === 2 && isSearchFile(lengths[0], files) && isCount(lengths[1]) &&
    Array.isArray(shards) && shards.every((s) => Array.isArray(s) && s.length === 3 && typeof s[0] === 'string' && isSearchFile(s[1], files) && isCount(s[2])) &&
    isCount(patchGrowth)
  );
}

const isInternal = (address: string) => address.startsWith('/_service/');

/** The served addresses of a generation (what the public server's index holds). */
export function servedEntries(state: GenerationState): [string, ServedEntry][] {
  return state.pages.filter(([address]) => !isInternal(address)).map(([address, file, type]) => [address, { file, type }]);
}

/** Removes every generation folder under `outRoot` but those named in `keep`. */
export async function removeGenerations(outRoot: string, keep: (string | null)[]): Promise<void> {
  const names = await fs.readdir(outRoot).catch(() => [] as string[]);
  for (const name of names) {
    const abs = path.join(outRoot, name);
    if (name.startsWith('gen-') && !keep.includes(abs)) await fs.rm(abs, { recursive: true, force: true });
  }
}
