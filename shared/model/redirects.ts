// CONTRACT §7: addresses that move keep working. A note with `permalink:` lives at it,
// and its own address answers 301 there. A published note that is renamed or moved
// (through the API, on disk, by git) leaves a 301 from its old address to wherever it
// is now, remembered in the data directory (redirects.json) until another note takes
// that address. A move made through the admin is told (`told`): its link rewrites
// change the moved notes' own text. Any other move is told from the model's changes: a
// published note vanishes from one path and a note with the very same text appears at
// another (in the same build or a later one, within MOVE_WINDOW_MS).
import { readJson, writeJsonAtomic } from '../atomic-write.ts';
import { dataPath, DATA_FILES } from '../data-path.ts';
import { log } from '../log.ts';
import type { VaultPath } from '../vault-path.ts';
import { FRONT_PAGE, isReservedAddress, type Address } from './addresses.ts';
import { FeedIds } from './feed-ids.ts';
import type { NoteRecord } from './note-record.ts';
import type { SiteModel } from './site-model.ts';
import { textCompare } from '../natural-order.ts';

/** How long a vanished note waits for its text to appear elsewhere (a move seen in two steps). */
const MOVE_WINDOW_MS = 10 * 60 * 1000;

interface StoredRedirects {
  version: 1;
  /** Old address → the vault path of the note that lived there, wherever it is now. */
  moved: Record<string, string>;
  /** A static snapshot's published notes, vault path → [address, text hash]: the next build, a process of its own, sees what moved since. */
  published?: Record<string, [string, string]>;
}

interface Seen {
  address: Address;
  hash: string;
}

type ModelView = Pick<SiteModel, 'all' | 'visible' | 'byAddress'>;

export class AddressMemory {
  private moved = new Map<Address, VaultPath>();
  private previous: Map<VaultPath, Seen> | null = null;
  /** Published notes that are not now (unpublished, or read half-written) but still exist: where they were. */
  private hidden = new Map<VaultPath, Seen>();
  private vanished: (Seen & { path: VaultPath; at: number })[] = [];
  private arrived: (Seen & { path: VaultPath; at: number })[] = [];
  /** Moves the admin made (a note or a folder), waiting for the model to see the old paths go. */
  private moves: { from: VaultPath; to: VaultPath; at: number }[] = [];
  private dirty = false;
  private served = '';

  /** Each post's feed id, which follows it through moves as its old addresses do. */
  readonly feedIds: FeedIds;

  /** `dataDir` null: nothing is read or written (a throwaway build). */
  /** A static snapshot's (`readOnlyVault`): each build is a process of its own, so what it published is kept for the next to compare. */
  private readonly keepsPublished: boolean;

  constructor(
    private readonly dataDir: string | null,
    vaultDir: string | null = null,
    readOnlyVault = false,
  ) {
    this.feedIds = new FeedIds(dataDir, vaultDir, readOnlyVault);
    this.keepsPublished = readOnlyVault;
  }

  private get file(): string | null {
    return this.dataDir === null ? null : dataPath(this.dataDir, DATA_FILES.redirects);
  }

  async load(): Promise<void> {
    await this.feedIds.load();
    if (!this.file) return;
    try {
      const stored = await readJson<StoredRedirects | null>(this.file, null);
      this.moved = new Map(Object.entries(stored?.moved ?? {}) as [Address, VaultPath][]);
      if (this.keepsPublished && stored?.published && typeof stored.published === 'object') this.previous = publishedFrom(stored.published);
    } catch (err) {
      log.warn(`${DATA_FILES.redirects} could not be read (${(err as Error).message}); old addresses start afresh`);
      this.moved = new Map();
    }
  }

  /** Learns from the model a build is about to publish: moves, changed permalinks, addresses taken. */
  observe(model: ModelView, now = Date.now()): void {
    const current = new Map<VaultPath, Seen>();
    for (const note of model.visible) current.set(note.path, { address: note.address, hash: note.hash });
    if (this.previous) {
      // Which notes still exist (published or not) is only asked when a published one went.
      let exists: Set<string> | null = null;
      for (const [p, before] of this.previous) {
        const seen = current.get(p);
        if (seen) {
          if (seen.address !== before.address) {
            this.remember(before.address, p);
            this.feedIds.readdressed(p, before.address, now);
          }
          continue;
        }
        exists ??= new Set(model.all.map((n) => n.path));
        if (!exists.has(p)) this.vanished.push({ ...before, path: p, at: now });
        else this.hidden.set(p, before);
      }
      if (exists) for (const p of this.hidden.keys()) if (!exists.has(p)) this.hidden.delete(p);
      if (current.size !== this.previous.size || this.vanished.length) {
        for (const [p, seen] of current) {
          if (this.previous.has(p)) continue;
          const was = this.hidden.get(p);
          if (!was) {
            this.arrived.push({ ...seen, path: p, at: now });
            continue;
          }
          // Published again (or read whole after a half-written read): the same post, perhaps readdressed.
          this.hidden.delete(p);
          if (seen.address !== was.address) {
            this.remember(was.address, p);
            this.feedIds.readdressed(p, was.address, now);
          }
        }
      }
      this.matchTold();
      this.matchMoves(current);
    }
    // An address a note lives at again is that note's: the old move is forgotten.
    for (const address of [...this.moved.keys()]) {
      if (model.byAddress.has(address)) {
        this.moved.delete(address);
        this.dirty = true;
      }
    }
    this.moves = this.moves.filter((m) => now - m.at < MOVE_WINDOW_MS);
    this.vanished = this.vanished.filter((v) => now - v.at < MOVE_WINDOW_MS);
    this.arrived = this.arrived.filter((a) => now - a.at < MOVE_WINDOW_MS && current.get(a.path)?.hash === a.hash);
    this.previous = current;
    if (this.keepsPublished) this.dirty = true;
  }

  /**
   * The admin moved `from` (a note, or a folder and every note in it) to `to`. Told, not
   * guessed: the rename rewrote links in the moved notes too (a note linking itself,
   * notes of a moved folder linking each other), so their text no longer matches.
   * Matched when the model sees the old paths go, before or after this call.
   */
  told(from: VaultPath, to: VaultPath, now = Date.now()): void {
    this.moves.push({ from, to, at: now });
    this.matchTold();
  }

  /** Each of the admin's moves, [from, to], as `told`. */
  toldMoves(moves: [string, string][], now = Date.now()): void {
    for (const [from, to] of moves) this.told(from as VaultPath, to as VaultPath, now);
  }

  private matchTold(): void {
    if (this.moves.length === 0) return;
    for (const gone of [...this.vanished]) {
      const move = this.moves.findLast((m) => gone.path === m.from || gone.path.startsWith(m.from + '/'));
      if (!move) continue;
      const target = (move.to + gone.path.slice(move.from.length)) as VaultPath;
      this.follow(gone, target);
      this.arrived = this.arrived.filter((a) => a.path !== target);
    }
  }

  /** `gone`'s address, and every older address that led to it, now lead to `target`. */
  private follow(gone: Seen & { path: VaultPath }, target: VaultPath): void {
    this.remember(gone.address, target);
    this.feedIds.moved(gone.path, target, gone.address, Date.now());
    for (const [address, p] of this.moved) if (p === gone.path) this.set(address, target);
    this.vanished = this.vanished.filter((v) => v !== gone);
  }

  /**
   * A note that vanished and one that arrived with the very same text are one note that
   * moved, whichever the watcher reported first. The same text in two places (or gone
   * from two) tells nothing: no redirect is guessed.
   */
  private matchMoves(current: Map<VaultPath, Seen>): void {
    for (const gone of [...this.vanished]) {
      const from = this.vanished.filter((v) => v.hash === gone.hash);
      const to = this.arrived.filter((a) => a.hash === gone.hash && current.get(a.path)?.hash === a.hash);
      if (from.length !== 1 || to.length !== 1) continue;
      this.follow(gone, to[0]!.path);
      this.arrived = this.arrived.filter((a) => a !== to[0]);
    }
  }

  private remember(from: Address, to: VaultPath): void {
    if (isReservedAddress(from)) return;
    this.set(from, to);
  }

  private set(from: Address, to: VaultPath): void {
    if (this.moved.get(from) === to) return;
    this.moved.set(from, to);
    this.dirty = true;
  }

  /**
   * What the server answers with 301 now (old address → current address): the own
   * address of every note with a permalink, and every remembered move whose note is
   * still published. An address a note lives at is never redirected. The note `/` shows
   * whole (`frontPath`) is read there: its own addresses answer 301 to `/`.
   */
  redirects(model: ModelView, frontPath: string | null = null): [Address, Address][] {
    const out = new Map<Address, Address>();
    const byPath = new Map<string, NoteRecord>();
    const movesKnown = this.moved.size > 0;
    const readAt = (note: NoteRecord): Address => (note.path === frontPath ? FRONT_PAGE : note.address);
    for (const note of model.visible) {
      if (movesKnown) byPath.set(note.path, note);
      if (note.path === frontPath) out.set(note.address, FRONT_PAGE);
      if (note.defaultAddress !== note.address && !model.byAddress.has(note.defaultAddress) && !isReservedAddress(note.defaultAddress)) {
        out.set(note.defaultAddress, readAt(note));
      }
    }
    for (const [from, p] of this.moved) {
      const note = byPath.get(p);
      if (note && readAt(note) !== from && (!model.byAddress.has(from) || model.byAddress.get(from)!.path === frontPath)) out.set(from, readAt(note));
    }
    return [...out].sort((a, b) => textCompare(a[0], b[0]));
  }

  /** The redirects when they differ from the last ones asked for through here, else null. */
  changedRedirects(model: ModelView, frontPath: string | null = null): [Address, Address][] | null {
    const list = this.redirects(model, frontPath);
    const key = list.map(([a, b]) => `${a}\u0000${b}`).join('\u0001');
    if (key === this.served) return null;
    this.served = key;
    return list;
  }

  /** Writes redirects.json when a move was learnt or forgotten (temp file + rename). */
  async save(): Promise<void> {
    await this.feedIds.save();
    if (!this.dirty || !this.file) return;
    this.dirty = false;
    const stored: StoredRedirects = { version: 1, moved: Object.fromEntries(this.moved) };
    if (this.keepsPublished && this.previous) stored.published = Object.fromEntries([...this.previous].map(([p, seen]) => [p, [seen.address, seen.hash]]));
    await writeJsonAtomic(this.file, stored, { mkdir: true }).catch((err) => {
      this.dirty = true;
      log.warn(`${DATA_FILES.redirects} could not be written: ${(err as Error).message}`);
    });
  }
}

/** A stored `published` map, each entry as the store wrote it (anything else is left out). */
function publishedFrom(stored: object): Map<VaultPath, Seen> {
  const out = new Map<VaultPath, Seen>();
  for (const [p, entry] of Object.entries(stored)) {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string' || typeof entry[1] !== 'string' || !entry[0].startsWith('/')) continue;
    out.set(p as VaultPath, { address: entry[0] as Address, hash: entry[1] });
  }
  return out;
}
