// A lock file its holder made but never wrote its record into (killed between the create
// and the write) is stale once TORN_GRACE_MS has passed: judged by its age alone, it kept
// every vault write waiting, then answering busy ("pid 0"), for the lock's whole stale time.
// Within the grace it is a holder still writing, and is left alone.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LockFile, TORN_GRACE_MS } from '../../shared/lock-file.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const aged = async (file: string, ms: number) => {
  const then = new Date(Date.now() - ms);
  await fs.utimes(file, then, then);
};

describe('a lock file holding no record', () => {
  for (const [what, text] of [
    ['empty', ''],
    ['cut short', '{"pid":12'],
    ['JSON without a holder', 'null'],
  ] as const) {
    it(`is a holder still writing within the grace, and broken after it (${what})`, async () => {
      const dir = await tempDir('vs-lock-torn-');
      const file = path.join(dir, 'service-write.lock');
      await fs.writeFile(file, text);
      // A lock that is stale only after half an hour untouched, like the vault's after 30 s.
      const lock = new LockFile({ file, staleMs: 30 * 60_000, refreshMs: 10_000, label: 'test lock' });
      const fresh = await lock.take();
      expect(fresh.ok).toBe(false);
      expect(await fs.readFile(file, 'utf8')).toBe(text);
      await aged(file, TORN_GRACE_MS + 1_000);
      expect(await lock.liveHolder()).toBeNull();
      const taken = await lock.take();
      expect(taken.ok).toBe(true);
      expect(JSON.parse(await fs.readFile(file, 'utf8')).pid).toBe(process.pid);
      if (taken.ok) await taken.lock.release();
      await expect(fs.lstat(file)).rejects.toThrow();
    });
  }

  it('a whole record of a live holder is never taken for torn, however old its file', async () => {
    const dir = await tempDir('vs-lock-torn-');
    const file = path.join(dir, 'service-write.lock');
    const first = new LockFile({ file, staleMs: 30 * 60_000, refreshMs: 10_000, label: 'test lock' });
    const held = await first.take();
    expect(held.ok).toBe(true);
    await aged(file, TORN_GRACE_MS + 60_000);
    const second = await new LockFile({ file, staleMs: 30 * 60_000, refreshMs: 10_000, label: 'test lock' }).take();
    expect(second.ok).toBe(false);
    if (held.ok) await held.lock.release();
  });
});
