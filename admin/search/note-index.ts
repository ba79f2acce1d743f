// The admin's in-memory index of the vault's notes: loaded once with the one
// vault walker, then kept current from the vault change events (this server's writes
// and everyone else's), so vault search, backlinks, the palette's titles and aliases and
// the tree's publish marks never walk the vault per request.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { log } from '../../shared/log.ts';
import { createLinkResolver, type LinkResolver } from '../../shared/model/links.ts';
import type { VaultChange, VaultEvents } from '../../shared/vault-events.ts';
import { isNotePath, type VaultPath, type VaultRoot } from '../../shared/vault-path.ts';
import { readRegularFile, readVaultText } from '../../shared/vault-read.ts';
import { mapLimit, VaultEntries } from '../../shared/vault-walk.ts';
import { indexNote, type IndexedNote } from './note-entry.ts';

/** Notes bigger than this are listed by name only: search reads no 8 MB log. */
const MAX_INDEXED_BYTES = 2 * 1024 * 1024;
/** A burst of changes to one note (an editor saving, a sync) is read once. */
const SETTLE_MS = 80;

export interface NoteIndexDeps {
  root: VaultRoot;
  events: VaultEvents;
  skipDirs: string[];
}

export class NoteIndex {
  private notes = new Map<VaultPath, IndexedNote>();
  private loading: Promise<void> | null = null;
  private timers = new Map<VaultPath, ReturnType<typeof setTimeout>>();
  private unsubscribe: (() => void) | null = null;
  private resolverCache: { generation: number; resolver: LinkResolver<IndexedNote> } | null = null;
  /** Bumped when the set of note paths changes (links then point elsewhere). */
  private pathsGeneration = 0;
  private readonly entries: VaultEntries;

  constructor(private readonly deps: NoteIndexDeps) {
    this.entries = new VaultEntries(deps.root.dir, deps.skipDirs);
  }

  /**
   * Subscribes to vault changes. The first read of the whole vault waits for the first
   * question (the admin app opening), so a server nobody edits on reads nothing more at start.
   */
  start(): void {
    this.unsubscribe ??= this.deps.events.onChange((change) => this.changed(change));
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /** Resolves once the first load is done; every read waits for it. */
  ready(): Promise<void> {
    this.loading ??= this.load().catch((err) => {
      // A failed first read is tried again at the next question.
      this.loading = null;
      log.warn(`the note index could not load: ${(err as Error).message}`);
      throw err;
    });
    return this.loading;
  }

  private async load(): Promise<void> {
    const paths = await this.entries.notes();
    await mapLimit(paths, 16, (p) => this.read(p));
  }

  private changed(change: VaultChange): void {
    if (!isNotePath(change.path)) return;
    const p = change.path;
    clearTimeout(this.timers.get(p));
    this.timers.set(
      p,
      setTimeout(() => {
        this.timers.delete(p);
        void this.read(p).catch((err) => log.warn(`the note index could not read ${p}: ${(err as Error).message}`));
      }, SETTLE_MS),
    );
  }

  /** (Re)reads one note, or forgets it when it is gone. */
  private async read(p: VaultPath): Promise<void> {
    // The one entry rule: no link on the way, no skipped name (so the read below stays inside).
    const stats = await this.entries.stat(p);
    if (!stats?.isFile()) {
      if (this.notes.delete(p)) this.pathsGeneration++;
      return;
    }
    const known = this.notes.get(p);
    if (known && known.mtimeMs === stats.mtimeMs) return;
    let text = '';
    if (stats.size <= MAX_INDEXED_BYTES) {
      // A pipe swapped in since the stat is refused at once, not waited on.
      const read = await readRegularFile(path.join(this.deps.root.dir, ...p.split('/')), MAX_INDEXED_BYTES).catch(() => null);
      if (!read) return;
      text = read.data.toString('utf8');
    }
    if (!known) this.pathsGeneration++;
    this.notes.set(p, indexNote(p, text, stats.mtimeMs));
  }

  /**
   * A note's text as it is now, read by the one entry rule (no link on the way): '' when
   * it is gone, or no longer reached without passing a link (a folder swapped for one).
   */
  async text(p: VaultPath): Promise<string> {
    if (!this.entries.admits(p)) return '';
    return (await readVaultText(this.deps.root.dir, p)) ?? '';
  }

  async all(): Promise<IndexedNote[]> {
    await this.ready();
    return [...this.notes.values()];
  }

  async get(p: VaultPath): Promise<IndexedNote | null> {
    await this.ready();
    return this.notes.get(p) ?? null;
  }

  /** Obsidian's link resolution over the indexed notes (shared/model/links.ts). */
  async resolver(): Promise<LinkResolver<IndexedNote>> {
    await this.ready();
    if (this.resolverCache?.generation !== this.pathsGeneration) {
      this.resolverCache = { generation: this.pathsGeneration, resolver: createLinkResolver(this.notes.values()) };
    }
    return this.resolverCache.resolver;
  }
}
