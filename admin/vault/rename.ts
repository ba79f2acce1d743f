// Rename or move a note, attachment or folder (CONTRACT §3): the versions and the
// creation memory move with it, and the links in other notes (where the page reads
// links: shared/note/link-places.ts, never in code) are rewritten through the write
// path, each rewritten note keeping a `Before a link rewrite` version.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makeFolders } from '../../shared/atomic-write.ts';
import type { CreatedStore } from '../../shared/created-store.ts';
import { notFound, refuse } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';
import type { VaultEvents } from '../../shared/vault-events.ts';
import { baseName, isNotePath, nameClash, newFoldersProblem, newNameProblem, stripExtension, type VaultPath, type VaultRoot } from '../../shared/vault-path.ts';
import { rewriteNoteLinks } from '../../shared/markdown-links.ts';
import { composed, sameName } from '../../shared/vault-names.ts';
import type { VersionStore } from '../versions/version-store.ts';
import type { NoteWriter } from './note-writer.ts';
import type { RenameJournal } from './rename-journal.ts';
import { walkVault } from './tree.ts';
import { mapLimit } from '../../shared/vault-walk.ts';

/** Link rewrites run side by side (measured: 600 notes in one folder, see rewriteLinks). */
const REWRITES_AT_ONCE = 16;

export interface RenameDeps {
  root: VaultRoot;
  writer: NoteWriter;
  versions: VersionStore;
  created: CreatedStore;
  events: VaultEvents;
  /** Absolute folders the vault walk leaves out (an in-vault data directory). */
  skipDirs: string[];
  /** Told after a note or folder moved (its comments follow it). */
  moved?: (from: VaultPath, to: VaultPath) => void;
  /** Where a rename records itself until its links are rewritten (rename-journal.ts); none in some tests. */
  journal?: RenameJournal;
}

interface LinkForm {
  written: string;
  next: string;
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** A Markdown note is linked by its name without the extension, as Obsidian writes links. */
const MARKDOWN_EXT = /\.(md|markdown)$/i;
export const linkTargetOf = (p: string): string => p.replace(MARKDOWN_EXT, '');

/**
 * How links to a renamed file may be written, and what each becomes. A rewrite never
 * writes `.md` into a wikilink: a Markdown target is always written without it.
 */
export function fileLinkMapper(from: VaultPath, to: VaultPath, otherNames: Set<string>) {
  const note = isNotePath(from);
  const full: LinkForm[] = [{ written: from, next: linkTargetOf(to) }];
  if (note) full.push({ written: stripExtension(from), next: linkTargetOf(to) });
  const fromBase = baseName(from);
  const toBase = baseName(to);
  const base: LinkForm[] = [{ written: fromBase, next: linkTargetOf(toBase) }];
  if (note) base.push({ written: stripExtension(fromBase), next: linkTargetOf(toBase) });
  // A bare-name link is only ours when no other file shares the old name.
  const bareIsOurs = !otherNames.has(sameName(fromBase));
  const newBareIsUnique = !otherNames.has(sameName(toBase)) && !otherNames.has(sameName(linkTargetOf(toBase)));
  // Names compare as the resolver compares them: `[[Café]]` typed names the note a Mac named `Café.md` with a combining accent.
  return (target: string): string | null => {
    // A path from the vault's root (`/Folder/Note.md`) names the file whole, and stays rooted.
    if (target.startsWith('/')) {
      const name = sameName(target.slice(1));
      for (const form of full) if (name === sameName(form.written)) return '/' + form.next;
      return null;
    }
    const name = sameName(target);
    if (target.includes('/')) {
      for (const form of full) if (name === sameName(form.written)) return form.next;
      return null;
    }
    if (!bareIsOurs) return null;
    for (const [i, form] of base.entries()) {
      if (name !== sameName(form.written)) continue;
      return newBareIsUnique ? form.next : full[Math.min(i, full.length - 1)]!.next;
    }
    return null;
  };
}

export function folderLinkMapper(from: VaultPath, to: VaultPath) {
  const prefix = sameName(from) + '/';
  const length = composed(from).length;
  return (target: string): string | null => {
    const rooted = target.startsWith('/');
    const written = composed(rooted ? target.slice(1) : target);
    return sameName(written).startsWith(prefix) ? (rooted ? '/' : '') + linkTargetOf(to + written.slice(length)) : null;
  };
}

export function createRenamer(deps: RenameDeps) {
  /** Answers the new path and the notes whose links were rewritten (an open window reloads those quietly). */
  async function rename(from: VaultPath, to: VaultPath): Promise<{ path: VaultPath; rewritten: VaultPath[] }> {
    if (from === to) throw refuse('same_path', 'The new path is the same as the old one.');
    if (to.startsWith(from + '/')) throw refuse('into_itself', 'A folder cannot be moved into itself.');
    // The name being made must travel; moving into a folder named otherwise earlier is fine.
    const nameProblem = (baseName(to) !== baseName(from) ? newNameProblem(to) : null) ?? (await newFoldersProblem(deps.root.dir, to));
    if (nameProblem) throw refuse('bad_name', nameProblem.message, nameProblem.details);
    await deps.root.resolveForChange(from);
    await deps.root.resolveForChange(to);
    // Both paths (a folder with all it holds) are locked while the move happens, so no save,
    // delete or other rename lands in between; the link rewrites follow, each under its own lock.
    // Checked again once held (note-writer.ts: a folder swapped for a link during the wait).
    const record = await deps.journal?.begin({ from, to });
    let folder: boolean;
    try {
      folder = await deps.writer.locks.run([from, to], async () =>
        move(from, to, await deps.root.resolveForChange(from), await deps.root.resolveForChange(to)),
      );
    } catch (err) {
      if (record) await deps.journal!.end(record);
      throw err;
    }
    deps.moved?.(from, to);
    const rewritten = await rewriteLinks(from, to, folder);
    if (record) await deps.journal!.end(record);
    return { path: to, rewritten };
  }

  /**
   * Finishes the renames a stopped server recorded but did not complete: where the move
   * happened (the new path is there, the old one is not), the links are rewritten (again:
   * the notes done already have none left to change). Called once at start.
   */
  async function resume(): Promise<void> {
    for (const { file, rename: { from, to } } of (await deps.journal?.pending()) ?? []) {
      const at = (p: VaultPath) => deps.root.resolve(p).then((abs) => fs.lstat(abs), () => null).catch(() => null);
      const [old, now] = [await at(from), await at(to)];
      if (!old && now) {
        log.warn(`rename: finishing ${from} → ${to}, which a stopped server left with links still to rewrite`);
        deps.moved?.(from, to);
        await rewriteLinks(from, to, now.isDirectory());
      }
      await deps.journal!.end(file);
    }
  }

  /** The move itself, under the locks of both paths; answers whether it moved a folder. */
  async function move(from: VaultPath, to: VaultPath, absFrom: string, absTo: string): Promise<boolean> {
    let stat;
    try {
      stat = await fs.stat(absFrom);
    } catch {
      throw notFound('Nothing exists at that path.', 'path');
    }
    if (!(await freeOrItself(absFrom, absTo))) throw refuse('exists', `${to} already exists: choose another name.`, { reason: 'taken', path: to });
    // Its own name in another case is fine; another entry's is not (vault-path.ts nameClash).
    const clash = await nameClash(deps.root.dir, to, from);
    if (clash) throw refuse('exists', clash.message, clash.details);
    const folder = stat.isDirectory();
    // A note that lost its extension becomes an attachment, its page 404s.
    if (!folder && isNotePath(from) && !isNotePath(to)) {
      throw refuse('keeps_extension', `A note keeps its extension: name it “${baseName(to)}${from.slice(stripExtension(from).length)}”.`, { name: `${baseName(to)}${from.slice(stripExtension(from).length)}` });
    }
    const moved = folder
      ? (await walkVault(deps.root.dir, deps.skipDirs, absFrom)).filter((e) => e.kind === 'note').map((e) => e.path)
      : [from];

    const made = await makeFolders(path.dirname(absTo));
    try {
      await fs.rename(absFrom, absTo);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
      // Another disk mounted inside the vault: nothing moved, and the folders made for it go again.
      if (made) await removeEmptyUpTo(path.dirname(absTo), made);
      throw refuse('other_disk', 'The new place is on another disk mounted inside the vault: a note or folder moves only within one disk.');
    }
    // A rename either completes or changes nothing. The file has moved, so
    // what follows is best-effort: a failure is logged, never answered as an error.
    // The creation memory first, before anything else is awaited: the watcher meets the new path only after this.
    await bestEffort(`the creation date of ${from}`, to, () => deps.created.move(from, to));

    const movedPairs = moved.map((old) => [old, (to + old.slice(from.length)) as VaultPath] as const);
    // The note's versions follow it (a trashed note's wait under its bin entry: trash.ts binVersions).
    for (const [old, next] of movedPairs) await bestEffort(`the versions of ${old}`, next, () => deps.versions.move(old, next));
    for (const [old, next] of movedPairs) {
      deps.events.expect({ path: old, kind: 'delete' });
      deps.events.expect({ path: next, kind: 'write' });
    }
    return folder;
  }

  /**
   * Whether the new path is free, or is the entry being renamed itself: a case-only rename on
   * a case-insensitive disk finds the same file (dev + inode) there. On a case-sensitive disk
   * `A.md` beside `a.md` is another note, and a rename never replaces it. A second hard link
   * to the same file is another name too: rename(2) would leave both and say it moved.
   */
  async function freeOrItself(absFrom: string, absTo: string): Promise<boolean> {
    const there = await fs.lstat(absTo).catch((err: NodeJS.ErrnoException) => {
      // ENOTDIR: a file stands where a folder of the new path should; making the folders says so.
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
      throw err;
    });
    if (!there) return true;
    const self = await fs.lstat(absFrom);
    return there.dev === self.dev && there.ino === self.ino && (self.isDirectory() || self.nlink === 1);
  }

  /** Removes `dir` and its parents up to `top`, each only while it is empty. */
  async function removeEmptyUpTo(dir: string, top: string): Promise<void> {
    for (let cur = dir; cur.length >= top.length; cur = path.dirname(cur)) {
      if (!(await fs.rmdir(cur).then(() => true, () => false))) return;
    }
  }

  /** A follow-up of a move that already happened: its failure is a log line. */
  async function bestEffort(what: string, to: VaultPath, task: () => Promise<void>): Promise<void> {
    try {
      await task();
    } catch (err) {
      log.warn(`rename: ${to} has moved, but ${what} could not move with it: ${(err as Error).message}`);
    }
  }

  async function rewriteLinks(from: VaultPath, to: VaultPath, folder: boolean): Promise<VaultPath[]> {
    const entries = await walkVault(deps.root.dir, deps.skipDirs);
    let map: (target: string) => string | null;
    if (folder) {
      map = folderLinkMapper(from, to);
    } else {
      const otherNames = new Set<string>();
      for (const e of entries) {
        if (e.kind === 'folder' || e.path === to) continue;
        const name = sameName(baseName(e.path));
        otherNames.add(name);
        if (isNotePath(name)) otherNames.add(stripExtension(name));
      }
      map = fileLinkMapper(from, to, otherNames);
    }
    const notes = entries.filter((e) => e.kind === 'note' && /\.(md|markdown)$/i.test(e.path)).map((e) => e.path);
    // Where a note the move took along lived: its relative links were written from there.
    const writtenAt = (p: VaultPath): string => (p === to ? from : folder && p.startsWith(to + '/') ? from + p.slice(to.length) : p);
    // A few at once: each waits mostly on the disk (two fsyncs), and the disk takes several
    // together in one journal commit. One at a time, 600 linking notes took 5 s; each note
    // still has its own lock, so no save lands between its read and its write.
    const outcomes = await mapLimit(notes, REWRITES_AT_ONCE, (p) =>
      // The move has happened: one note that cannot be rewritten is named in the log,
      // and the rename still completes.
      rewriteOne(p, map, writtenAt(p)).then(
        (outcome) => {
          if (outcome === 'not_utf8') log.warn(`rename ${from} → ${to}: ${p} is not UTF-8 text; its links were left as they are`);
          return outcome;
        },
        (err) => {
          log.warn(`rename ${from} → ${to}: could not rewrite the links in ${p}: ${(err as Error).message}`);
          return 'failed' as const;
        },
      ),
    );
    return notes.filter((_, i) => outcomes[i] === 'rewritten');
  }

  /**
   * Read, rewrite and write one note under its lock: a save cannot land in between and be lost.
   * A note whose bytes are not UTF-8 is left alone: its text, read as UTF-8, has lost them.
   */
  async function rewriteOne(p: VaultPath, map: (target: string) => string | null, writtenAt: string): Promise<'rewritten' | 'unchanged' | 'not_utf8'> {
    let notUtf8 = false;
    const written = await deps.writer.updateNote(
      p,
      (text, bytes) => {
        if (!text.includes('[[') && !text.includes('](') && !text.includes(']:')) return null;
        // A U+FFFD may stand for bytes that were not UTF-8.
        if (text.includes('\uFFFD') && !isUtf8(bytes)) {
          notUtf8 = true;
          return null;
        }
        const next = rewriteNoteLinks(text, p, map, writtenAt);
        return next === text ? null : next;
      },
      { reason: 'Before a link rewrite' },
    );
    return notUtf8 ? 'not_utf8' : written !== null ? 'rewritten' : 'unchanged';
  }

  return { rename, resume };
}
