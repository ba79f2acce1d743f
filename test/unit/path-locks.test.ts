// One lock service for every mutation of a vault path.
import { describe, expect, it } from 'vitest';
import { PathLocks } from '../../admin/vault/path-locks.ts';

/** A task that records when it starts and waits until released. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { open, opened };
}

async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
}

describe('PathLocks', () => {
  it('two requests on the same path run one after the other, in arrival order', async () => {
    const locks = new PathLocks();
    const order: string[] = [];
    const g = gate();
    const a = locks.run(['A.md'], async () => {
      order.push('a start');
      await g.opened;
      order.push('a end');
    });
    const b = locks.run(['a.md'], async () => void order.push('b'));
    await settle();
    expect(order).toEqual(['a start']);
    g.open();
    await Promise.all([a, b]);
    expect(order).toEqual(['a start', 'a end', 'b']);
  });

  it('a folder covers every path under it, both ways', async () => {
    const locks = new PathLocks();
    const started: string[] = [];
    const g = gate();
    const save = locks.run(['Folder/Note.md'], async () => {
      started.push('save');
      await g.opened;
    });
    const renameFolder = locks.run(['Folder', 'Other'], async () => void started.push('rename'));
    const unrelated = locks.run(['Elsewhere/X.md'], async () => void started.push('unrelated'));
    await settle();
    expect(started).toEqual(['save', 'unrelated']);
    g.open();
    await Promise.all([save, renameFolder, unrelated]);
    expect(started).toEqual(['save', 'unrelated', 'rename']);
  });

  it('a later request that overlaps a waiting one waits behind it (no starvation)', async () => {
    const locks = new PathLocks();
    const order: string[] = [];
    const g = gate();
    const first = locks.run(['F/a.md'], async () => {
      await g.opened;
      order.push('first');
    });
    const folder = locks.run(['F'], async () => void order.push('folder'));
    const second = locks.run(['F/b.md'], async () => void order.push('second'));
    await settle();
    expect(order).toEqual([]);
    g.open();
    await Promise.all([first, folder, second]);
    expect(order).toEqual(['first', 'folder', 'second']);
  });

  it('the root ("") holds the whole vault; a failed task releases its paths', async () => {
    const locks = new PathLocks();
    await expect(locks.run([''], async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(locks.run(['any/thing.md'], async () => 'ran')).resolves.toBe('ran');
    expect(locks.size).toBe(0);
  });

  it('many paths at once never deadlock, whatever order they are named in', async () => {
    const locks = new PathLocks();
    let count = 0;
    const jobs = [];
    for (let i = 0; i < 200; i++) {
      const paths = i % 2 ? ['A.md', 'B.md'] : ['B.md', 'A.md'];
      jobs.push(locks.run(paths, async () => void count++));
    }
    await Promise.all(jobs);
    expect(count).toBe(200);
  });
});
