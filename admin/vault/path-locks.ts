// Every mutation of a vault path holds that path's lock: save, rename, move,
// delete, restore, link rewrite. One service for the whole vault, made once in the
// admin context. A request names every path it touches and gets them all at once, so
// no two holders can deadlock; a folder's lock covers everything under it, so a save
// inside a folder waits for the folder's rename and the other way round. Waiters are
// served in arrival order, except that a request conflicting with nobody ahead of it
// starts at once (saves of different notes never queue behind each other). Other servers
// sharing the vault are kept out by the vault write lock every task also holds.

import { log } from '../../shared/log.ts';
import type { CrossProcessGuard } from './vault-lock.ts';

interface Request {
  keys: string[];
  start: () => void;
}

/** Case-folded, so two spellings of one file on a case-insensitive disk are one lock. */
function keyOf(p: string): string {
  return p.replace(/(?<!\/)\/+$/, '').toLowerCase();
}

/** Same path, or one lies inside the other (the vault root, '', holds everything). */
function overlaps(a: string, b: string): boolean {
  return a === b || a === '' || b === '' || b.startsWith(a + '/') || a.startsWith(b + '/');
}

function conflict(a: Request, b: Request): boolean {
  return a.keys.some((ka) => b.keys.some((kb) => overlaps(ka, kb)));
}

export class PathLocks {
  private held: Request[] = [];
  private waiting: Request[] = [];

  /**
   * `across`: the guard other processes sharing the vault also take (vault-lock.ts); each
   * task runs inside it as well, so another server's steps never interleave with it.
   */
  constructor(private readonly across: CrossProcessGuard | null = null) {}

  /** Runs `task` while holding `paths` (vault paths; '' is the whole vault). Never call it from inside a held task. */
  run<T>(paths: string[], task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const request: Request = {
        keys: [...new Set(paths.map(keyOf))],
        start: () => void this.runHeld(request, task).then(resolve, reject),
      };
      this.waiting.push(request);
      this.grant();
    });
  }

  /** The task inside the other processes' guard; every lock it held is let go before its caller hears back. */
  private async runHeld<T>(request: Request, task: () => Promise<T>): Promise<T> {
    let entered = false;
    try {
      await this.across?.enter();
      entered = true;
      return await task();
    } finally {
      if (entered) await this.across?.leave().catch((err: Error) => log.warn(`vault write lock: could not let it go: ${err.message}`));
      this.held.splice(this.held.indexOf(request), 1);
      this.grant();
    }
  }

  /** How many requests hold or wait (for tests and the log). */
  get size(): number {
    return this.held.length + this.waiting.length;
  }

  private grant(): void {
    const ahead: Request[] = [];
    for (const request of [...this.waiting]) {
      if (this.held.some((h) => conflict(h, request)) || ahead.some((w) => conflict(w, request))) {
        ahead.push(request);
        continue;
      }
      this.waiting.splice(this.waiting.indexOf(request), 1);
      this.held.push(request);
      request.start();
    }
  }
}

/** The folder a path lies in ('' for the vault root). */
export function parentOf(p: string): string {
  const slash = p.lastIndexOf('/');
  return slash < 0 ? '' : p.slice(0, slash);
}
