// A lock's holder is told by its pid and, where /proc says it, when that process started
// (shared/lock-file.ts): a holder killed mid-step whose pid the kernel gave to another
// process is gone, not alive, so the next server breaks its lock at once instead of
// waiting 30 s for it to go stale and answering busy meanwhile. The same holds for the
// guard a breaker of a stale lock holds while it breaks it: one left by a breaker killed
// mid-break names its dead breaker and goes at once (found by the bin's SIGKILL test).
import os from 'node:os';
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LockFile, processStart, staleReason, type LockRecord } from '../../shared/lock-file.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const record = (pid: number, started?: string): LockRecord => ({ pid, hostname: os.hostname(), token: 't', since: new Date().toISOString(), ...(started === undefined ? {} : { started }) });

describe.runIf(process.platform === 'linux')('a reused pid', () => {
  it('a live pid whose process started at another time holds nothing; the same start time holds', () => {
    const live = process.ppid;
    const started = processStart(live)!;
    expect(started).toMatch(/^\d+$/);
    expect(staleReason(record(live, started), Date.now(), 30_000)).toBeNull();
    expect(staleReason(record(live, String(Number(started) + 1)), Date.now(), 30_000)).toBe('its process is gone (its pid now names another)');
    // A lock written before start times were recorded is judged by its pid alone.
    expect(staleReason(record(live), Date.now(), 30_000)).toBeNull();
  });

  it('a lock file naming a live pid with another start time is broken and taken at once', async () => {
    const file = path.join(await tempDir(), 'x.lock');
    const live = process.ppid;
    await fs.writeFile(file, JSON.stringify(record(live, String(Number(processStart(live)) + 1))));
    const lock = new LockFile({ file, staleMs: 30_000, refreshMs: 5_000, label: 'test lock' });
    const taken = await lock.take();
    expect(taken.ok).toBe(true);
    if (taken.ok) {
      expect(taken.lock.record.started).toBe(processStart(process.pid));
      await taken.lock.release();
    }
  });

  it('a break guard left by a breaker that died is broken at once, and the stale lock behind it too', async () => {
    const dead = spawnSync(process.execPath, ['-e', 'process.pid']).pid!;
    const file = path.join(await tempDir(), 'y.lock');
    await fs.writeFile(file, JSON.stringify(record(dead)));
    await fs.writeFile(`${file}.break`, JSON.stringify(record(dead)));
    const started = Date.now();
    const taken = await new LockFile({ file, staleMs: 30_000, refreshMs: 5_000, label: 'test lock' }).take();
    expect(taken.ok).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    if (taken.ok) await taken.lock.release();
    await expect(fs.stat(`${file}.break`)).rejects.toThrow();
  });
});
