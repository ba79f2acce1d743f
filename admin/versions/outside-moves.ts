// A note's versions follow it when it moves outside the app (spec 9: a rename moves the version
// folder with the note). Obsidian, `mv` or a git pull reach the watcher as a delete and a new
// file, and versions are kept by path: without this they stayed at the old path, and the note's
// History lost them while its git history followed (git/history.ts).
//
// Only a pairing that cannot be another note's carries anything: a note with versions here
// vanished, and within moments exactly one note appeared in its folder or under its name holding
// exactly the bytes it last held; and no other note that vanished there then could be the one
// that came (one whose bytes this server does not know might be). A note deleted and made again
// later is a new note. Each server carries its own versions (they live in its data directory),
// each from its own watcher, whoever moved the note.
import { promises as fs } from 'node:fs';
import { log } from '../../shared/log.ts';
import { MAX_NOTE_BYTES } from '../../shared/model/note-reader.ts';
import type { VaultChange, VaultEvents } from '../../shared/vault-events.ts';
import { baseName, isNotePath, parentOf, type VaultPath, type VaultRoot } from '../../shared/vault-path.ts';
import { readRegularFile } from '../../shared/vault-read.ts';
import { mapLimit } from '../../shared/vault-walk.ts';
import { bytesHash, type VersionStore } from './version-store.ts';

/** A move is a delete and a new file moments apart; anything further apart is no move. */
const WINDOW_MS = 10_000;
/** A burst (a folder moved, a pull) is paired once the watcher has reported all of it. */
const SETTLE_MS = 300;

export interface OutsideMovesDeps {
  root: VaultRoot;
  versions: VersionStore;
  events: VaultEvents;
  now?: () => number;
}

/** A move keeps the note's folder or its name (as git/history.ts's movedFrom asks). */
const related = (a: VaultPath, b: VaultPath): boolean => parentOf(a) === parentOf(b) || baseName(a) === baseName(b);

export class OutsideMoves {
  /** The SHA-1 of what each note with versions here last held, as this server last saw it. */
  private lastBytes = new Map<VaultPath, string>();
  private vanished = new Map<VaultPath, number>();
  private appeared = new Map<VaultPath, number>();
  /** Notes whose versions moved lately (the app's rename, the bin, a pairing here): gone where is known. */
  private knownMoves = new Map<VaultPath, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private passing: Promise<void> = Promise.resolve();
  /** Notes with versions found gone at start, with the bytes this server last wrote there (carryWhileDown). */
  private goneAtStart: Promise<Map<VaultPath, string | undefined>> = Promise.resolve(new Map());
  private unsubscribe: (() => void) | null = null;
  private readonly now: () => number;

  constructor(private readonly deps: OutsideMovesDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Resolves once what the notes with versions hold now is known. */
  start(): Promise<void> {
    this.unsubscribe ??= this.deps.events.onChange((change) => this.changed(change));
    // The app moved a note itself (a rename, into the bin and back): where it went is known, and
    // its versions may arrive after the watcher reported it there. A path starting with `/` is
    // the bin's (trash.ts binVersions), never a note's.
    this.deps.versions.onMoved = (from, to) => {
      this.lastBytes.delete(from as VaultPath);
      this.knownMoves.set(from as VaultPath, this.now());
      if (!to.startsWith('/')) void this.learn(to as VaultPath);
    };
    // What the notes with versions hold now; a note this server wrote last costs one stat.
    const learned = this.deps.versions
      .notePaths()
      .then(async (paths) => {
        // A path starting with `/` is a trashed note's (trash.ts binVersions): gone on purpose.
        const notes = paths.filter((p) => isNotePath(p) && !p.startsWith('/')) as VaultPath[];
        await mapLimit(notes, 4, (p) => this.learn(p));
        const gone = new Map<VaultPath, string | undefined>();
        for (const p of notes) if (!this.lastBytes.has(p) && !(await this.isFile(p))) gone.set(p, this.deps.versions.lastWriteOf(p)?.sha1);
        return gone;
      });
    this.goneAtStart = learned.catch(() => new Map());
    return learned.then(
      () => {},
      (err) => log.warn(`the notes with versions could not be read: ${(err as Error).message}`),
    );
  }

  /**
   * The moves made while this server was down (Obsidian, `mv`, a pull): no watcher saw them,
   * so a note with versions is gone at start. Once the watcher's first scan has met the vault,
   * `fresh` holds the notes new since the server last ran (created.json did not name them).
   * Each gone note's versions follow the one fresh note in its folder or under its name holding
   * exactly what this server last wrote there; never when another note gone there could be
   * the one. A note edited outside the app before it moved is not recognised: its bytes are
   * not known. Nothing is read unless a note with versions is gone.
   */
  async carryWhileDown(fresh: readonly VaultPath[]): Promise<void> {
    const gone = await this.goneAtStart;
    this.goneAtStart = Promise.resolve(new Map());
    if (gone.size === 0 || fresh.length === 0) return;
    const came = fresh.filter((p) => !this.deps.versions.hasVersions(p));
    const hashOf = this.hashOnce();
    let carried = 0;
    for (const [from, sha1] of gone) {
      if (sha1 === undefined) continue;
      const to = await onlyMatch(from, sha1, came, gone, hashOf);
      if (to === null) continue;
      await this.carry(from, to, sha1, 'while the server was down');
      carried++;
    }
    if (carried > 0) log.info(`versions followed ${carried} of ${gone.size} notes with versions gone while the server was down`);
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.deps.versions.onMoved = () => {};
    if (this.timer) clearTimeout(this.timer);
  }

  private changed({ path: p, kind }: VaultChange): void {
    if (!isNotePath(p)) return;
    if (kind === 'delete') {
      this.vanished.set(p, this.now());
      this.appeared.delete(p);
    } else {
      this.appeared.set(p, this.now());
      // Back at its path (an editor saving by unlink and write): it went nowhere.
      this.vanished.delete(p);
      this.knownMoves.delete(p);
      void this.learn(p);
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.passing = this.passing.then(() => this.pass()).catch((err) => log.warn(`versions could not follow a note moved outside the app: ${(err as Error).message}`));
    }, SETTLE_MS);
    this.timer.unref?.();
  }

  /** Remembers what a note with versions holds now (unchanged when it cannot be read). */
  private async learn(p: VaultPath): Promise<void> {
    if (!this.deps.versions.hasVersions(p)) return;
    const own = this.deps.versions.lastWriteOf(p);
    if (own) {
      const stats = await this.deps.root.resolve(p).then((file) => fs.stat(file), () => null).catch(() => null);
      if (stats?.mtimeMs === own.mtimeMs) {
        this.lastBytes.set(p, own.sha1);
        return;
      }
    }
    const sha1 = await this.hashOf(p);
    if (sha1 !== null) this.lastBytes.set(p, sha1);
  }

  private async isFile(p: VaultPath): Promise<boolean> {
    const stats = await this.deps.root.resolve(p).then((file) => fs.stat(file), () => null).catch(() => null);
    return stats?.isFile() ?? false;
  }

  private async hashOf(p: VaultPath): Promise<string | null> {
    const read = await this.deps.root
      .resolve(p)
      .then((file) => readRegularFile(file, MAX_NOTE_BYTES))
      .catch(() => null);
    return read ? bytesHash(read.data) : null;
  }

  private async pass(): Promise<void> {
    const since = this.now() - WINDOW_MS;
    for (const seen of [this.appeared, this.knownMoves]) for (const [p, at] of seen) if (at < since) seen.delete(p);
    for (const [p, at] of this.vanished) {
      if (at >= since) continue;
      this.vanished.delete(p);
      this.lastBytes.delete(p);
    }
    const hashOf = this.hashOnce();
    // Another vanished note the app moved itself went where is known: it cannot be the one that came.
    const went = () => [...this.vanished.keys()].filter((p) => !this.knownMoves.has(p)).map((p) => [p, this.lastBytes.get(p)] as const);
    for (const from of [...this.vanished.keys()]) {
      const sha1 = this.lastBytes.get(from);
      if (sha1 === undefined || !this.deps.versions.hasVersions(from)) continue;
      // Gone and back again between the reports: nothing moved.
      if (await this.isFile(from)) continue;
      const to = await onlyMatch(from, sha1, this.appeared.keys(), went(), hashOf);
      if (to === null) continue;
      this.vanished.delete(from);
      this.appeared.delete(to);
      await this.carry(from, to, sha1, 'outside the app');
    }
  }

  /** Each note's hash, read once for a pass. */
  private hashOnce(): (p: VaultPath) => Promise<string | null> {
    const hashes = new Map<VaultPath, Promise<string | null>>();
    return (p) => hashes.get(p) ?? hashes.set(p, this.hashOf(p)).get(p)!;
  }

  /** Moves `from`'s versions to `to`, which now holds the bytes `sha1` names. */
  private async carry(from: VaultPath, to: VaultPath, sha1: string, how: string): Promise<void> {
    await this.deps.versions.move(from, to);
    this.lastBytes.delete(from);
    this.lastBytes.set(to, sha1);
    log.info(`the versions of ${from} followed it to ${to}, where it was moved ${how}`);
  }
}

/**
 * The one note of `came` holding `from`'s bytes (`sha1`), in its folder or under its name, when
 * no other note of `went` could be it: one whose last bytes are unknown, or the same.
 */
async function onlyMatch(
  from: VaultPath,
  sha1: string,
  came: Iterable<VaultPath>,
  went: Iterable<readonly [VaultPath, string | undefined]>,
  hashOf: (p: VaultPath) => Promise<string | null>,
): Promise<VaultPath | null> {
  let to: VaultPath | null = null;
  for (const p of came) {
    if (p === from || !related(from, p) || (await hashOf(p)) !== sha1) continue;
    if (to !== null) return null;
    to = p;
  }
  if (to === null) return null;
  for (const [other, theirs] of went) {
    if (other !== from && related(other, to) && (theirs === undefined || theirs === sha1)) return null;
  }
  return to;
}
