// A rename moves its note first, then rewrites the links in other notes one at a time. A
// server killed in between left links to a note that was gone, and nothing said which (a
// reviewer stopped one after 9 of 400). So a rename writes down what it does in the data
// directory before it starts, and removes the record when its last link is rewritten; a
// restart finishes any rename it finds recorded (rename.ts resume).
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { log } from '../../shared/log.ts';
import { parseVaultPath, type VaultPath } from '../../shared/vault-path.ts';

export interface PendingRename {
  from: VaultPath;
  to: VaultPath;
}

export class RenameJournal {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'renames-pending');
  }

  /** Records a rename about to start; answers the record to remove once it is done. */
  async begin(rename: PendingRename): Promise<string> {
    const file = path.join(this.dir, `${Date.now()}-${randomBytes(4).toString('hex')}.json`);
    await writeJsonAtomic(file, rename, { mode: 0o600, mkdir: true });
    return file;
  }

  async end(file: string): Promise<void> {
    await fs.rm(file, { force: true });
  }

  /** The renames a stopped server left unfinished, oldest first (an unreadable record goes, named). */
  async pending(): Promise<Array<{ file: string; rename: PendingRename }>> {
    const names = (await fs.readdir(this.dir).catch(() => [] as string[])).filter((n) => n.endsWith('.json')).sort();
    const found: Array<{ file: string; rename: PendingRename }> = [];
    for (const name of names) {
      const file = path.join(this.dir, name);
      try {
        const raw = JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;
        found.push({ file, rename: { from: parseVaultPath(raw.from), to: parseVaultPath(raw.to) } });
      } catch (err) {
        log.warn(`rename: the record ${name} of an unfinished rename cannot be read (${(err as Error).message}); it is removed`);
        await this.end(file);
      }
    }
    return found;
  }
}
