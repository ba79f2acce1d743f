// The vault's local bin (spec 3.3): deleted notes, attachments and folders move to
// .trash/, recorded in .trash/.service-trash.json. A trashed note's versions move apart
// with it, kept under its entry (binVersions), so a new note at the same path starts a
// history of its own: restored, an entry takes back exactly its own; erased, it erases
// exactly its own, or hands them to a live note that has taken its path (spec 3.3). They
// were once told apart by time alone, which a note renamed onto the path defeated: its
// older versions fell in the trashed note's span and were erased with it.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { notFound, refuse } from '../../shared/errors.ts';
import type { VaultEvents } from '../../shared/vault-events.ts';
import { isNotePath, nameClash, toVaultPath, type VaultPath, type VaultRoot } from '../../shared/vault-path.ts';
import { log } from '../../shared/log.ts';
import type { VersionStore } from '../versions/version-store.ts';
import { parentOf, PathLocks } from './path-locks.ts';
import type { EntryKind } from './tree.ts';
import { walkVault } from './tree.ts';
import { invalidWithId, readManifest, TRASH_DIR, TRASH_MANIFEST, unreadableRecord, writeManifest, type Manifest, type TrashEntry } from './trash-manifest.ts';

export { TRASH_DIR, TRASH_MANIFEST, type TrashEntry } from './trash-manifest.ts';

export interface TrashDeps {
  /** The vault's path locks: a trash operation holds `.trash` and the paths it moves. */
  locks?: PathLocks;
  root: VaultRoot;
  versions: VersionStore;
  events: VaultEvents;
  /**
   * A note or folder went into the bin, came back, or was erased: what is kept by path
   * beside it (comments and mentions) follows it, so a new note at the old path does not
   * take the old one's (a reviewer's find).
   */
  moved?: (from: string, to: string) => void;
}

async function exists(abs: string): Promise<boolean> {
  return fs.lstat(abs).then(
    () => true,
    () => false,
  );
}

function isInside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** What one file or folder name may hold on the disks we run on (bytes, UTF-8). */
const MAX_NAME_BYTES = 255;

/** The longest start of `text` within `bytes` bytes of UTF-8, never splitting a character. */
function clipBytes(text: string, bytes: number): string {
  let out = '';
  for (const ch of text) {
    if (Buffer.byteLength(out + ch) > bytes) break;
    out += ch;
  }
  return out;
}

export const covers = (entry: TrashEntry, notePath: string): boolean =>
  entry.path === notePath || (entry.kind === 'folder' && notePath.startsWith(entry.path + '/'));

/**
 * Where the versions of `notePath` wait while entry `id` is in the bin: a key of the version
 * store that no vault path can be (vault paths never start with `/`).
 */
export const binVersions = (id: string, notePath: string): string => `/${TRASH_DIR}/${id}/${notePath}`;

/**
 * Whether an entry's notes' versions were moved apart with it. Entries from before they
 * were (and any an old server writes) leave the versions where they are, with the path:
 * nothing is moved or erased for them, so no history can be taken from a live note.
 */
const versionsApart = (entry: TrashEntry): boolean => entry.versions === 'apart';

/**
 * `Note.md` → `Note 2.md`, `Note 3.md`…; a folder `Folder` → `Folder 2`. A name already at the
 * disk's limit gives up the end of its stem for the number, so the name beside always fits.
 */
export async function nameBeside(absPath: string, isFolder: boolean): Promise<string> {
  const dir = path.dirname(absPath);
  const base = path.basename(absPath);
  let ext = isFolder ? '' : path.extname(base);
  // An "extension" that leaves no room for a stem is part of the name.
  if (Buffer.byteLength(ext) > MAX_NAME_BYTES / 2) ext = '';
  const stem = ext ? base.slice(0, -ext.length) : base;
  for (let n = 2; ; n++) {
    const suffix = ` ${n}${ext}`;
    const candidate = path.join(dir, clipBytes(stem, MAX_NAME_BYTES - Buffer.byteLength(suffix)) + suffix);
    if (!(await exists(candidate))) return candidate;
  }
}

/** Where the comments of an erased entry go: `.trash/` is never published, and no entry is named so. */
const ERASED_PREFIX = `${TRASH_DIR}/.erased/`;

export function createTrash(deps: TrashDeps) {
  const vaultDir = deps.root.dir;
  const trashDir = path.join(vaultDir, TRASH_DIR);
  const manifestFile = path.join(trashDir, TRASH_MANIFEST);
  const locks = deps.locks ?? new PathLocks();
  /** The bin's record, for a change: refused while it cannot be read (trash-manifest.ts unreadableRecord). */
  const readForChange = async () => {
    const manifest = await readManifest(manifestFile);
    if (manifest.unreadable !== undefined) throw unreadableRecord();
    return manifest;
  };
  /** Holds the bin (its manifest) and `paths` while `task` runs. */
  const holding = <T>(paths: string[], task: () => Promise<T>) => locks.run([TRASH_DIR, ...paths], task);

  /**
   * The absolute place of `trashPath`, checked where it really is: its folder must be the
   * vault's own `.trash/` or below it, not reached through a link (a planted `.trash` link, or
   * a link inside it, would make an erase or a move act outside the vault).
   */
  async function inBin(trashPath: string): Promise<string> {
    const abs = path.join(vaultDir, ...trashPath.split('/'));
    const bin = path.join(await fs.realpath(vaultDir), TRASH_DIR);
    // The deepest folder on the way that exists (a move into the bin makes the rest).
    const top = path.resolve(vaultDir);
    for (let folder = path.dirname(path.resolve(abs)); folder !== top && folder !== path.dirname(folder); folder = path.dirname(folder)) {
      const real = await fs.realpath(folder).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
        throw err;
      });
      if (real === null) continue;
      if (!isInside(bin, real)) throw refuse('bad_trash', `${trashPath} is reached through a link out of ${TRASH_DIR}/; the bin is left as it is.`, { reason: 'link', path: trashPath });
      break;
    }
    return abs;
  }

  /** `.trash` itself is a real folder (or not there yet), never a link or a file. */
  /**
   * Moves versions along with a note into or out of the bin. The note has moved already: a
   * failure leaves the versions where they were (found again under the path), never lost.
   */
  async function keepApart(what: string, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (err) {
      log.warn(`${what} stayed where they were: ${(err as Error).message}`);
    }
  }

  async function checkBin(): Promise<void> {
    const stat = await fs.lstat(trashDir).catch(() => null);
    if (stat && !stat.isDirectory()) throw refuse('bad_trash', `${TRASH_DIR} is not a folder (a link or a file); the bin is left as it is.`, { reason: 'not_folder' });
  }

  /** Original note paths of an entry (one note, or every note of a folder). */
  async function notesOf(entry: TrashEntry, absNow: string): Promise<VaultPath[]> {
    if (entry.kind === 'note') return [entry.path];
    if (entry.kind !== 'folder') return [];
    const inside = await walkVault(absNow, [], absNow);
    return inside.filter((e) => e.kind === 'note').map((e) => `${entry.path}/${e.path}` as VaultPath);
  }

  async function remove(p: VaultPath): Promise<TrashEntry> {
    await deps.root.resolveForChange(p);
    return holding([p], async () => {
      // Checked again once held (note-writer.ts: a folder swapped for a link during the wait).
      const abs = await deps.root.resolveForChange(p);
      let stat;
      try {
        stat = await fs.stat(abs);
      } catch {
        throw notFound('Nothing exists at that path.', 'path');
      }
      const kind: EntryKind = stat.isDirectory() ? 'folder' : isNotePath(p) ? 'note' : 'attachment';
      await checkBin();
      const manifest = await readForChange();
      const target = await placeInBin(p, kind, manifest.entries);
      await fs.mkdir(path.dirname(target), { recursive: true });
      const entry: TrashEntry = {
        id: `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`,
        path: p,
        trashPath: toVaultPath(path.relative(vaultDir, target)),
        kind,
        deletedAt: new Date().toISOString(),
        versions: 'apart',
      };
      // The entry is written before the move: a crash between the two leaves an entry whose
      // file never came (dropped as a ghost), never a file in the bin no entry names (it could
      // not be restored, and emptying the bin erased it unlisted).
      await dropGhosts(manifest);
      manifest.entries.push(entry);
      await writeManifest(manifestFile, manifest);
      try {
        await fs.rename(abs, target);
      } catch (err) {
        manifest.entries = manifest.entries.filter((e) => e.id !== entry.id);
        await writeManifest(manifestFile, manifest);
        throw err;
      }
      for (const note of await notesOf(entry, target)) {
        deps.events.expect({ path: note, kind: 'delete' });
        await keepApart(`the versions of ${note}`, () => deps.versions.move(note, binVersions(entry.id, note)));
      }
      deps.moved?.(p, entry.trashPath);
      return entry;
    });
  }

  /**
   * Where `p` goes: its own path under the bin, beside whatever is there, and never inside
   * another entry's folder. `T/c.md` trashed after the folder `T` once went into `.trash/T/`,
   * and erasing that older entry erased it too (a reviewer's find).
   */
  async function placeInBin(p: VaultPath, kind: EntryKind, entries: TrashEntry[]): Promise<string> {
    const folders = new Set(entries.filter((e) => e.kind === 'folder').map((e) => e.trashPath));
    const segments = p.split('/');
    let rel: string = TRASH_DIR;
    for (const [i, segment] of segments.entries()) {
      rel = `${rel}/${segment}`;
      if (i < segments.length - 1 && folders.has(rel)) rel = toVaultPath(path.relative(vaultDir, await nameBeside(await inBin(rel), true)));
    }
    const target = await inBin(rel);
    return (await exists(target)) ? nameBeside(target, kind === 'folder') : target;
  }

  /**
   * Entries lying inside `entry`'s folder (a bin from before placeInBin) move out beside
   * it before it goes, so erasing one entry never erases another. `others` are updated.
   */
  async function moveNestedOut(entry: TrashEntry, others: TrashEntry[]): Promise<void> {
    for (const other of others.filter((o) => o.trashPath.startsWith(entry.trashPath + '/'))) {
      const from = await inBin(other.trashPath);
      let to = path.join(trashDir, path.basename(from));
      if (await exists(to)) to = await nameBeside(to, other.kind === 'folder');
      await fs.rename(from, to);
      const moved = toVaultPath(path.relative(vaultDir, to));
      deps.moved?.(other.trashPath, moved);
      other.trashPath = moved;
    }
  }

  /** Whether an entry's file is in the bin (a crash in a restore or an erase can leave an entry without it). */
  const inBinNow = (entry: TrashEntry) => exists(path.join(vaultDir, ...entry.trashPath.split('/')));

  /** Drops entries whose file is gone from the bin; true when it dropped one. The caller writes the manifest. */
  async function dropGhosts(manifest: Manifest): Promise<boolean> {
    const present: TrashEntry[] = [];
    for (const entry of manifest.entries) if (await inBinNow(entry)) present.push(entry);
    const dropped = present.length !== manifest.entries.length;
    manifest.entries = present;
    return dropped;
  }

  async function list(): Promise<TrashEntry[]> {
    const manifest = await readManifest(manifestFile);
    if (manifest.unreadable !== undefined) return [];
    await dropGhosts(manifest);
    // ISO times: their characters' order is time's, in any locale.
    return [...manifest.entries].sort((a, b) => (a.deletedAt < b.deletedAt ? 1 : a.deletedAt > b.deletedAt ? -1 : 0));
  }

  function findEntry(manifest: Manifest, id: string): TrashEntry {
    const entry = manifest.entries.find((e) => e.id === id);
    if (entry) return entry;
    if (invalidWithId(manifest, id)) {
      throw refuse('bad_entry', `That entry of ${TRASH_DIR}/${TRASH_MANIFEST} does not name a path in the vault and one in the bin; it is ignored and left as it is.`, { path: `${TRASH_DIR}/${TRASH_MANIFEST}` });
    }
    throw notFound('No such entry in the trash.', 'trash_entry');
  }

  async function restore(id: string): Promise<{ path: VaultPath }> {
    // The folder it returns to is held too: the name beside a taken one is chosen and
    // used with no save able to take that name in between.
    const wanted = (await readForChange()).entries.find((e) => e.id === id);
    return holding(wanted ? [parentOf(wanted.path)] : [], async () => {
      const manifest = await readForChange();
      const entry = findEntry(manifest, id);
      const from = await inBin(entry.trashPath);
      if (!(await exists(from))) {
        // A ghost (a restore or an erase cut short after its file went): the entry goes too.
        await dropGhosts(manifest);
        await writeManifest(manifestFile, manifest);
        throw notFound('The trashed file is gone from .trash/.', 'trash_file');
      }
      let target = await deps.root.resolveForChange(entry.path);
      // A name taken in another case or Unicode form counts as taken: the twin it would make
      // (`Twin.md` beside `twin.md`) is one file on macOS and Windows, and every save refused it.
      if ((await exists(target)) || (await nameClash(vaultDir, entry.path))) target = await nameBeside(target, entry.kind === 'folder');
      const restored = deps.root.relative(target);
      await deps.root.resolveForChange(restored);
      const notes = await notesOf(entry, from);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(from, target);
      manifest.entries = manifest.entries.filter((e) => e.id !== id);
      await writeManifest(manifestFile, manifest);
      deps.moved?.(entry.trashPath, restored);
      for (const note of notes) {
        const now = (restored + note.slice(entry.path.length)) as VaultPath;
        // spec 3.3: a restored note takes its own versions back, beside a taken name too.
        if (versionsApart(entry)) await keepApart(`the versions of ${note}`, () => deps.versions.move(binVersions(entry.id, note), now));
        deps.events.expect({ path: now, kind: 'write' });
      }
      return { path: restored };
    });
  }

  /** Erases an entry and its notes' own versions (handed to a live note that has taken a note's path: spec 3.3). */
  async function eraseEntry(entry: TrashEntry, others: TrashEntry[] | null): Promise<void> {
    const abs = await inBin(entry.trashPath);
    if (others && entry.kind === 'folder') await moveNestedOut(entry, others);
    const notes = (await exists(abs)) ? await notesOf(entry, abs) : entry.kind === 'note' ? [entry.path] : [];
    await fs.rm(abs, { recursive: true, force: true });
    // Kept (an export still has them) under a name no note can have, never the next entry's.
    deps.moved?.(entry.trashPath, `${ERASED_PREFIX}${entry.id}/${entry.path}`);
    if (!versionsApart(entry)) return;
    for (const note of notes) {
      const kept = binVersions(entry.id, note);
      // spec 3.3: the history belongs to a live note that has taken the same path.
      const live = await exists(path.join(vaultDir, ...note.split('/')));
      if (live) await deps.versions.move(kept, note, false);
      else await deps.versions.erase(kept);
    }
  }

  async function erase(id: string): Promise<void> {
    if (!id) throw refuse('bad_id', 'An entry id is required.');
    await holding([], async () => {
      const manifest = await readForChange();
      const entry = findEntry(manifest, id);
      manifest.entries = manifest.entries.filter((e) => e.id !== id);
      await eraseEntry(entry, manifest.entries);
      await writeManifest(manifestFile, manifest);
    });
  }

  async function empty(): Promise<{ erased: number }> {
    return holding([], async () => {
      await checkBin();
      const manifest = await readForChange();
      // Every entry is checked before the first is erased: a refusal changes nothing.
      for (const entry of manifest.entries) await inBin(entry.trashPath);
      // Every entry goes: a path no live note holds loses its whole history.
      for (const entry of manifest.entries) await eraseEntry(entry, null);
      // Whatever else lies in the bin (e.g. Obsidian's own deletions) goes too; a link goes, never what it points at.
      for (const name of await fs.readdir(trashDir).catch(() => [] as string[])) {
        if (name !== TRASH_MANIFEST) await fs.rm(path.join(trashDir, name), { recursive: true, force: true });
      }
      const erased = manifest.entries.length;
      // Entries that failed the check were never acted on; they stay as they were.
      await writeManifest(manifestFile, { entries: [], invalid: manifest.invalid });
      return { erased };
    });
  }

  return { remove, list, restore, erase, empty };
}
