// Every write of a note or a data file goes through here: temp file in the same
// folder, fsync, rename over the target, fsync the folder. A crash at any instant
// leaves either the old or the new content, never a torn file.
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

export interface AtomicWriteOptions {
  /** File mode of the new file. Data-directory files use 0o600 (the default). */
  mode?: number;
  /** Create missing parent folders first. */
  mkdir?: boolean;
}

/** Prefix of temp files, so watchers and tree listings can skip them. */
export const TEMP_PREFIX = '.~vs-';

export function isTempFile(name: string): boolean {
  return path.basename(name).startsWith(TEMP_PREFIX);
}

export async function writeFileAtomic(
  target: string,
  data: string | Uint8Array,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const mode = options.mode ?? 0o600;
  const dir = path.dirname(target);
  if (options.mkdir) await fs.mkdir(dir, { recursive: true });
  const temp = path.join(dir, `${TEMP_PREFIX}${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fs.open(temp, 'wx', mode);
  try {
    await handle.writeFile(data);
    // open() applies the umask; chmod makes the mode exact.
    await handle.chmod(mode);
    await handle.sync();
  } catch (err) {
    await handle.close().catch(() => {});
    await fs.rm(temp, { force: true });
    throw err;
  }
  await handle.close();
  try {
    await fs.rename(temp, target);
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await fsyncDir(dir);
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
