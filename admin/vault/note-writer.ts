// The single write path for notes (spec 9, STYLE.md "Writes"): keep the prior text as a version,
// then temp-file + rename, then `expect` on the change bus (the watcher announces it). Autosave,
// restore, link rewrites and scripts all come through `writeNote`. A path is checked where it
// really leads before its lock is waited for (a bad one is refused at once) and again once
// held: the wait can last while another server holds the vault write lock, and a folder
// swapped for a link meanwhile must not take the write outside the vault (rename.ts and
// trash.ts check again too).
import { promises as fs } from 'node:fs';
import { commitTemp, mkdirFor, writeTempDurable } from '../../shared/atomic-write.ts';
import { log } from '../../shared/log.ts';
import { DomainError, refuse } from '../../shared/errors.ts';
import { MAX_NOTE_BYTES } from '../../shared/model/note-reader.ts';
import { readRegularFile } from '../../shared/vault-read.ts';
import type { VaultEvents } from '../../shared/vault-events.ts';
import { nameClash, newFoldersProblem, newNameProblem, type VaultPath, type VaultRoot } from '../../shared/vault-path.ts';
import { bytesHash, type KeepRequest, type VersionReason, type VersionStore } from '../versions/version-store.ts';
import { PathLocks } from './path-locks.ts';

export interface WriteOptions {
  /**
   * The modification time the caller loaded; a mismatch refuses the write (spec 3.6) unless
   * the disk still holds the very bytes the caller loaded (a touch, a sync client): `baseHash`
   * names them, else what this server last read or wrote at that time.
   */
  baseMtimeMs?: number;
  /** The SHA-1 of the bytes the caller loaded (`hash` of a read or a write). */
  baseHash?: string;
  /**
   * The caller writes over a text it has not shown anyone (Keep my version): what it
   * replaces is always kept, even inside the merge window.
   */
  overwrite?: boolean;
  reason?: VersionReason;
  /** A file made by this write takes a name the admin chose: it must travel (newNameProblem). */
  naming?: boolean;
  /**
   * The replaced text must be kept as a version (a restore, spec 4.2): with versions off or a
   * note over the size they keep too, and the write is refused when it cannot be kept.
   */
  mustKeep?: boolean;
}

export interface WriteResult {
  path: VaultPath;
  mtimeMs: number;
  created: boolean;
  /** The SHA-1 of the bytes now on disk: a later save's `baseHash`. */
  hash: string;
}

/** How many notes' last seen (mtime, hash) pairs are remembered for saves that send only an mtime. */
const SEEN_NOTES = 2000;

export interface NoteWriterDeps {
  root: VaultRoot;
  versions: VersionStore;
  /** Told of each write (the watcher announces it). */
  events: VaultEvents;
  /** Read at each write: the Keep note versions setting, else NOTE_VERSIONS. */
  versionsEnabled: () => boolean | Promise<boolean>;
  /** The vault's path locks (one service for every mutation; made in the admin context). */
  locks?: PathLocks;
}

export type NoteWriter = ReturnType<typeof createNoteWriter>;

/** No one may write the file: a save of it is refused (`read_only`), as Obsidian refuses it. */
const isReadOnly = (stats: { mode: number }): boolean => (stats.mode & 0o222) === 0;

async function statOrNull(file: string) {
  try {
    return await fs.stat(file);
  } catch (err) {
    // A file where a folder of the path should be (ENOTDIR): no note there either.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw err;
  }
}

export function createNoteWriter(deps: NoteWriterDeps) {
  const locks = deps.locks ?? new PathLocks();
  /** What this server last read or wrote at each note: its mtime then and the bytes' hash. */
  const seen = new Map<VaultPath, { mtimeMs: number; hash: string }>();
  const see = (p: VaultPath, mtimeMs: number, hash: string) => {
    seen.delete(p);
    seen.set(p, { mtimeMs, hash });
    if (seen.size > SEEN_NOTES) seen.delete(seen.keys().next().value!);
  };

  /**
   * spec 3.6: a save is stale when the note changed since the caller loaded it. A moved mtime
   * over the same bytes (touch, a sync client copying the file back) is no change.
   */
  function isStale(p: VaultPath, options: WriteOptions, before: { mtimeMs: number } | null, data: Buffer | null): boolean {
    if (options.baseMtimeMs === undefined) return false;
    if (before === null || data === null) return true;
    if (before.mtimeMs === options.baseMtimeMs) return false;
    const known = seen.get(p);
    const base = options.baseHash ?? (known?.mtimeMs === options.baseMtimeMs ? known.hash : undefined);
    return base === undefined || base !== bytesHash(data);
  }

  async function keepVersion(p: VaultPath, request: KeepRequest, enabled: boolean): Promise<void> {
    try {
      if (!enabled) return;
      await deps.versions.keep(p, request);
    } catch (err) {
      // spec: a failure to keep a version is logged and never fails the save.
      log.error(`could not keep a version of ${p}: ${(err as Error).message}`);
    }
  }

  async function keepOrRefuse(p: VaultPath, request: KeepRequest): Promise<void> {
    try {
      await deps.versions.keep(p, request);
    } catch (err) {
      log.error(`could not keep a version of ${p}: ${(err as Error).message}`);
      throw refuse('not_kept', 'The note\'s current text could not be kept as a version, so nothing was written.');
    }
  }

  /** The setting is read at each write; a settings file that can't be read keeps versions. */
  async function versionsEnabled(): Promise<boolean> {
    try {
      return await deps.versionsEnabled();
    } catch (err) {
      log.error(`could not read the Keep note versions setting: ${(err as Error).message}`);
      return true;
    }
  }

  /** `content` is text, or exact bytes (a restore puts back what a version kept, byte for byte). */
  async function writeNote(p: VaultPath, content: string | Uint8Array, options: WriteOptions = {}): Promise<WriteResult> {
    await deps.root.resolveForChange(p);
    return locks.run([p], async () => writeLocked(p, await deps.root.resolveForChange(p), content, options));
  }

  /**
   * Read, change and write one note under its lock, so nothing lands between the read
   * and the write (a link rewrite). `change` answers null to leave the note as it is.
   */
  async function updateNote(p: VaultPath, change: (text: string, bytes: Buffer) => string | null, options: WriteOptions = {}): Promise<WriteResult | null> {
    await deps.root.resolveForChange(p);
    return locks.run([p], async () => {
      const file = await deps.root.resolveForChange(p);
      // A folder, a pipe or a note too big to read is left as it is.
      const current = await readRegularFile(file, MAX_NOTE_BYTES).catch((err: unknown) => {
        if (err instanceof DomainError) return null;
        throw err;
      });
      if (!current) return null;
      const next = change(current.data.toString('utf8'), current.data);
      // No baseMtimeMs: the lock is held from the read to the write, nothing came between.
      return next === null ? null : writeLocked(p, file, next, options);
    });
  }

  /** The write itself; the caller holds the path's lock. */
  async function writeLocked(p: VaultPath, file: string, content: string | Uint8Array, options: WriteOptions): Promise<WriteResult> {
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content);
    // The text it replaces, read first: a folder, a pipe or an oversize note is refused here, at once.
    const current = await readRegularFile(file, MAX_NOTE_BYTES);
    const before = current?.stats ?? null;
    const nameProblem = before === null && options.naming ? (newNameProblem(p) ?? (await newFoldersProblem(deps.root.dir, p))) : null;
    if (nameProblem) throw refuse('bad_name', nameProblem.message, nameProblem.details);
    const clash = before === null && options.naming ? await nameClash(deps.root.dir, p) : null;
    if (clash) throw refuse('exists', clash.message, clash.details);
    if (isStale(p, options, before, current?.data ?? null)) {
      throw refuse('stale', 'The note changed on disk since it was loaded; nothing was written.', {
        mtimeMs: before?.mtimeMs ?? null,
      });
    }
    // Bytes, not text: a note that is not valid UTF-8 is kept exactly as it was.
    const previous = current?.data ?? null;
    let keep = false;
    if (before) {
      keep = await versionsEnabled();
      if (previous!.equals(data)) {
        const hash = bytesHash(data);
        see(p, before.mtimeMs, hash);
        return { path: p, mtimeMs: before.mtimeMs, created: false, hash };
      }
      // A file no one may write (`chmod a-w`, a read-only attribute a sync tool carried over) is
      // the owner's protection: Obsidian refuses to save it, and so does every writer here.
      if (isReadOnly(before)) {
        throw refuse('read_only', 'This note is read-only on disk (its file has no write permission), so nothing was written. Make the file writable to edit it here.');
      }
    } else {
      await mkdirFor(file);
    }
    // The new text's temp file is written while the old text is kept as a version;
    // the rename that replaces the note waits for both (version first, spec 9).
    const request = before ? { data: previous!, savedAtMs: before.mtimeMs, reason: options.reason ?? 'Earlier save', overwrite: options.overwrite, anySize: options.mustKeep } : null;
    // A restore's replaced text is kept first, whatever the setting: no version, no restore
    // (it once replaced the text for good with versions off, or over 2 MB: a reviewer's find).
    if (request && options.mustKeep) await keepOrRefuse(p, request);
    const [{ temp, stats }] = await Promise.all([
      writeTempDurable(file, data, before ? before.mode & 0o777 : 0o644),
      request && !options.mustKeep ? keepVersion(p, request, keep) : undefined,
    ]);
    await commitTemp(temp, file);
    let after = stats;
    // Coarse filesystem clocks could give the new text the old mtime; a save must
    // always move the mtime forward or a stale client would not be caught.
    if (before && after.mtimeMs <= before.mtimeMs) {
      const bumped = new Date(Math.floor(before.mtimeMs) + 1);
      await fs.utimes(file, bumped, bumped);
      after = await fs.stat(file);
    }
    deps.versions.recordWrite(p, data, after.mtimeMs);
    deps.events.expect({ path: p, kind: 'write' });
    const hash = bytesHash(data);
    see(p, after.mtimeMs, hash);
    return { path: p, mtimeMs: after.mtimeMs, created: before === null, hash };
  }

  /**
   * `hash`: the SHA-1 of the bytes read, which a save may send back as its `baseHash`;
   * `readOnly`: every save of it is refused, so the editor shows it read-only.
   */
  async function readNote(p: VaultPath): Promise<{ path: VaultPath; content: string; mtimeMs: number; hash: string; readOnly: boolean } | null> {
    const read = await readRegularFile(await deps.root.resolve(p), MAX_NOTE_BYTES).catch((err: unknown) => {
      if (err instanceof DomainError && err.code === 'is_folder') return null;
      throw err;
    });
    if (!read) return null;
    const hash = bytesHash(read.data);
    see(p, read.stats.mtimeMs, hash);
    return { path: p, content: read.data.toString('utf8'), mtimeMs: read.stats.mtimeMs, hash, readOnly: isReadOnly(read.stats) };
  }

  /** What an open editor re-checks: the file's mtime (null: no note there) and whether it may be written. */
  async function stateOf(p: VaultPath): Promise<{ mtimeMs: number | null; readOnly: boolean }> {
    const stat = await statOrNull(await deps.root.resolve(p));
    return stat?.isFile() ? { mtimeMs: stat.mtimeMs, readOnly: isReadOnly(stat) } : { mtimeMs: null, readOnly: false };
  }

  async function mtimeOf(p: VaultPath): Promise<number | null> {
    return (await stateOf(p)).mtimeMs;
  }

  return { writeNote, updateNote, readNote, stateOf, mtimeOf, locks };
}
