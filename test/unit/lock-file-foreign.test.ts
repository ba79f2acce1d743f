// A lock file that is no file a holder made (a folder, a link, dangling or not, a FIFO) is
// stale at once and broken (a reviewer's find): a folder answered every save or sync with
// 500, a dangling link made every save wait and fail with "held by pid 0", and a FIFO would
// have stopped the server on a read that never ends.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LockFile } from '../../shared/lock-file.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const plant: Record<string, (file: string, dir: string) => Promise<void>> = {
  'a folder with a file in it': async (file) => {
    await fs.mkdir(file);
    await fs.writeFile(path.join(file, 'x'), 'x');
  },
  'a dangling symbolic link': (file) => fs.symlink('/nonexistent/dir/x', file),
  'a link to a file that looks like a live lock': async (file, dir) => {
    const other = path.join(dir, 'elsewhere.json');
    await fs.writeFile(other, JSON.stringify({ pid: process.pid, hostname: 'h', token: 't', since: new Date().toISOString() }));
    await fs.symlink(other, file);
  },
  'a FIFO': async (file) => {
    execFileSync('mkfifo', [file]);
  },
};

describe('a lock file that is not a regular file', () => {
  for (const [what, make] of Object.entries(plant)) {
    it(`is broken and taken when it is ${what}`, async () => {
      const dir = await tempDir('vs-lock-foreign-');
      const file = path.join(dir, 'service-sync.lock');
      await make(file, dir);
      const lock = new LockFile({ file, staleMs: 15 * 60_000, refreshMs: 10_000, label: 'test lock' });
      expect(await lock.liveHolder()).toBeNull();
      const taken = await lock.take();
      expect(taken.ok).toBe(true);
      expect((await fs.lstat(file)).isFile()).toBe(true);
      if (taken.ok) await taken.lock.release();
      await expect(fs.lstat(file)).rejects.toThrow();
    }, 10_000);
  }
});
