// One way to read a single file below the vault root without following a symbolic link
// anywhere on the way (CONTRACT §11): every folder on the path is checked with lstat and
// the file itself is opened with O_NOFOLLOW, so a name swapped for a link after the check
// fails to open instead of reading outside the vault. For the few files read by name
// rather than found by the walk: the favicon, `.obsidian/app.json`, a search hit's line,
// and a kept version below the data directory (admin/versions/version-store.ts).
import { closeSync, constants, fstatSync, openSync, promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';

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
    handle = await fs.open(path.join(cur, parts[parts.length - 1]!), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
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
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stats = fstatSync(fd);
    if (!stats.isFile() || stats.size > maxBytes) return null;
    return readFileSync(fd);
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}
