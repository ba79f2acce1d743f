// The one long-lived vault model: every note's record. A full load reads the vault once
// (or takes the records a shared full build read, `adopt`); `update(paths)` re-reads
// only the files named, so one save costs one parse. Reading is NoteReader's job.
import { setTimeout as sleep } from 'node:timers/promises';
import { useVaultLineBreaks } from '../obsidian-app.ts';
import { hashText } from '../note/text-hash.ts';
import type { VaultPath } from '../vault-path.ts';
import { isNotePath } from '../vault-path.ts';
import { VaultEntries } from '../vault-walk.ts';
import type { NoteRecord } from './note-record.ts';
import { NoteReader, type NoteReaderOptions } from './note-reader.ts';

export interface VaultStoreOptions extends NoteReaderOptions {
  /** Absolute folders never read (an in-vault data directory). */
  skipDirs?: string[];
  /** How long a published note that read missing or empty is given to come back (default GONE_SETTLE_MS). */
  goneSettleMs?: number;
}

/**
 * Another program saving a note in place passes through a missing file (git's checkout,
 * an editor's rename-then-write) or an empty one (a truncate, then the write); a read in
 * that moment would take the page down until the write's own event. Such a read of a
 * published note is looked at again this much later before it stands.
 */
const GONE_SETTLE_MS = 100;

const EMPTY_HASH = hashText('');

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
    // The builder holding the vault renders it with its line breaks as they are now, for its life.
    useVaultLineBreaks(options.vaultDir);
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
    const reads = new Map<VaultPath, NoteRecord | null>();
    for (const raw of new Set(paths)) {
      const p = raw as VaultPath;
      if (isNotePath(p) && this.entries.admits(p)) reads.set(p, await this.readNow(p));
    }
    const gone = [...reads].filter(([p, next]) => this.mayComeBack(p, next));
    if (gone.length > 0) {
      await sleep(this.options.goneSettleMs ?? GONE_SETTLE_MS);
      for (const [p] of gone) reads.set(p, await this.readNow(p));
    }
    const changes: RecordChange[] = [];
    for (const [p, next] of reads) {
      const before = this.records.get(p) ?? null;
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

  private async readNow(p: VaultPath): Promise<NoteRecord | null> {
    return (await this.entries.stat(p))?.isFile() ? this.reader.read(p, this.records.get(p) ?? null) : null;
  }

  /** A published note with text that read missing or empty: perhaps another program's save half done. */
  private mayComeBack(p: VaultPath, next: NoteRecord | null): boolean {
    const before = this.records.get(p);
    return before !== undefined && before.publish && before.hash !== EMPTY_HASH && (next === null || next.hash === EMPTY_HASH);
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
