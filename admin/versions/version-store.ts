// The local version store (spec 2.2, 8, 9): before a note is overwritten, its prior
// bytes are kept as versions/<sha1 of note path>/<at>.md, listed in index.json.
//
// The merge window (spec 8) thins only a run of this server's own saves of one text
// lineage: the store remembers the hash and mtime of what this server last wrote per
// note (persisted in index.json, so it holds across restarts); text on disk that
// differs from that, whoever put it there, is foreign and always kept.
//
// The version file is the durable record: it is fsynced (with its folder) before the
// note is replaced. index.json is written atomically right after, off the save's
// critical path; should a crash fall between the two, loading finds the unlisted
// file and lists it again (its reason then reads `Earlier save`). Text is never lost.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { commitTemp, fsyncDir, isTempFile, readJson, writeJsonAtomic, writeTempDurableQuiet } from '../../shared/atomic-write.ts';
import { KeyedMutex } from '../../shared/keyed-mutex.ts';
import { readVaultFile } from '../../shared/vault-read.ts';
import { log } from '../../shared/log.ts';
import { dataPath, DATA_FILES, type DataPath } from '../../shared/data-path.ts';
import { DEFAULT_LIMITS, VERSION_REASONS, type KeepOutcome, type KeepRequest, type OwnWrite, type VersionEntry, type VersionIndex, type VersionLimits, type VersionReason } from './version-types.ts';

export * from './version-types.ts';

export function versionFolderName(notePath: string): string {
  return createHash('sha1').update(notePath).digest('hex');
}

export function bytesHash(data: Uint8Array): string {
  return createHash('sha1').update(data).digest('hex');
}

/** How long a run of saves waits before the remembered own write is persisted. */
const OWN_WRITE_PERSIST_MS = 1000;

/** A version's time as its name holds it: whole milliseconds a Date can hold. */
const isTime = (at: string): boolean => /^\d{1,16}$/.test(at) && Number(at) <= 8.64e15;

/** An index entry as written, or null when it is not one (a garbled index.json is input too). */
function wellFormed(v: unknown): VersionEntry | null {
  if (!v || typeof v !== 'object') return null;
  const e = v as Partial<VersionEntry>;
  if (typeof e.at !== 'string' || !isTime(e.at)) return null;
  const when = new Date(Number(e.at)).toISOString();
  return {
    at: e.at,
    replacedAt: typeof e.replacedAt === 'string' ? e.replacedAt : when,
    savedAt: typeof e.savedAt === 'string' ? e.savedAt : when,
    size: 0,
    reason: VERSION_REASONS.includes(e.reason as VersionReason) ? (e.reason as VersionReason) : 'Earlier save',
  };
}

export class VersionStore {
  private readonly root: DataPath;
  private readonly limits: VersionLimits;
  private readonly mutex = new KeyedMutex();
  private indexes = new Map<string, VersionIndex>();
  /** Per version folder: what this server last wrote to that note (also for notes without versions yet). */
  private ownWrites = new Map<string, OwnWrite>();
  private persistTimers = new Map<string, ReturnType<typeof setTimeout>>();
  private totalBytes = 0;
  private loading: Promise<void> | null = null;

  constructor(dataDir: string, limits: Partial<VersionLimits> = {}, private readonly now: () => number = Date.now) {
    this.root = dataPath(dataDir, DATA_FILES.versions);
    this.limits = { ...DEFAULT_LIMITS, ...limits };
  }

  /** Reads every index once (at boot); afterwards the running total is kept in memory. */
  load(): Promise<void> {
    this.loading ??= this.scan();
    return this.loading;
  }

  private async scan(): Promise<void> {
    let folders: string[] = [];
    try {
      folders = await fs.readdir(this.root);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    for (const folder of folders) {
      if (!/^[0-9a-f]{40}$/.test(folder)) continue;
      try {
        const index = await this.reconcile(folder);
        if (!index) continue;
        this.indexes.set(folder, index);
        if (index.lastWrite) this.ownWrites.set(folder, index.lastWrite);
        for (const v of index.versions) this.totalBytes += v.size;
      } catch (err) {
        log.warn(`version folder ${folder} is unreadable and was skipped: ${(err as Error).message}`);
      }
    }
  }

  /** index.json as written, plus version files it does not list yet, minus files gone. */
  private async reconcile(folder: string): Promise<VersionIndex | null> {
    let index: VersionIndex | null = null;
    try {
      index = await readJson<VersionIndex | null>(path.join(this.root, folder, 'index.json'), null);
    } catch {
      index = null;
    }
    if (!index || !Array.isArray(index.versions)) index = { path: '', versions: [] };
    const names = await fs.readdir(path.join(this.root, folder));
    for (const name of names.filter(isTempFile)) await fs.rm(path.join(this.root, folder, name), { force: true });
    const files = names.filter((f) => /^\d+\.md$/.test(f) && isTime(f.slice(0, -3)));
    // Sizes are the files' own: the store's running total (and so its eviction) rests on them,
    // and one garbled size in an index once had every note's history evicted. Only regular
    // files count: a link or a FIFO in a version's place is left out (never read), alone.
    const onDisk = new Map<string, number>();
    for (const f of files) {
      const stats = await fs.lstat(path.join(this.root, folder, f)).catch(() => null);
      if (stats?.isFile()) onDisk.set(f.slice(0, -3), stats.size);
      else log.warn(`version folder ${folder}: ${f} is not a regular file and was left out`);
    }
    const listed = new Set<string>();
    const kept: VersionEntry[] = [];
    let changed = false;
    for (const v of index.versions as unknown[]) {
      const entry = wellFormed(v);
      if (!entry || listed.has(entry.at) || !onDisk.has(entry.at)) {
        changed = true;
        continue;
      }
      listed.add(entry.at);
      const size = onDisk.get(entry.at)!;
      if ((v as VersionEntry).size !== size) changed = true;
      kept.push({ ...entry, size });
    }
    index.versions = kept;
    for (const [at, size] of onDisk) {
      if (listed.has(at)) continue;
      const when = new Date(Number(at)).toISOString();
      index.versions.push({ at, replacedAt: when, savedAt: when, size, reason: 'Earlier save' });
      changed = true;
    }
    if (index.versions.length === 0) return null;
    index.versions.sort((a, b) => Number(a.at) - Number(b.at));
    if (changed) {
      log.warn(`version folder ${folder}: index.json re-listed from the version files`);
      await writeJsonAtomic(path.join(this.root, folder, 'index.json'), index);
    }
    return index;
  }

  get storeBytes(): number {
    return this.totalBytes;
  }

  private folder(hash: string): string {
    return path.join(this.root, hash);
  }

  private async saveIndex(hash: string, index: VersionIndex): Promise<void> {
    if (index.versions.length === 0) {
      this.indexes.delete(hash);
      await fs.rm(this.folder(hash), { recursive: true, force: true });
      return;
    }
    this.indexes.set(hash, index);
    const lastWrite = this.ownWrites.get(hash);
    if (lastWrite) index.lastWrite = lastWrite;
    else delete index.lastWrite;
    await writeJsonAtomic(path.join(this.folder(hash), 'index.json'), index, { mkdir: true });
  }

  /** True when `data` at `mtimeMs` is exactly what this server last wrote to the note. */
  private isOwnWrite(hash: string, data: Uint8Array, mtimeMs: number): boolean {
    const own = this.ownWrites.get(hash);
    return own !== undefined && own.mtimeMs === mtimeMs && own.sha1 === bytesHash(data);
  }

  /**
   * The write path tells the store what it just put on disk. Remembered at once and
   * persisted (in the note's index.json, when it has one) once the run of saves pauses.
   */
  recordWrite(notePath: string, data: Uint8Array, mtimeMs: number): void {
    const hash = versionFolderName(notePath);
    this.ownWrites.set(hash, { sha1: bytesHash(data), mtimeMs });
    if (!this.indexes.has(hash)) return;
    clearTimeout(this.persistTimers.get(hash));
    const timer = setTimeout(() => this.persistOwnWrite(hash), OWN_WRITE_PERSIST_MS);
    timer.unref?.();
    this.persistTimers.set(hash, timer);
  }

  private persistOwnWrite(hash: string): void {
    this.persistTimers.delete(hash);
    this.afterSave(hash, async () => {
      const index = this.indexes.get(hash);
      if (index) await this.saveIndex(hash, index);
    });
  }

  /** Keeps `text` as the newest version of `notePath`, applying the spec's rules. */
  async keep(notePath: string, request: KeepRequest): Promise<KeepOutcome> {
    await this.load();
    const size = request.data.byteLength;
    if (size > this.limits.maxNoteBytes && !request.anySize) return 'too-large';
    // An empty note holds nothing to lose (a new note's first save would list a `0 B` version).
    if (size === 0) return 'empty';
    const hash = versionFolderName(notePath);
    const outcome = await this.mutex.run(hash, async () => {
      const now = this.now();
      const index = this.indexes.get(hash) ?? { path: notePath, versions: [] };
      index.path = notePath;
      const newest = index.versions[index.versions.length - 1];
      // spec 8: two saves closer than 5 minutes keep only the older version: a text this
      // server saved itself within 5 minutes of the last kept version (of any origin) is
      // not kept; every other text is (spec 9). A restore, a link rewrite and Keep my
      // version always keep what they replace.
      if (
        request.reason === 'Earlier save' &&
        !request.overwrite &&
        newest &&
        now - Date.parse(newest.replacedAt) < this.limits.mergeWindowMs &&
        this.isOwnWrite(hash, request.data, request.savedAtMs)
      ) {
        return 'merged' as const;
      }
      const at = Math.max(now, newest ? Number(newest.at) + 1 : 0);
      const folder = this.folder(hash);
      const first = index.versions.length === 0;
      if (first) await fs.mkdir(folder, { recursive: true, mode: 0o700 });
      // The durable part, before the note may be replaced: the text, and its name.
      // Temp file + rename: a version file that exists is whole (a crash mid-write leaves
      // only a temp file, which loading sweeps away, never a torn version to list).
      const target = path.join(folder, `${at}.md`);
      await commitTemp(await writeTempDurableQuiet(target, request.data), target);
      if (first) await fsyncDir(this.root);
      index.versions.push({
        at: String(at),
        replacedAt: new Date(at).toISOString(),
        savedAt: new Date(request.savedAtMs).toISOString(),
        size,
        reason: request.reason,
      });
      const dropped = index.versions.splice(0, Math.max(0, index.versions.length - this.limits.maxPerNote));
      this.indexes.set(hash, index);
      this.totalBytes += size;
      // The listing follows at once, in this note's queue; a dropped file goes only
      // after the index that no longer names it is on disk.
      this.afterSave(hash, async () => {
        await this.saveIndex(hash, index);
        for (const old of dropped) await this.removeFile(hash, old, false);
      });
      for (const old of dropped) this.totalBytes -= old.size;
      return 'kept' as const;
    });
    if (outcome === 'kept' && this.totalBytes > this.limits.maxStoreBytes) await this.evictOldest();
    return outcome;
  }

  private async removeFile(hash: string, entry: VersionEntry, count = true): Promise<void> {
    if (count) this.totalBytes -= entry.size;
    await fs.rm(path.join(this.folder(hash), `${entry.at}.md`), { force: true });
  }

  private pending = new Set<Promise<void>>();
  /** Told once a note's versions have moved (outside-moves.ts: where that note went is known). */
  onMoved: (fromPath: string, toPath: string) => void = () => {};

  /** Runs `task` next in this note's queue without making the caller wait for it. */
  private afterSave(hash: string, task: () => Promise<void>): void {
    const run = this.mutex.run(hash, task).catch((err) => log.error(`could not write a version index: ${(err as Error).message}`));
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  /** Waits for index writes still under way (at shutdown, and in tests). */
  async flush(): Promise<void> {
    for (const [hash, timer] of [...this.persistTimers]) {
      clearTimeout(timer);
      this.persistOwnWrite(hash);
    }
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  /** Holds the whole store under its cap by dropping the oldest version anywhere. */
  private async evictOldest(): Promise<void> {
    while (this.totalBytes > this.limits.maxStoreBytes) {
      let oldestHash: string | null = null;
      let oldestAt = Infinity;
      for (const [hash, index] of this.indexes) {
        const first = index.versions[0];
        if (first && Number(first.at) < oldestAt) {
          oldestAt = Number(first.at);
          oldestHash = hash;
        }
      }
      if (oldestHash === null) return;
      const hash = oldestHash;
      await this.mutex.run(hash, async () => {
        const index = this.indexes.get(hash);
        const dropped = index?.versions.shift();
        if (!index || !dropped) return;
        await this.removeFile(hash, dropped);
        await this.saveIndex(hash, index);
      });
    }
  }

  /** Newest first. */
  async list(notePath: string): Promise<VersionEntry[]> {
    await this.load();
    const index = this.indexes.get(versionFolderName(notePath));
    return index ? [...index.versions].reverse() : [];
  }

  /** The notes that have versions here, by path. */
  async notePaths(): Promise<string[]> {
    await this.load();
    return [...this.indexes.values()].map((index) => index.path).filter((p) => this.hasVersions(p));
  }

  hasVersions(notePath: string): boolean {
    return (this.indexes.get(versionFolderName(notePath))?.versions.length ?? 0) > 0;
  }

  /** What this server last wrote to the note, if it did. */
  lastWriteOf(notePath: string): OwnWrite | undefined {
    return this.ownWrites.get(versionFolderName(notePath));
  }

  /** A version's bytes, exactly as the note held them (what a restore writes back). */
  async readBytes(notePath: string, at: string): Promise<Buffer | null> {
    await this.load();
    const hash = versionFolderName(notePath);
    const index = this.indexes.get(hash);
    if (!index?.versions.some((v) => v.at === at)) return null;
    // Never through a link, never blocking on a FIFO: a version's place is input too.
    return readVaultFile(this.root, `${hash}/${at}.md`);
  }

  /** A version as text, for reading it in the app. */
  async read(notePath: string, at: string): Promise<string | null> {
    return (await this.readBytes(notePath, at))?.toString('utf8') ?? null;
  }

  /**
   * Moves a note's versions with it (a rename, into the bin and back: trash.ts); merges when
   * the target already has some. Unless `live`, what the file at `fromPath` last was stays
   * with the target's own (a trashed note's history handed to the live note at its path).
   */
  async move(fromPath: string, toPath: string, live = true): Promise<void> {
    await this.load();
    const from = versionFolderName(fromPath);
    const to = versionFolderName(toPath);
    if (from === to) return;
    let moved = false;
    await this.mutex.runAll([from, to], async () => {
      // The live note's move (a rename) takes what this server last wrote to it along.
      if (live) {
        const own = this.ownWrites.get(from);
        this.ownWrites.delete(from);
        if (own) this.ownWrites.set(to, own);
        else this.ownWrites.delete(to);
      }
      const source = this.indexes.get(from);
      if (!source || source.versions.length === 0) return;
      moved = true;
      const target = this.indexes.get(to);
      if (!target) {
        await fs.rm(this.folder(to), { recursive: true, force: true });
        // One rename moves them all: a crash leaves them under the old path or the new.
        await fs.rename(this.folder(from), this.folder(to));
        await fsyncDir(this.root);
        this.indexes.delete(from);
        await this.saveIndex(to, { path: toPath, versions: source.versions });
        return;
      }
      await fs.mkdir(this.folder(to), { recursive: true, mode: 0o700 });
      const taken = new Set(target.versions.map((v) => v.at));
      for (const v of source.versions) {
        let at = Number(v.at);
        while (taken.has(String(at))) at++;
        taken.add(String(at));
        await fs.rename(path.join(this.folder(from), `${v.at}.md`), path.join(this.folder(to), `${at}.md`));
        target.versions.push({ ...v, at: String(at) });
      }
      target.versions.sort((a, b) => Number(a.at) - Number(b.at));
      const overflow = target.versions.splice(0, Math.max(0, target.versions.length - this.limits.maxPerNote));
      for (const dropped of overflow) await this.removeFile(to, dropped);
      target.path = toPath;
      await this.saveIndex(to, target);
      // An emptied source index goes with its folder (saveIndex).
      source.versions = [];
      await this.saveIndex(from, source);
    });
    if (moved) this.onMoved(fromPath, toPath);
  }

  /** Erases a note's versions. */
  async erase(notePath: string): Promise<void> {
    await this.load();
    const hash = versionFolderName(notePath);
    await this.mutex.run(hash, async () => {
      const index = this.indexes.get(hash);
      if (index) for (const v of index.versions) this.totalBytes -= v.size;
      this.indexes.delete(hash);
      this.ownWrites.delete(hash);
      await fs.rm(this.folder(hash), { recursive: true, force: true });
    });
  }
}
