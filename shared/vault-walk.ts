// The one walker of the vault and the one rule for what a vault entry is (CONTRACT
// §11). The tree, the model scan, the attachment index, the temp sweep and
// the watcher all come through here. A symbolic link is never followed and never
// listed, so a link loop or a link leading out cannot reach any of them.
import type { Dirent, Stats } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { DATA_DIR_MARKER, isNotePath, isSkippedName, toVaultPath, type VaultPath } from './vault-path.ts';

export type EntryKind = 'note' | 'folder' | 'attachment';

export interface VaultEntry {
  path: VaultPath;
  kind: EntryKind;
  /** lstat of the entry, when the walk was asked for it. */
  stats: Stats | null;
}

// The entry rule lives beside the input parser, which refuses what the walker skips.
export { isSkippedName };

export { DATA_DIR_MARKER };

export interface WalkOptions {
  /** Whether to go into the folder `rel` (root-relative, `/`-separated). */
  enter: (rel: string) => boolean;
  /** Whether to keep the file or folder `rel`. */
  keep: (rel: string, entry: Dirent) => boolean;
  /** lstat each kept entry. */
  stat?: boolean;
  /** Told of each folder (`''`, the root, included) before it is read: a watch set here misses nothing made after the read. */
  reading?: (rel: string) => void;
}

export interface WalkedFile {
  rel: string;
  abs: string;
  dirent: Dirent;
  stats: Stats | null;
}

/**
 * Walks `root` depth first, names sorted, folders in parallel. Only real files and
 * folders are seen: `readdir` reports a link as a link, and a link is not entered.
 */
export async function walkFiles(root: string, options: WalkOptions, from = ''): Promise<WalkedFile[]> {
  // Joined by hand: readdir's names hold no separator and are never `.` or `..`, and
  // path.join per entry was most of what a 30,000-note walk allocated.
  const base = path.join(root, '/');
  async function walk(rel: string): Promise<WalkedFile[]> {
    let entries: Dirent[];
    options.reading?.(rel);
    try {
      entries = await fs.readdir(rel ? path.join(root, rel) : root, { withFileTypes: true });
    } catch {
      return [];
    }
    // Another server's data directory: nothing in it is the vault's.
    if (rel !== '' && entries.some((e) => e.name === DATA_DIR_MARKER)) return [];
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const parts = await Promise.all(
      entries.map(async (dirent): Promise<WalkedFile[]> => {
        const isDir = dirent.isDirectory();
        if (!isDir && !dirent.isFile()) return [];
        const childRel = rel ? `${rel}/${dirent.name}` : dirent.name;
        const abs = base + childRel;
        const out: WalkedFile[] = [];
        if (options.keep(childRel, dirent)) {
          const stats = options.stat ? await fs.lstat(abs).catch(() => null) : null;
          if (!options.stat || stats) out.push({ rel: childRel, abs, dirent, stats });
        }
        if (isDir && options.enter(childRel)) for (const inner of await walk(childRel)) out.push(inner);
        return out;
      }),
    );
    return parts.flat();
  }
  return walk(from);
}

/** Whether the folder `dir` holds a data directory's marker anywhere below it (links not entered; a file holds none). */
export async function holdsDataDirMarker(dir: string): Promise<boolean> {
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => null);
  if (!entries) return false;
  for (const entry of entries) {
    if (entry.name === DATA_DIR_MARKER && entry.isFile()) return true;
    if (entry.isDirectory() && (await holdsDataDirMarker(path.join(dir, entry.name)))) return true;
  }
  return false;
}

/**
 * The entries of one vault: every file and folder whose path has no skipped name and
 * does not lie in a skipped folder (an in-vault data directory), reached without
 * passing through a symbolic link.
 */
export class VaultEntries {
  /** Skipped folders, vault-relative with `/`. */
  private readonly skipped: string[];

  constructor(
    readonly dir: string,
    skipDirs: string[] = [],
  ) {
    this.skipped = skipDirs
      .map((d) => toVaultPath(path.relative(dir, d)))
      .filter((rel) => rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel));
  }

  /** The entry rule on a vault-relative path, by its names alone. */
  admits(p: string): boolean {
    if (p === '') return false;
    if (p.split('/').some(isSkippedName)) return false;
    return !this.skipped.some((s) => p === s || p.startsWith(s + '/'));
  }

  /**
   * lstat of the entry at `p`, or null when there is none: not admitted, missing, or
   * some component on the way (the last included) is a symbolic link.
   */
  async stat(p: string): Promise<Stats | null> {
    if (!this.admits(p)) return null;
    let cur = this.dir;
    let stats: Stats | null = null;
    for (const segment of p.split('/')) {
      cur = path.join(cur, segment);
      stats = await fs.lstat(cur).catch(() => null);
      if (!stats || stats.isSymbolicLink()) return null;
      if (stats.isDirectory() && (await fs.lstat(path.join(cur, DATA_DIR_MARKER)).then(() => true, () => false))) return null;
    }
    return stats;
  }

  /**
   * Every entry below `from` (a vault-relative folder, default the root), in walk order;
   * `reading` is told of each folder before it is read (`from` itself included).
   */
  async list(options: { from?: string; stat?: boolean; reading?: (rel: string) => void } = {}): Promise<VaultEntry[]> {
    const admitted = (rel: string) => this.admits(rel);
    const found = await walkFiles(this.dir, { enter: admitted, keep: admitted, stat: options.stat, reading: options.reading }, options.from ?? '');
    return found.map(({ rel, dirent, stats }) => ({
      path: rel as VaultPath,
      kind: dirent.isDirectory() ? 'folder' : isNotePath(dirent.name) ? 'note' : 'attachment',
      stats,
    }));
  }

  /**
   * Folders of the vault that are git repositories of their own (a `.git` folder, or a
   * submodule's `.git` file): the vault's repository records only a gitlink for them,
   * so their notes are never in its commits. Outermost only, sorted. Searched wherever git
   * stages, hidden folders and node_modules included (a plugin's checkout under
   * `.obsidian/` with no commit yet failed every backup), the trash and `skipDirs` apart.
   */
  async nestedRepositories(): Promise<VaultPath[]> {
    const staged = (rel: string) => rel !== '.trash' && !rel.split('/').includes('.git') && !this.skipped.some((s) => rel === s || rel.startsWith(s + '/'));
    const marks = await walkFiles(this.dir, {
      enter: staged,
      keep: (rel, d) => d.name === '.git' && rel !== '.git' && (d.isDirectory() || d.isFile()),
    });
    const found = marks.map((m) => m.rel.slice(0, -'/.git'.length)).sort();
    return found.filter((rel, i) => !found.slice(0, i).some((outer) => rel.startsWith(outer + '/'))) as VaultPath[];
  }

  /** Every note path of the vault, sorted. */
  async notes(): Promise<VaultPath[]> {
    const admitted = (rel: string) => this.admits(rel);
    const found = await walkFiles(this.dir, { enter: admitted, keep: (rel, d) => d.isFile() && isNotePath(d.name) && admitted(rel) });
    return found.map((f) => f.rel as VaultPath).sort();
  }
}

/** Runs `task` over `items` with at most `limit` running at once. */
export async function mapLimit<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}
