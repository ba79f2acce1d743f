// Every write of a note or a data file goes through here: temp file in the same
// folder, fsync, rename over the target, fsync the folder. A crash at any instant
// leaves either the old or the new content, never a torn file.
import { randomBytes } from 'node:crypto';
import { promises as fs, readFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { DomainError } from './errors.ts';

/** No room left: the disk, a quota or a file-size limit. */
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT', 'EFBIG']);
/** The folder cannot be written at all. */
const NOT_WRITABLE = new Set(['EROFS', 'EACCES', 'EPERM']);

/**
 * A failed write as the error the answer names (a full disk is a clear
 * error, not a 500). The sentence names no path: the previous content is whole,
 * because the write never got past its temp file.
 */
export function storageFailure(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  if (NO_SPACE.has(code)) {
    return new DomainError('no_space', `The disk is full (${code}): nothing was written, and what was there before is unchanged.`, { reason: 'write', errno: code });
  }
  if (NOT_WRITABLE.has(code)) {
    return new DomainError('not_writable', `The folder cannot be written (${code}): nothing was written, and what was there before is unchanged.`, { reason: 'write', errno: code });
  }
  return err;
}

export interface AtomicWriteOptions {
  /** File mode of the new file. Data-directory files use 0o600 (the default). */
  mode?: number;
  /** Create missing parent folders first. */
  mkdir?: boolean;
}

/** The process umask, read once (chmod is only needed when it would strip wanted bits). */
const UMASK = (() => {
  try {
    const m = readFileSync('/proc/self/status', 'utf8').match(/^Umask:\s+([0-7]+)/m);
    return m ? parseInt(m[1]!, 8) : 0o777;
  } catch {
    return 0o777;
  }
})();

/** Prefix of temp files, so watchers and tree listings can skip them. */
export const TEMP_PREFIX = '.~vs-';

export function isTempFile(name: string): boolean {
  return path.basename(name).startsWith(TEMP_PREFIX);
}

export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array | Iterable<Uint8Array>,
  options: AtomicWriteOptions = {},
): Promise<Stats> {
  const dir = path.dirname(target);
  if (options.mkdir) await mkdirFor(target);
  const temp = path.join(dir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}.tmp`);
  const stats = await writeDurable(temp, data, options.mode ?? 0o600);
  await commitTemp(temp, target);
  // A rename keeps the inode, so these are the target's stats now.
  return stats;
}

/**
 * First half of an atomic write: the bytes, durable, in a temp file beside `target`.
 * Lets a caller prepare several files at once and then commit each with `commitTemp`.
 */
export async function writeTempDurable(
  target: string,
  data: string | Uint8Array,
  mode = 0o600,
): Promise<{ temp: string; stats: Stats }> {
  const temp = path.join(path.dirname(target), `${TEMP_PREFIX}${randomBytes(6).toString('hex')}.tmp`);
  const stats = await writeDurable(temp, data, mode);
  return { temp, stats };
}

/** `writeTempDurable` for a caller that needs no stats (one file-system call fewer). */
export async function writeTempDurableQuiet(target: string, data: string | Uint8Array, mode = 0o600): Promise<string> {
  const temp = path.join(path.dirname(target), `${TEMP_PREFIX}${randomBytes(6).toString('hex')}.tmp`);
  await writeDurable(temp, data, mode, false);
  return temp;
}

/** The folders a new file needs; a full or read-only disk is named as such. */
export async function mkdirFor(target: string, mode?: number): Promise<void> {
  await makeFolders(path.dirname(target), mode);
}

/**
 * `mkdir -p` whose failure says why: Node's recursive mkdir reports a read-only or full
 * disk as ENOENT, so on ENOENT the first missing folder is made on its own to learn the
 * real cause (EROFS, EACCES, ENOSPC), which `storageFailure` then names.
 */
export async function makeFolders(dir: string, mode?: number): Promise<string | undefined> {
  try {
    // The first folder it had to make (undefined: `dir` was there): a caller that fails after can take them away again.
    return await fs.mkdir(dir, { recursive: true, mode });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw storageFailure(err);
    let missing = dir;
    while (path.dirname(missing) !== missing && !(await exists(path.dirname(missing)))) missing = path.dirname(missing);
    try {
      await fs.mkdir(missing, { mode });
    } catch (cause) {
      throw storageFailure(cause);
    }
    throw storageFailure(err);
  }
}

const exists = (p: string) => fs.lstat(p).then(() => true, () => false);

/** Second half: rename the temp file over the target and make the rename durable. */
export async function commitTemp(temp: string, target: string, syncDir = true): Promise<void> {
  try {
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw storageFailure(err);
  }
  if (syncDir) await fsyncDir(path.dirname(target));
}

/**
 * Writes a file that must not exist yet (exclusive create) and fsyncs it. Safe
 * without a rename when nothing refers to the file until a later atomic commit.
 */
export async function writeDurable(file: string, data: string | Uint8Array | Iterable<Uint8Array>, mode?: number): Promise<Stats>;
export async function writeDurable(file: string, data: string | Uint8Array | Iterable<Uint8Array>, mode: number, withStats: false): Promise<null>;
export async function writeDurable(file: string, data: string | Uint8Array | Iterable<Uint8Array>, mode = 0o600, withStats = true): Promise<Stats | null> {
  const handle = await fs.open(file, 'wx', mode).catch((err) => {
    throw storageFailure(err);
  });
  let stats: Stats | null = null;
  try {
    await fs.writeFile(handle, data); // fs.writeFile: its types take chunks (a file written batch by batch), the handle's do not
    // open() applies the umask; chmod restores bits the umask stripped.
    if (mode & UMASK) await handle.chmod(mode);
    await handle.sync();
    if (withStats) stats = await handle.stat();
  } catch (err) {
    await handle.close().catch(() => {});
    await fs.rm(file, { force: true });
    throw storageFailure(err);
  }
  await handle.close().catch((err) => {
    // close() can report a delayed write error (NFS): the temp file goes, the target is untouched.
    void fs.rm(file, { force: true });
    throw storageFailure(err);
  });
  return stats;
}

/** Makes a rename or unlink in `dir` durable. */
export async function fsyncDir(dir: string): Promise<void> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename is still atomic.
  } finally {
    await handle?.close().catch(() => {});
  }
}

export async function writeJsonAtomic(target: string, value: unknown, options: AtomicWriteOptions = {}): Promise<void> {
  await writeFileAtomic(target, JSON.stringify(value, null, 2) + '\n', options);
}

/** Reads a JSON file; a missing file gives `fallback`, a malformed one throws. */
export async function readJson<T>(file: string, fallback: T): Promise<T> {
  let raw: string;
  try {
    raw = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return fallback;
    throw err;
  }
  return JSON.parse(raw) as T;
}
