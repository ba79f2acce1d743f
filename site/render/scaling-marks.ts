// sharp is native code, and a vault's image is hostile input: a file that crashes it takes the
// build process down. The server starts a new one, which would read the same image and go
// down again, for ever. So a mark is written beside the copies before an image is scaled and
// removed once its verdict is written: a mark a new process finds is a scaling a crash cut
// short. An image is tried again once (the crash may have been another's: a kill, memory),
// then shown as it is until its content changes.
import { unlinkSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../shared/atomic-write.ts';

/** Scalings of one content that may end in a crash before it is shown as it is. */
export const MAX_SCALING_TRIES = 2;
/** The mark of a content key's scaling: `.scaling-<key>`, holding how many were begun. */
export const SCALING_MARK = '.scaling-';

export class ScalingMarks {
  /** Marks of this process's scalings under way: an orderly exit (a SIGTERM) removes them. */
  private mine = new Set<string>();
  private listening = false;

  constructor(private readonly dir: string) {}

  /** Begins scaling `key`: false when MAX_SCALING_TRIES scalings of it were cut short. */
  async begin(key: string): Promise<boolean> {
    const file = path.join(this.dir, `${SCALING_MARK}${key}`);
    const begun = Number.parseInt(await fs.readFile(file, 'utf8').catch(() => '0'), 10) || 0;
    if (begun >= MAX_SCALING_TRIES) return false;
    // Counted as this process's before it is written: a stop right after the write (before the
    // code after it ran) left a mark counting a try the stop cut short (a clean clone's CI).
    this.mine.add(file);
    if (!this.listening) {
      this.listening = true;
      process.on('exit', () => {
        for (const mark of this.mine) {
          try {
            unlinkSync(mark);
          } catch {
            // Gone already.
          }
        }
      });
    }
    await writeFileAtomic(file, String(begun + 1), { mkdir: true });
    return true;
  }

  /** `key` has its verdict (copies, or a reason to show it as it is). */
  async end(key: string): Promise<void> {
    const file = path.join(this.dir, `${SCALING_MARK}${key}`);
    this.mine.delete(file);
    await fs.rm(file, { force: true });
  }
}
