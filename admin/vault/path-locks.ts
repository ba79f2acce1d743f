// Every mutation of a vault path holds that path's lock (issue 9): save, rename, move,
// delete, restore, link rewrite. One service for the whole vault, made once in the
// admin context. A request names every path it touches and gets them all at once, so
// no two holders can deadlock; a folder's lock covers everything under it, so a save
// inside a folder waits for the folder's rename and the other way round. Waiters are
// served in arrival order, except that a request conflicting with nobody ahead of it
// starts at once (saves of different notes never queue behind each other).

interface Request {
  keys: string[];
  start: () => void;
}

/** Case-folded, so two spellings of one file on a case-insensitive disk are one lock. */
function keyOf(p: string): string {
  return p.replace(/\/+$/, '').toLowerCase();
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

  /** Runs `task` while holding `paths` (vault paths; '' is the whole vault). Never call it from inside a held task. */
  run<T>(paths: string[], task: () => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const request: Request = {
        keys: [...new Set(paths.map(keyOf))],
        start: () => {
          Promise.resolve()
            .then(task)
            .then(resolve, reject)
            .finally(() => {
              this.held.splice(this.held.indexOf(request), 1);
              this.grant();
            });
        },
      };
      this.waiting.push(request);
      this.grant();
    });
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
