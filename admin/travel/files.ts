// Filesystem primitives of the mirror. A vault can come from anywhere (a clone, a
// shared folder), so nothing below the two roots is followed through a symlink: a
// link planted in `.service/` must not pull a private file into the vault or the
// data directory. Reads are hashed once per (inode, size, mtime).
import { createHash } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import { DomainError } from '../../shared/errors.ts';
import { isCarriableName } from './items.ts';

export interface FileState {
  size: number;
  mtimeMs: number;
  hash: string;
}

/** A mirrored file that could not be copied; its code is the reason the report names. */
export class TravelFileError extends DomainError {
  constructor(
    readonly reason: 'permission' | 'symlink' | 'not_a_file' | 'io',
    message: string,
  ) {
    super(reason, message);
    this.name = 'TravelFileError';
  }
}

function asTravelError(err: unknown): TravelFileError {
  if (err instanceof TravelFileError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return new TravelFileError('permission', 'permission denied');
  return new TravelFileError('io', code ? `could not be read or written (${code})` : 'could not be read or written');
}

/** Rejects a symlink anywhere between `root` and `rel` (the root itself is trusted). */
async function checkNoLinks(root: string, rel: string, includeLast: boolean): Promise<void> {
  const parts = rel.split('/');
  const upto = includeLast ? parts.length : parts.length - 1;
  let cur = root;
  for (let i = 0; i < upto; i++) {
    cur = path.join(cur, parts[i]!);
    let st;
    try {
      st = await fs.lstat(cur);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw asTravelError(err);
    }
    if (st.isSymbolicLink()) throw new TravelFileError('symlink', 'is behind a symbolic link; it is not followed');
    if (i < parts.length - 1 && !st.isDirectory()) throw new TravelFileError('not_a_file', 'a file stands where a folder should be');
  }
}

export class TravelFiles {
  private cache = new Map<string, { ino: number; size: number; mtimeMs: number; hash: string }>();

  /** State of a regular file at root/rel, or null when absent. Throws TravelFileError. */
  async state(root: string, rel: string): Promise<FileState | null> {
    await checkNoLinks(root, rel, false);
    const abs = path.join(root, rel);
    let st;
    try {
      st = await fs.lstat(abs);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        this.cache.delete(abs);
        return null;
      }
      throw asTravelError(err);
    }
    if (st.isSymbolicLink()) throw new TravelFileError('symlink', 'is a symbolic link; it is not followed');
    if (!st.isFile()) throw new TravelFileError('not_a_file', 'is not a regular file');
    const hit = this.cache.get(abs);
    if (hit && hit.ino === st.ino && hit.size === st.size && hit.mtimeMs === st.mtimeMs) {
      return { size: hit.size, mtimeMs: hit.mtimeMs, hash: hit.hash };
    }
    const bytes = await this.read(root, rel);
    const hash = hashBytes(bytes);
    this.cache.set(abs, { ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, hash });
    return { size: st.size, mtimeMs: st.mtimeMs, hash };
  }

  async read(root: string, rel: string): Promise<Buffer> {
    await checkNoLinks(root, rel, false);
    try {
      // O_NOFOLLOW: the last component can't have become a link since the lstat; nor, by
      // O_NONBLOCK and the fstat, a FIFO that would hold the mirror for good.
      const handle = await fs.open(path.join(root, rel), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
      try {
        if (!(await handle.stat()).isFile()) throw new TravelFileError('not_a_file', 'is not a regular file');
        return await handle.readFile();
      } finally {
        await handle.close();
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new TravelFileError('symlink', 'is a symbolic link; it is not followed');
      throw asTravelError(err);
    }
  }

  /** Writes by temp file + rename, folders made as real folders, the mtime kept when given. */
  async write(root: string, rel: string, bytes: Uint8Array, options: { mode: number; mtimeMs?: number }): Promise<void> {
    await checkNoLinks(root, rel, false);
    const abs = path.join(root, rel);
    try {
      await fs.mkdir(path.dirname(abs), { recursive: true });
      await checkNoLinks(root, rel, false);
      const existing = await fs.lstat(abs).catch(() => null);
      if (existing && !existing.isFile()) throw new TravelFileError('not_a_file', 'is not a regular file');
      await writeFileAtomic(abs, bytes, { mode: options.mode });
      if (options.mtimeMs !== undefined) {
        const when = new Date(options.mtimeMs);
        await fs.utimes(abs, when, when);
      }
    } catch (err) {
      throw asTravelError(err);
    }
  }

  async remove(root: string, rel: string): Promise<void> {
    await checkNoLinks(root, rel, false);
    try {
      await fs.rm(path.join(root, rel), { force: true });
      this.cache.delete(path.join(root, rel));
    } catch (err) {
      throw asTravelError(err);
    }
  }

  /** Files (and links, to be refused) under root/dir, relative to root, `/`-separated. */
  async list(root: string, dir: string, limit: number, depth = 4): Promise<string[]> {
    try {
      await checkNoLinks(root, dir, true);
    } catch {
      return [];
    }
    const out: string[] = [];
    const walk = async (rel: string, level: number): Promise<void> => {
      let entries;
      try {
        entries = await fs.readdir(path.join(root, rel), { withFileTypes: true });
      } catch {
        return;
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      for (const entry of entries) {
        if (out.length >= limit) return;
        if (!isCarriableName(entry.name)) continue;
        const child = `${rel}/${entry.name}`;
        // A link is listed so the pass names it as refused; it is never followed.
        if (entry.isFile() || entry.isSymbolicLink()) out.push(child);
        else if (entry.isDirectory() && level < depth) await walk(child, level + 1);
      }
    };
    await walk(dir, 0);
    return out;
  }
}

export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
