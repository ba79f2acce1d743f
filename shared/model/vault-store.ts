// The one long-lived vault model: every note's record. A full load reads the vault once
// (or takes the records a shared full build read, `adopt`); `update(paths)` re-reads
// only the files named, so one save costs one parse. Reading is NoteReader's job.
import type { VaultPath } from '../vault-path.ts';
import { isNotePath } from '../vault-path.ts';
import { VaultEntries } from '../vault-walk.ts';
import type { NoteRecord } from './note-record.ts';
import { NoteReader, type NoteReaderOptions } from './note-reader.ts';

export interface VaultStoreOptions extends NoteReaderOptions {
  /** Absolute folders never read (an in-vault data directory). */
  skipDirs?: string[];
}

/** One note's record before and after an update (null: absent). */
export interface RecordChange {
  path: VaultPath;
  before: NoteRecord | null;
  after: NoteRecord | null;
}

export class VaultStore {
  readonly records = new Map<VaultPath, NoteRecord>();
  /** Bumped on every change; derived views compare it to know they are stale. */
  version = 0;
  /** Parses notes for this store (and, in a full build, the share this process reads). */
  readonly reader: NoteReader;

  private readonly entries: VaultEntries;

  constructor(private readonly options: VaultStoreOptions) {
    this.entries = new VaultEntries(options.vaultDir, options.skipDirs);
    this.reader = new NoteReader(options);
  }

  get vaultDir(): string {
    return this.options.vaultDir;
  }

  /** Reads every note from scratch. */
  async loadAll(): Promise<void> {
    const paths = await this.entries.notes();
    await this.reader.prepare(true);
    this.adopt(this.reader.readMany(paths));
    await this.settleDates();
  }

  /** Takes these records as the whole vault. */
  adopt(records: Iterable<NoteRecord>): void {
    this.records.clear();
    for (const r of records) this.records.set(r.path, r);
    this.version++;
  }

  /** spec D.2: dates of notes dated by their creation, from git's history; returns those that changed. */
  settleDates(records: Iterable<NoteRecord> = this.records.values()): Promise<NoteRecord[]> {
    return this.reader.settleDates(records);
  }

  /** Creation times learnt from git (vault path → ms), for created.json; empty until git was read. */
  gitCreated(): ReadonlyMap<string, number> {
    return this.reader.gitCreated();
  }

  /** Re-reads the named paths (a vanished one is dropped); returns each record that changed, old and new. */
  async update(paths: Iterable<string>): Promise<RecordChange[]> {
    await this.reader.prepare(false);
    const changes: RecordChange[] = [];
    for (const raw of new Set(paths)) {
      const p = raw as VaultPath;
      if (!isNotePath(p) || !this.entries.admits(p)) continue;
      const before = this.records.get(p) ?? null;
      const next = (await this.entries.stat(p))?.isFile() ? this.reader.read(p, before) : null;
      if (next === before) continue;
      if (next) await this.settleDates([next]);
      if (!next) {
        if (before) {
          this.records.delete(p);
          changes.push({ path: p, before, after: null });
        }
        continue;
      }
      if (before && before.hash === next.hash && before.date.ms === next.date.ms && before.changedMs === next.changedMs) continue;
      this.records.set(p, next);
      changes.push({ path: p, before, after: next });
    }
    if (changes.length) this.version++;
    return changes;
  }

  /**
   * Bodies rendered when notes were read serve the page made next; a page another thread
   * made, or one a resumed generation already holds, never takes its body: let them go.
   */
  releasePrepared(): void {
    for (const record of this.records.values()) {
      record.prepared = null;
      record.searchText = null;
    }
  }
}
