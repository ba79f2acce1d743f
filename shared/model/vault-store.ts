// The long-lived store of every note's record. A full load reads the vault once (or
// takes the records a shared full build read, `adopt`); `update(paths)` re-reads only
// the files named, so one save costs one parse.
import { lstatSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { createdFile } from '../created-store.ts';
import { log } from '../log.ts';
import { isNotePath, type VaultPath } from '../vault-path.ts';
import { VaultEntries } from '../vault-walk.ts';
import { postDate } from '../note/dates.ts';
import { gitFirstAdded } from './git-created.ts';
import { buildRecord, type NoteRecord } from './note-record.ts';

export interface VaultStoreOptions {
  vaultDir: string;
  /** The data directory, for created.json; null reads no creation memory. */
  dataDir: string | null;
  /** Absolute folders never read (an in-vault data directory). */
  skipDirs?: string[];
  /** Read creation times from git's history when a note needs one (default true). */
  useGit?: boolean;
}

export class VaultStore {
  readonly records = new Map<VaultPath, NoteRecord>();
  private created: Record<string, number> = {};
  private createdMtime = -1;
  /** Creation times from git's history; read only once a note's date needs one (spec D.2). */
  private git: Map<string, number> | null = null;
  private gitRead: Promise<Map<string, number>> | null = null;
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
    const paths = await this.entries.notes();
    await this.prepareReads(true);
    this.adopt(this.readShare(paths));
    await this.settleDates();
  }

  /** Loads created.json before a batch of `readShare` calls (`fresh`: a full load reads it again). */
  async prepareReads(fresh = false): Promise<void> {
    await this.refreshCreated(fresh);
  }

  /**
   * Parses notes the walk found (regular files reached without a link). The reads are
   * synchronous: a build reads thousands of small files, and a promise each costs more
   * than the read. Dates that need git's history are settled by `settleDates`.
   */
  readShare(paths: Iterable<VaultPath>): NoteRecord[] {
    const out: NoteRecord[] = [];
    for (const p of paths) {
      const record = this.readNow(p);
      if (record) out.push(record);
    }
    return out;
  }

  /** Takes these records as the whole vault. */
  adopt(records: Iterable<NoteRecord>): void {
    this.records.clear();
    for (const r of records) this.records.set(r.path, r);
    this.version++;
  }

  /**
   * spec D.2: a note dated by its creation reads git's first commit adding it. Git's
   * history is read the first time a note needs it (never, when every note carries a
   * date); returns the notes whose date changed.
   */
  async settleDates(records: Iterable<NoteRecord> = this.records.values()): Promise<NoteRecord[]> {
    const undated = [...records].filter((r) => r.date.source === 'created' || r.date.source === 'file');
    if (undated.length === 0 || this.options.useGit === false) return [];
    const git = await this.gitTimes();
    const changed: NoteRecord[] = [];
    for (const record of undated) {
      if (!git.has(record.path)) continue;
      const before = record.date.ms;
      this.date(record);
      if (record.date.ms !== before) changed.push(record);
    }
    return changed;
  }

  private gitTimes(): Promise<Map<string, number>> {
    this.gitRead ??= gitFirstAdded(this.options.vaultDir).then((git) => (this.git = git));
    return this.gitRead;
  }

  /** Creation times learnt from git (vault path → ms), for created.json; empty until git was read. */
  gitCreated(): ReadonlyMap<string, number> {
    return this.git ?? new Map();
  }

  /** Re-reads the named paths (a vanished one is dropped); returns those whose record changed. */
  async update(paths: Iterable<string>): Promise<Set<VaultPath>> {
    await this.refreshCreated(false);
    const changed = new Set<VaultPath>();
    for (const raw of paths) {
      const p = raw as VaultPath;
      if (!isNotePath(p) || !this.entries.admits(p)) continue;
      const next = (await this.entries.stat(p))?.isFile() ? this.readNow(p) : null;
      if (next) await this.settleDates([next]);
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
   * Reads one note the walk (or a check of every segment, issue 9: a path with a
   * symbolic link on it is not a note) found to be a regular file. The file's own time
   * is only asked for when nothing else dates the note (spec D.2: it comes last).
   */
  private readNow(p: VaultPath): NoteRecord | null {
    try {
      const text = readFileSync(this.abs(p), 'utf8');
      return this.date(buildRecord({ path: p, text, createdMs: this.createdOf(p), fileMs: 0 }));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') log.warnOnce(`read:${p}:${code}`, `could not read ${p}: ${code ?? (err as Error).message}`);
      return null;
    }
  }

  private abs(p: VaultPath): string {
    return path.join(this.options.vaultDir, ...p.split('/'));
  }

  /** Dates a record whose date is not its own (created memory, git, else the file's time). */
  private date(record: NoteRecord): NoteRecord {
    if (record.date.source !== 'created' && record.date.source !== 'file') return record;
    record.date = postDate({ data: record.data, raw: record.raw, createdMs: this.createdOf(record.path), fileMs: 0 });
    if (record.date.source === 'file') {
      const stat = lstatSync(this.abs(record.path), { throwIfNoEntry: false });
      const ms = stat ? (stat.birthtimeMs > 0 ? Math.min(stat.birthtimeMs, stat.mtimeMs) : stat.mtimeMs) : 0;
      record.date = { ms, source: 'file' };
    }
    return record;
  }

  /** spec D.2: git's first commit adding the file, else the remembered first meeting. */
  private createdOf(p: VaultPath): number | null {
    const fromGit = this.git?.get(p);
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
