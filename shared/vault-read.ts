// Reading a vault file. Every read opens the file with O_NONBLOCK and checks the opened
// handle with fstat before reading: a FIFO, a socket or a device at a vault path is refused
// at once (CONTRACT §15), never waited on (a blocked open holds one of libuv's four threads;
// four of them stopped every file request of the server).
//
// readVaultFile also follows no symbolic link anywhere on the way (CONTRACT §11): every
// folder on the path is checked with lstat and the file itself is opened with O_NOFOLLOW,
// so a name swapped for a link after the check fails to open instead of reading outside
// the vault. For the few files read by name rather than found by the walk: the favicon,
// `.obsidian/app.json`, a search hit's line, and a kept version below the data directory.
import { closeSync, constants, fstatSync, lstatSync, openSync, promises as fs, readFileSync, readSync, rmSync, writeSync, type Stats } from 'node:fs';
import path from 'node:path';
import { refuse } from './errors.ts';

const OPEN_TO_READ = constants.O_RDONLY | constants.O_NONBLOCK;

export interface OpenOptions {
  /** false: a link as the file's own name is refused (O_NOFOLLOW), for a file the server reads by a fixed name. */
  followLink?: boolean;
}

/** A file's bytes and its status, both from the one handle they were read through. */
export interface RegularFile {
  data: Buffer;
  stats: Stats;
}

const mb = (bytes: number) => Math.ceil(bytes / 1024 / 1024);
const MB = (bytes: number) => `${mb(bytes)} MB`;

/**
 * The regular file at absolute `file` (a note, an attachment), read through one handle
 * checked with fstat; null when nothing is there. Refused (a 4xx): `not_a_file` for a FIFO,
 * socket or device, `is_folder`, and `too_large` past `maxBytes`.
 */
export async function readRegularFile(file: string, maxBytes: number, options: OpenOptions = {}): Promise<RegularFile | null> {
  const opened = await openRegularFile(file, options);
  if (!opened) return null;
  const { handle, stats } = opened;
  try {
    if (stats.size > maxBytes) throw refuse('too_large', `The file is ${MB(stats.size)}, over the ${MB(maxBytes)} the server reads.`, { reason: 'read', sizeMb: mb(stats.size), maxMb: mb(maxBytes) });
    const data = await handle.readFile();
    // It grew past the cap between the fstat and the read.
    if (data.length > maxBytes) throw refuse('too_large', `The file is over the ${MB(maxBytes)} the server reads.`, { reason: 'read_grew', maxMb: mb(maxBytes) });
    return { data, stats };
  } finally {
    await handle.close();
  }
}

/**
 * The regular file at absolute `file`, opened to read (the caller closes it), with its
 * status; null when nothing is there. Refused: `not_a_file`, `is_folder`.
 */
export async function openRegularFile(file: string, options: OpenOptions = {}): Promise<{ handle: fs.FileHandle; stats: Stats } | null> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, options.followLink === false ? OPEN_TO_READ | constants.O_NOFOLLOW : OPEN_TO_READ);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    // A socket cannot be opened at all.
    if (code === 'ENXIO' || code === 'EOPNOTSUPP') throw notAFile();
    if (code === 'ELOOP' && options.followLink === false) throw refuse('not_a_file', 'That path is a symbolic link; the server does not follow it.', { reason: 'link' });
    throw err;
  }
  try {
    const stats = await handle.stat();
    if (stats.isDirectory()) throw refuse('is_folder', 'That path is a folder.');
    if (!stats.isFile()) throw notAFile();
    return { handle, stats };
  } catch (err) {
    await handle.close();
    throw err;
  }
}

export const notAFile = () => refuse('not_a_file', 'That path is not a regular file (a pipe, a socket or a device); the server does not read or write it.', { reason: 'special' });

/**
 * The bytes of the regular file at vault-relative `rel` (with `/`), or null when it is
 * missing, not a regular file, over `maxBytes`, or reached through a link.
 */
export async function readVaultFile(vaultDir: string, rel: string, maxBytes = Infinity): Promise<Buffer | null> {
  const parts = rel.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return null;
  let cur = vaultDir;
  for (const folder of parts.slice(0, -1)) {
    cur = path.join(cur, folder);
    const stats = await fs.lstat(cur).catch(() => null);
    if (!stats?.isDirectory()) return null;
  }
  let handle: fs.FileHandle | null = null;
  try {
    handle = await fs.open(path.join(cur, parts[parts.length - 1]!), OPEN_TO_READ | constants.O_NOFOLLOW);
    const stats = await handle.stat();
    if (!stats.isFile() || stats.size > maxBytes) return null;
    return await handle.readFile();
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

/** readVaultFile as UTF-8 text. */
export async function readVaultText(vaultDir: string, rel: string, maxBytes = Infinity): Promise<string | null> {
  return (await readVaultFile(vaultDir, rel, maxBytes))?.toString('utf8') ?? null;
}

/**
 * The bytes of the regular file at absolute `file`, or null when it is missing, not a
 * regular file (checked on the opened file: a FIFO opened without O_NONBLOCK would wait for a
 * writer), over `maxBytes`, or a link. For a builder's synchronous copy of a vault file.
 */
export function readRegularFileSync(file: string, maxBytes = Infinity): Buffer | null {
  let fd: number | null = null;
  try {
    fd = openSync(file, OPEN_TO_READ | constants.O_NOFOLLOW);
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxBytes) return null;
    return readFileSync(fd);
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/**
 * A handle on the regular file at vault-relative `rel`, reached without a link (every folder
 * checked with lstat, the file opened with O_NOFOLLOW and checked with fstat), and its size;
 * null otherwise. The caller closes it.
 */
function openVaultFileSync(vaultDir: string, rel: string): { fd: number; size: number } | null {
  const parts = rel.split('/');
  if (parts.some((part) => part === '' || part === '.' || part === '..')) return null;
  let cur = vaultDir;
  for (const folder of parts.slice(0, -1)) {
    cur = path.join(cur, folder);
    if (!lstatSync(cur, { throwIfNoEntry: false })?.isDirectory()) return null;
  }
  let fd: number;
  try {
    fd = openSync(path.join(cur, parts[parts.length - 1]!), OPEN_TO_READ | constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  const stats = fstatSync(fd);
  if (stats.isFile()) return { fd, size: stats.size };
  closeSync(fd);
  return null;
}

/** readVaultFile for a builder's synchronous read (an SVG a snapshot writes again). */
export function readVaultFileSync(vaultDir: string, rel: string, maxBytes = Infinity): Buffer | null {
  const opened = openVaultFileSync(vaultDir, rel);
  if (!opened) return null;
  try {
    if (opened.size > maxBytes) return null;
    const data = readFileSync(opened.fd);
    return data.length > maxBytes ? null : data;
  } catch {
    return null;
  } finally {
    closeSync(opened.fd);
  }
}

/** The first `bytes` bytes (fewer when the file is shorter) of the regular file at vault-relative `rel`, as readVaultFileSync reaches it; null otherwise. */
export function readVaultHeadSync(vaultDir: string, rel: string, bytes: number): Buffer | null {
  const opened = openVaultFileSync(vaultDir, rel);
  if (!opened) return null;
  try {
    const head = Buffer.alloc(Math.min(bytes, opened.size));
    let got = 0;
    for (let n; got < head.length && (n = readSync(opened.fd, head, got, head.length - got, got)) > 0; ) got += n;
    return head.subarray(0, got);
  } catch {
    return null;
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Copies the regular file at vault-relative `rel` to absolute `target` through the one
 * checked handle; false, nothing left at `target`, otherwise. A builder copies an attachment
 * the walk found a while ago: a name swapped meanwhile for a link (a pull checks links out)
 * would have been followed out of the vault into the public site, a FIFO would have held
 * the build for good.
 */
export function copyVaultFileSync(vaultDir: string, rel: string, target: string): boolean {
  const opened = openVaultFileSync(vaultDir, rel);
  if (!opened) return false;
  let to: number | null = null;
  let copied = false;
  try {
    to = openSync(target, 'w');
    const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, Math.max(opened.size, 1)));
    for (let n; (n = readSync(opened.fd, chunk, 0, chunk.length, null)) > 0; ) {
      for (let done = 0; done < n; ) done += writeSync(to, chunk, done, n - done);
    }
    copied = true;
    return true;
  } catch {
    return false;
  } finally {
    closeSync(opened.fd);
    if (to !== null) closeSync(to);
    // Half a file is no copy.
    if (to !== null && !copied) rmSync(target, { force: true });
  }
}
