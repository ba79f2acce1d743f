// A crash between writing a temp file and renaming it leaves `.~vs-*.tmp` behind.
// At start, sweep those older than a minute (younger ones may be another server's
// write in flight) from the vault and the data directory, so git never commits them.
// The walk is the vault's one walker: it follows no link, so it never leaves them.
import { promises as fs } from 'node:fs';
import { isTempFile } from '../../shared/atomic-write.ts';
import { log } from '../../shared/log.ts';
import { walkFiles } from '../../shared/vault-walk.ts';

const MIN_AGE_MS = 60_000;
/** Folders the sweep never enters: git's own files, and package trees. */
const NOT_ENTERED = new Set(['.git', 'node_modules']);

export async function sweepTempFiles(dirs: string[], now = Date.now()): Promise<number> {
  let removed = 0;
  for (const dir of dirs) {
    const temps = await walkFiles(dir, {
      enter: (rel) => !NOT_ENTERED.has(rel.slice(rel.lastIndexOf('/') + 1)),
      keep: (_rel, entry) => entry.isFile() && isTempFile(entry.name),
      stat: true,
    });
    for (const temp of temps) {
      if (now - temp.stats!.mtimeMs <= MIN_AGE_MS) continue;
      await fs.rm(temp.abs, { force: true });
      removed++;
    }
  }
  if (removed > 0) log.warn(`removed ${removed} temp file(s) left by an interrupted write`);
  return removed;
}
