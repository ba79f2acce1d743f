// Reads notes into records: one parse per file, dated by spec D.2 (frontmatter, id,
// the remembered first meeting in created.json or git's first commit adding the file,
// else the file's own time). It keeps no records of its own: the one vault model
// (VaultStore) holds them, and the build thread of a full build reads its share with it.
import { closeSync, constants, fstatSync, lstatSync, openSync, readFileSync, readSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { createdFile } from '../created-store.ts';
import { fileStamp, stampSettled } from '../file-stamp.ts';
import { hashText } from '../note/text-hash.ts';
import { log } from '../log.ts';
import type { VaultPath } from '../vault-path.ts';
import { fileTime, frontmatterUpdated, postDate } from '../note/dates.ts';
import { gitFileTimes, type GitFileTimes } from './git-created.ts';
import { buildRecord, restoreRecord, type KeptRecord, type NoteRecord } from './note-record.ts';

/**
 * The largest note the site reads (the admin API takes no bigger body). A note is parsed,
 * rendered and held whole: one of 121 MB, arriving by a pull, had the build process run out
 * of memory again and again with its heap doubled up to 5 GB, and the site go unbuilt.
 */
export const MAX_NOTE_BYTES = 16 * 1024 * 1024;

export interface NoteReaderOptions {
  vaultDir: string;
  /** The data directory, for created.json; null reads no creation memory. */
  dataDir: string | null;
  /** Read creation times from git's history when a note needs one (default true). */
  useGit?: boolean;
}

/** Whether a record's date still stands with this remembered creation time (its own dates always do). */
const sameDating = (known: NoteRecord, createdMs: number | null): boolean =>
  known.date.source === 'created' ? known.date.ms === createdMs : known.date.source === 'file' ? createdMs === null : true;

/** A modification this soon after a file's creation is part of making it, not a change. */
const CHANGE_SLACK_MS = 60_000;

export class NoteReader {
  private created: Record<string, number> = {};
  private createdMtime = -1;
  /** What git's history says of each file (spec D.2), once read; read once per reader. */
  private git: GitFileTimes | null = null;
  private gitRead: Promise<GitFileTimes> | null = null;
  /** When the history was read: a file changed after it was changed since its last commit. */
  private gitReadAt = 0;

  /**
   * Published notes read now keep their search text (false during a first build whose search
   * base is made later, at a quiet moment, from each note again: site/build/full-build.ts).
   */
  searchTexts = true;

  constructor(private readonly options: NoteReaderOptions) {}

  /** Loads created.json before a batch of reads (`fresh`: read it again even if unchanged). */
  async prepare(fresh = false): Promise<void> {
    if (this.options.dataDir === null) return;
    const file = createdFile(this.options.dataDir);
    // Read synchronously, like the notes: one small file, and the build thread then
    // never loads Node's fs/promises (3 ms of its start, with the build's flags).
    let mtime: number;
    try {
      mtime = statSync(file).mtimeMs;
    } catch {
      this.created = {};
      return;
    }
    if (!fresh && mtime === this.createdMtime) return;
    try {
      const parsed = JSON.parse(readFileSync(file, 'utf8')) as unknown;
      this.created = parsed && typeof parsed === 'object' ? (parsed as Record<string, number>) : {};
      this.createdMtime = mtime;
    } catch {
      /* mid-write or malformed: keep what we had */
    }
  }

  /**
   * Parses notes the walk found (regular files reached without a link). The reads are
   * synchronous: a build reads thousands of small files, and a promise each costs more
   * than the read. Dates that need git's history are settled by `settleDates`.
   */
  readMany(paths: Iterable<VaultPath>, remembered: ReadonlyMap<string, KeptRecord> | null = null): NoteRecord[] {
    const out: NoteRecord[] = [];
    for (const p of paths) {
      const kept = remembered?.get(p);
      const record = (kept && this.restore(p, kept)) || this.read(p);
      if (record) out.push(record);
    }
    return out;
  }

  /** Notes parsed by this reader so far (a restart's catch-up pass parses only those changed while it was down). */
  parses = 0;

  /**
   * The record remembered from an earlier run (site/read/record-cache.ts) when the file still
   * has the stamp it was read with (one lstat: no read, no parse), dated as a read dates it.
   * A link in the file's place, or any change, and the note is read instead.
   */
  private restore(p: VaultPath, kept: KeptRecord): NoteRecord | null {
    const stats = lstatSync(this.abs(p), { throwIfNoEntry: false });
    if (!stats?.isFile() || kept.fields.stamp === null || fileStamp(stats) !== kept.fields.stamp) return null;
    const createdMs = this.createdOf(p);
    return this.changed(restoreRecord(p, kept, { createdMs, fileMs: fileTime(stats), changedMs: this.changedOf(stats, createdMs) }));
  }

  /** Changed only if modified after it was created: a copied file's modification time is the copy's moment. */
  private changedOf(stats: Stats, createdMs: number | null): number | null {
    return stats.mtimeMs > (createdMs ?? fileTime(stats)) + CHANGE_SLACK_MS ? stats.mtimeMs : null;
  }

  /**
   * Reads one note the walk (or a check of every segment: a path with a
   * symbolic link on it is not a note) found to be a regular file. The file's own time
   * is only asked for when nothing else dates the note (spec D.2: it comes last).
   */
  read(p: VaultPath, known: NoteRecord | null = null): NoteRecord | null {
    let fd: number | null = null;
    try {
      // Not through a link, and never waiting on a FIFO: the name was a regular file when
      // the walk met it, but another program may have swapped it since (CONTRACT §11).
      fd = openSync(this.abs(p), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      const stats = fstatSync(fd);
      if (!stats.isFile()) return null;
      const { size } = stats;
      if (size > MAX_NOTE_BYTES) {
        log.warnOnce(`size:${p}:${size}`, `${p} is ${(size / 1024 / 1024).toFixed(0)} MB, over the ${MAX_NOTE_BYTES / 1024 / 1024} MB a note may be: it is left out of the site`);
        return null;
      }
      // The size checked is the most read: a file still being written grows past it (the
      // limit was read around once), and the watcher reports the write's end for a new read.
      const bytes = Buffer.allocUnsafe(size);
      let got = 0;
      while (got < size) {
        const n = readSync(fd, bytes, got, size - got, got);
        if (n === 0) break;
        got += n;
      }
      const text = bytes.toString('utf8', 0, got);
      // Stamped only when read whole, and changed long enough ago that a write in the same
      // clock tick (ctime is coarse) could not have followed the read unseen.
      const stamp = got === size && stampSettled(stats.ctimeMs, Date.now()) ? fileStamp(stats) : null;
      const createdMs = this.createdOf(p);
      const changedMs = this.changedOf(stats, createdMs);
      // The same text read again (the watcher's echo of a save already applied): no second parse.
      if (known && known.changedMs === changedMs && sameDating(known, createdMs) && known.hash === hashText(text)) return known;
      // Dated by the file's own time when nothing else dates it: the stats in hand, not a second stat.
      this.parses++;
      return this.changed(buildRecord({ path: p, text, createdMs, fileMs: fileTime(stats), changedMs, stamp, searchText: this.searchTexts }));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'ELOOP') log.warnOnce(`read:${p}:${code}`, `could not read ${p}: ${code ?? (err as Error).message}`);
      return null;
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  /**
   * spec D.2: in a git vault a note dated by its creation reads git's first commit adding
   * it, and every note's last change is its last commit. Git's history is read once, and
   * only in a repository; returns the notes whose date or last change moved.
   */
  async settleDates(records: Iterable<NoteRecord>): Promise<NoteRecord[]> {
    const list = [...records];
    if (list.length === 0 || this.options.useGit === false) return [];
    const git = await this.gitTimes();
    if (git.changed.size === 0) return [];
    const moved: NoteRecord[] = [];
    for (const record of list) {
      const before = record.date.ms;
      const changedBefore = record.changedMs;
      if (git.added.has(record.path)) this.date(record);
      this.changed(record);
      if (record.date.ms !== before || record.changedMs !== changedBefore) moved.push(record);
    }
    return moved;
  }

  /** Creation times learnt from git (vault path → ms), for created.json; empty until git was read. */
  gitCreated(): ReadonlyMap<string, number> {
    return this.git?.added ?? new Map();
  }

  private gitTimes(): Promise<GitFileTimes> {
    this.gitRead ??= gitFileTimes(this.options.vaultDir).then((git) => {
      this.gitReadAt = Date.now();
      return (this.git = git);
    });
    return this.gitRead;
  }

  /**
   * The note's last change from git: its last commit, when later than the one adding it.
   * A file modified after the history was read keeps its own time (an edit not yet committed).
   */
  private changed(record: NoteRecord): NoteRecord {
    // A last change its frontmatter names comes first (dates.ts UPDATED_KEYS).
    if (frontmatterUpdated(record.data) !== null) return record;
    const last = this.git?.changed.get(record.path);
    if (last === undefined || (record.changedMs !== null && record.changedMs > this.gitReadAt)) return record;
    const added = this.git!.added.get(record.path) ?? last;
    record.changedMs = last > added + CHANGE_SLACK_MS ? last : null;
    return record;
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
      const ms = stat ? fileTime(stat) : 0;
      record.date = { ms, source: 'file' };
    }
    return record;
  }

  /** spec D.2: git's first commit adding the file, else the remembered first meeting. */
  private createdOf(p: VaultPath): number | null {
    const fromGit = this.git?.added.get(p);
    const remembered = this.created[p];
    if (fromGit !== undefined && remembered !== undefined) return Math.min(fromGit, remembered);
    return fromGit ?? remembered ?? null;
  }
}
