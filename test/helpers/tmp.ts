import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const made: string[] = [];

/** A fresh temp folder, removed by `cleanupTempDirs`. */
export async function tempDir(prefix = 'vs-test-'): Promise<string> {
  const dir = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

export async function cleanupTempDirs(): Promise<void> {
  // A store's debounced write may land while its folder is removed (ENOTEMPTY): rm tries again.
  while (made.length) await fs.rm(made.pop()!, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
}

/** Writes files given as { 'a/b.md': 'text' } under `dir`. */
export async function writeFiles(dir: string, files: Record<string, string>): Promise<void> {
  // Each folder made once: a vault of thousands of notes in a few folders asked for it at every note.
  const made = new Set<string>();
  for (const [rel, text] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    const folder = path.dirname(abs);
    if (!made.has(folder)) {
      await fs.mkdir(folder, { recursive: true });
      made.add(folder);
    }
    await fs.writeFile(abs, text);
  }
}

/** Every file below `dir` (absolute paths); a missing folder gives none. */
export async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(p);
    }
  };
  await walk(dir);
  return out;
}

/**
 * Every file under `dir` by its relative path ('/'-separated), with its bytes as latin1 text (a
 * char a byte: equal text is equal bytes, and a mismatch still reads); read synchronously, as a
 * promise per small file costs far more.
 */
export function treeOf(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) out.set(path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'), readFileSync(path.join(entry.parentPath, entry.name), 'latin1'));
  }
  return out;
}
