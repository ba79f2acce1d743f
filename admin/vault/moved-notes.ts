// Where a vanished note went (spec 3.6, the resolution strip): a window holding unsaved text of
// a note that is gone asks, so the text can follow the note instead of making it again at the
// old path (a duplicate page). A move this server made is known: the renamer tells it. Any other
// (another server, Obsidian, git) reaches the watcher as a delete and a new file: a note written
// lately that holds the very bytes the window loaded is where it went, when exactly one does
// (the same text in two places tells nothing, as for the site's redirects).
import { promises as fs } from 'node:fs';
import { MAX_NOTE_BYTES } from '../../shared/model/note-reader.ts';
import type { VaultEvents } from '../../shared/vault-events.ts';
import { isNotePath, type VaultPath, type VaultRoot } from '../../shared/vault-path.ts';
import { readRegularFile } from '../../shared/vault-read.ts';
import { bytesHash } from '../versions/version-store.ts';

/** How long a move or a newly written note is remembered (a window may sit with the strip a while). */
const REMEMBER_MS = 60 * 60 * 1000;
/** At most this many recent writes are compared (each is read once per question). */
const MAX_RECENT = 300;
/** A chain of moves (A to B, then B to C) is followed this far at most. */
const MAX_HOPS = 8;

export class MovedNotes {
  private moves: { from: VaultPath; to: VaultPath; at: number }[] = [];
  /** Notes written lately (by anyone), oldest first: a moved note's new path is among them. */
  private recent = new Map<VaultPath, number>();

  constructor(
    private readonly root: VaultRoot,
    events: VaultEvents,
    private readonly now: () => number = Date.now,
  ) {
    events.onChange((change) => {
      if (change.kind !== 'write' || !isNotePath(change.path)) return;
      this.recent.delete(change.path);
      this.recent.set(change.path, this.now());
      if (this.recent.size > MAX_RECENT) this.recent.delete(this.recent.keys().next().value!);
    });
  }

  /** This server moved `from` (a note, or a folder and all in it) to `to`. */
  told(from: VaultPath, to: VaultPath): void {
    this.forget();
    this.moves.push({ from, to, at: this.now() });
  }

  /**
   * Where the note once at `p` is now, or null when it is still there or nobody can tell.
   * `hash`: the SHA-1 of the bytes the asker loaded, to recognise a move seen as delete + create.
   */
  async whereIs(p: VaultPath, hash?: string): Promise<VaultPath | null> {
    this.forget();
    if (await this.isNote(p)) return null;
    let at = p;
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const move = this.moves.findLast((m) => at === m.from || at.startsWith(m.from + '/'));
      if (!move) break;
      at = (move.to + at.slice(move.from.length)) as VaultPath;
      if (await this.isNote(at)) return at;
    }
    if (hash === undefined) return null;
    const same: VaultPath[] = [];
    for (const candidate of [...this.recent.keys()].reverse()) {
      if (candidate === p) continue;
      // A note gone again, grown too big or turned into a folder is simply not it.
      const read = await this.root
        .resolve(candidate)
        .then((file) => readRegularFile(file, MAX_NOTE_BYTES))
        .catch(() => null);
      if (read && bytesHash(read.data) === hash) same.push(candidate);
      if (same.length > 1) return null;
    }
    return same[0] ?? null;
  }

  private async isNote(p: VaultPath): Promise<boolean> {
    const stat = await this.root
      .resolve(p)
      .then((file) => fs.stat(file))
      .catch(() => null);
    return stat?.isFile() ?? false;
  }

  private forget(): void {
    const since = this.now() - REMEMBER_MS;
    this.moves = this.moves.filter((m) => m.at >= since);
    for (const [p, at] of this.recent) {
      if (at >= since) break;
      this.recent.delete(p);
    }
  }
}
