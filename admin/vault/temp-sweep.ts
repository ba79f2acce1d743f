// A crash between writing a temp file and renaming it leaves `.~vs-*.tmp` behind.
// At start, sweep those older than a minute (younger ones may be another server's
// write in flight) from the vault and the data directory, so git never commits them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isTempFile } from '../../shared/atomic-write.ts';
import { log } from '../../shared/log.ts';

const MIN_AGE_MS = 60_000;

export async function sweepTempFiles(dirs: string[], now = Date.now()): Promise<number> {
  let removed = 0;
  async function walk(dir: string): Promise<void> {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const abs = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== '.git' && entry.name !== 'node_modules') await walk(abs);
      } else if (entry.isFile() && isTempFile(entry.name)) {
        const stat = await fs.stat(abs).catch(() => null);
        if (stat && now - stat.mtimeMs > MIN_AGE_MS) {
          await fs.rm(abs, { force: true });
          removed++;
        }
      }
    }
  }
  for (const dir of dirs) await walk(dir);
  if (removed > 0) log.warn(`removed ${removed} temp file(s) left by an interrupted write`);
  return removed;
}
