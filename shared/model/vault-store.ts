// The long-lived store of every note's record. A full load reads the vault once;
// `update(paths)` re-reads only the files named, so one save costs one parse.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { createdFile } from '../created-store.ts';
import { log } from '../log.ts';
import { isNotePath, type VaultPath } from '../vault-path.ts';
import { mapLimit, VaultEntries } from '../vault-walk.ts';
import { gitFirstAdded } from './git-created.ts';
import { buildRecord, type NoteRecord } from './note-record.ts';

export interface VaultStoreOptions {
  vaultDir: string;
  /** The data directory, for created.json; null reads no creation memory. */
  dataDir: string | null;
  /** Absolute folders never read (an in-vault data directory). */
  skipDirs?: string[];
  /** Read creation times from git's history at full load (default true). */
  useGit?: boolean;
}

export class VaultStore {
  readonly records = new Map<VaultPath, NoteRecord>();
  private created: Record<string, number> = {};
  private createdMtime = -1;
  private git = new Map<string, number>();
  /** Bumped on every change; derived views compare it to know they are stale. */
  version = 0;

  private readonly entries: VaultEntries;

  constructor(private readonly options: VaultStoreOptions) {
    this.entries = new VaultEntries(options.vaultDir, options.skipDirs);
  }

  get vaultDir(): string {
    return this.options.vaultDir;
  }

  /** Reads every note from scratch. */
  async loadAll(): Promise<void> {
    const [paths, git] = await Promise.all([
      this.entries.notes(),
      this.options.useGit === false ? Promise.resolve(new Map<string, number>()) : gitFirstAdded(this.options.vaultDir),
    ]);
    this.git = git;
    await this.refreshCreated(true);
    this.records.clear();
    const records = await mapLimit(paths, 32, (p) => this.read(p, true));
    for (const r of records) if (r) this.records.set(r.path, r);
    this.version++;
  }

  /** Creation times learnt from git (vault path → ms), for created.json. */
  gitCreated(): ReadonlyMap<string, number> {
    return this.git;
  }

  /** Re-reads the named paths (a vanished one is dropped); returns those whose record changed. */
  async update(paths: Iterable<string>): Promise<Set<VaultPath>> {
    await this.refreshCreated(false);
    const changed = new Set<VaultPath>();
    for (const raw of paths) {
      const p = raw as VaultPath;
      if (!isNotePath(p) || !this.entries.admits(p)) continue;
      const next = await this.read(p);
      const before = this.records.get(p);
      if (!next) {
        if (before) {
          this.records.delete(p);
          changed.add(p);
        }
        continue;
      }
      if (before && before.hash === next.hash && before.date.ms === next.date.ms) continue;
      this.records.set(p, next);
      changed.add(p);
    }
    if (changed.size) this.version++;
    return changed;
  }

  /** Notes under a folder (for a folder that vanished or appeared as a whole). */
  pathsUnder(folder: string): VaultPath[] {
    const prefix = folder.endsWith('/') ? folder : folder + '/';
    return [...this.records.keys()].filter((p) => p.startsWith(prefix));
  }

  /**
   * Reads one note. `known` says the walk already saw a regular file there;
   * otherwise it is checked first: a path with a symbolic link anywhere on it is not
   * a note (issue 9). The file's own time is only asked for when nothing else dates
   * the note (spec D.2: it comes last).
   */
  private async read(p: VaultPath, known = false): Promise<NoteRecord | null> {
    const abs = path.join(this.options.vaultDir, ...p.split('/'));
    try {
      if (!known && !(await this.entries.stat(p))?.isFile()) return null;
      const text = await fs.readFile(abs, 'utf8');
      const record = buildRecord({ path: p, text, createdMs: this.createdOf(p), fileMs: 0 });
      if (record.date.source === 'file') {
        const stat = await fs.lstat(abs);
        record.date = { ms: stat.birthtimeMs > 0 ? Math.min(stat.birthtimeMs, stat.mtimeMs) : stat.mtimeMs, source: 'file' };
      }
      return record;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') log.warnOnce(`read:${p}:${code}`, `could not read ${p}: ${code ?? (err as Error).message}`);
      return null;
    }
  }

  /** spec D.2: git's first commit adding the file, else the remembered first meeting. */
  private createdOf(p: VaultPath): number | null {
    const fromGit = this.git.get(p);
    const remembered = this.created[p];
    if (fromGit !== undefined && remembered !== undefined) return Math.min(fromGit, remembered);
    return fromGit ?? remembered ?? null;
  }

  private async refreshCreated(force: boolean): Promise<void> {
    if (this.options.dataDir === null) return;
    const file = createdFile(this.options.dataDir);
    let mtime: number;
    try {
      mtime = (await fs.stat(file)).mtimeMs;
    } catch {
      this.created = {};
      return;
    }
    if (!force && mtime === this.createdMtime) return;
    try {
      const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
      this.created = parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
      this.createdMtime = mtime;
    } catch {
      /* mid-write or malformed: keep what we had */
    }
  }
}
