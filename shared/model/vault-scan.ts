// Finds the notes of a vault: every .md/.markdown/.tex file outside the service's
// own folders, dot-folders, temp files and an in-vault data directory.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isTempFile } from '../atomic-write.ts';
import { isNotePath, RESERVED_TOP, toVaultPath, type VaultPath } from '../vault-path.ts';

export function isSkippedName(name: string): boolean {
  return name.startsWith('.') || isTempFile(name) || name === 'node_modules';
}

/** True when a vault path lies somewhere the public side never reads. */
export function isSkippedPath(p: string): boolean {
  const segments = p.split('/');
  if (RESERVED_TOP.includes(segments[0]!.toLowerCase())) return true;
  return segments.some(isSkippedName);
}

export async function scanNotes(vaultDir: string, skipDirs: string[] = []): Promise<VaultPath[]> {
  const out: VaultPath[] = [];
  async function walk(dir: string): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const folders: string[] = [];
    for (const entry of entries) {
      if (isSkippedName(entry.name)) continue;
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!skipDirs.some((d) => abs === d || abs.startsWith(d + path.sep))) folders.push(abs);
      } else if (entry.isFile() && isNotePath(entry.name)) {
        out.push(toVaultPath(path.relative(vaultDir, abs)));
      }
    }
    await Promise.all(folders.map(walk));
  }
  await walk(vaultDir);
  return out.sort();
}

/** Runs `task` over `items` with at most `limit` running at once. */
export async function mapLimit<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  });
  await Promise.all(workers);
  return results;
}
