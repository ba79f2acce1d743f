// The vault's local bin (spec 3.3): deleted notes, attachments and folders move to
// .trash/, recorded in .trash/.service-trash.json. Versions stay keyed by the
// original path while an entry is in the bin.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readJson, writeJsonAtomic } from '../../shared/atomic-write.ts';
import { notFound, refuse } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';
import type { VaultEvents } from '../../shared/vault-events.ts';
import { isNotePath, toVaultPath, type VaultPath, type VaultRoot } from '../../shared/vault-path.ts';
import type { VersionStore } from '../versions/version-store.ts';
import { parentOf, PathLocks } from './path-locks.ts';
import type { EntryKind } from './tree.ts';
import { walkVault } from './tree.ts';

export const TRASH_DIR = '.trash';
export const TRASH_MANIFEST = '.service-trash.json';

export interface TrashEntry {
  id: string;
  /** Where it came from. */
  path: VaultPath;
  /** Where it lies now, relative to the vault. */
  trashPath: string;
  kind: EntryKind;
  deletedAt: string;
}

interface Manifest {
  entries: TrashEntry[];
}

export interface TrashDeps {
  /** The vault's path locks: a trash operation holds `.trash` and the paths it moves. */
  locks?: PathLocks;
  root: VaultRoot;
  versions: VersionStore;
  events: VaultEvents;
}

async function exists(abs: string): Promise<boolean> {
  return fs.lstat(abs).then(
    () => true,
    () => false,
  );
}

/** `Note.md` → `Note 2.md`, `Note 3.md`…; a folder `Folder` → `Folder 2`. */
export async function nameBeside(absPath: string, isFolder: boolean): Promise<string> {
  const dir = path.dirname(absPath);
  const base = path.basename(absPath);
  const ext = isFolder ? '' : path.extname(base);
  const stem = ext ? base.slice(0, -ext.length) : base;
  for (let n = 2; ; n++) {
    const candidate = path.join(dir, `${stem} ${n}${ext}`);
    if (!(await exists(candidate))) return candidate;
  }
}

export function createTrash(deps: TrashDeps) {
  const vaultDir = deps.root.dir;
  const trashDir = path.join(vaultDir, TRASH_DIR);
  const manifestFile = path.join(trashDir, TRASH_MANIFEST);
  const locks = deps.locks ?? new PathLocks();
  /** Holds the bin (its manifest) and `paths` while `task` runs. */
  const holding = <T>(paths: string[], task: () => Promise<T>) => locks.run([TRASH_DIR, ...paths], task);

  async function readManifest(): Promise<Manifest> {
    try {
      const m = await readJson<Manifest>(manifestFile, { entries: [] });
      return Array.isArray(m.entries) ? m : { entries: [] };
    } catch (err) {
      log.warn(`${TRASH_DIR}/${TRASH_MANIFEST} is unreadable; listing the bin as empty: ${(err as Error).message}`);
      return { entries: [] };
    }
  }

  async function writeManifest(m: Manifest): Promise<void> {
    await writeJsonAtomic(manifestFile, m, { mode: 0o644, mkdir: true });
  }

  /** Original note paths of an entry (one note, or every note of a folder). */
  async function notesOf(entry: TrashEntry, absNow: string): Promise<VaultPath[]> {
    if (entry.kind === 'note') return [entry.path];
    if (entry.kind !== 'folder') return [];
    const inside = await walkVault(absNow, [], absNow);
    return inside.filter((e) => e.kind === 'note').map((e) => `${entry.path}/${e.path}` as VaultPath);
  }

  async function remove(p: VaultPath): Promise<TrashEntry> {
    const abs = await deps.root.resolve(p);
    return holding([p], async () => {
      let stat;
      try {
        stat = await fs.stat(abs);
      } catch {
        throw notFound('Nothing exists at that path.');
      }
      const kind: EntryKind = stat.isDirectory() ? 'folder' : isNotePath(p) ? 'note' : 'attachment';
      let target = path.join(trashDir, ...p.split('/'));
      if (await exists(target)) target = await nameBeside(target, kind === 'folder');
      await fs.mkdir(path.dirname(target), { recursive: true });
      const manifest = await readManifest();
      const entry: TrashEntry = {
        id: `${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`,
        path: p,
        trashPath: toVaultPath(path.relative(vaultDir, target)),
        kind,
        deletedAt: new Date().toISOString(),
      };
      await fs.rename(abs, target);
      manifest.entries.push(entry);
      await writeManifest(manifest);
      for (const note of await notesOf(entry, target)) deps.events.expect({ path: note, kind: 'delete' });
      return entry;
    });
  }

  async function list(): Promise<TrashEntry[]> {
    const manifest = await readManifest();
    return [...manifest.entries].sort((a, b) => b.deletedAt.localeCompare(a.deletedAt));
  }

  function findEntry(manifest: Manifest, id: string): TrashEntry {
    const entry = manifest.entries.find((e) => e.id === id);
    if (!entry) throw notFound('No such entry in the trash.');
    return entry;
  }

  async function restore(id: string): Promise<{ path: VaultPath }> {
    // The folder it returns to is held too: the name beside a taken one is chosen and
    // used with no save able to take that name in between.
    const wanted = (await readManifest()).entries.find((e) => e.id === id);
    return holding(wanted ? [parentOf(wanted.path)] : [], async () => {
      const manifest = await readManifest();
      const entry = findEntry(manifest, id);
      const from = path.join(vaultDir, ...entry.trashPath.split('/'));
      if (!(await exists(from))) throw notFound('The trashed file is gone from .trash/.');
      let target = await deps.root.resolve(entry.path);
      if (await exists(target)) target = await nameBeside(target, entry.kind === 'folder');
      const restored = deps.root.relative(target);
      await deps.root.resolve(restored);
      const notes = await notesOf(entry, from);
      await fs.mkdir(path.dirname(target), { recursive: true });
      await fs.rename(from, target);
      manifest.entries = manifest.entries.filter((e) => e.id !== id);
      await writeManifest(manifest);
      for (const note of notes) {
        const now = (restored + note.slice(entry.path.length)) as VaultPath;
        // spec 3.3: a note restored beside a taken name takes its versions with it.
        if (now !== note) await deps.versions.move(note, now);
        deps.events.expect({ path: now, kind: 'write' });
      }
      return { path: restored };
    });
  }

  async function eraseEntry(entry: TrashEntry): Promise<void> {
    const abs = path.join(vaultDir, ...entry.trashPath.split('/'));
    const notes = (await exists(abs)) ? await notesOf(entry, abs) : entry.kind === 'note' ? [entry.path] : [];
    await fs.rm(abs, { recursive: true, force: true });
    for (const note of notes) {
      // The history belongs to a live note that has taken the same path.
      const live = await exists(path.join(vaultDir, ...note.split('/')));
      if (!live) await deps.versions.erase(note);
    }
  }

  async function erase(id: string): Promise<void> {
    if (!id) throw refuse('bad_id', 'An entry id is required.');
    await holding([], async () => {
      const manifest = await readManifest();
      const entry = findEntry(manifest, id);
      await eraseEntry(entry);
      manifest.entries = manifest.entries.filter((e) => e.id !== id);
      await writeManifest(manifest);
    });
  }

  async function empty(): Promise<{ erased: number }> {
    return holding([], async () => {
      const manifest = await readManifest();
      for (const entry of manifest.entries) await eraseEntry(entry);
      // Whatever else lies in the bin (e.g. Obsidian's own deletions) goes too.
      for (const name of await fs.readdir(trashDir).catch(() => [] as string[])) {
        if (name !== TRASH_MANIFEST) await fs.rm(path.join(trashDir, name), { recursive: true, force: true });
      }
      const erased = manifest.entries.length;
      await writeManifest({ entries: [] });
      return { erased };
    });
  }

  return { remove, list, restore, erase, empty };
}
