// spec 3.2 and 8: the lock file's own rules, on the real filesystem.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { busyMessage, LOCK_REFRESH_MS, liveHolder, lockPath, staleReason, takeLock } from '../../admin/sync/lock.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
afterEach(() => vi.useRealTimers());

describe('taking and releasing', () => {
  it('is exclusive: a second take while held names the holder', async () => {
    const dir = await tempDir();
    const first = await takeLock(dir);
    expect(first.ok).toBe(true);
    const second = await takeLock(dir);
    expect(second.ok).toBe(false);
    if (!second.ok) expect(busyMessage(second.holder)).toBe(`Another service is syncing this vault (pid ${process.pid}) — this pass did nothing`);
    if (first.ok) await first.lock.release();
    expect((await takeLock(dir)).ok).toBe(true);
  });

  it('is released only by its own holder (token check)', async () => {
    const dir = await tempDir();
    const taken = await takeLock(dir);
    if (!taken.ok) throw new Error('not taken');
    const other = { pid: process.pid, hostname: os.hostname(), token: 'e'.repeat(32), since: new Date().toISOString() };
    await fs.writeFile(lockPath(dir), JSON.stringify(other));
    await taken.lock.release();
    expect(JSON.parse(await fs.readFile(lockPath(dir), 'utf8')).token).toBe(other.token);
  });

  it('the holder touches the lock every minute', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const dir = await tempDir();
    const taken = await takeLock(dir);
    if (!taken.ok) throw new Error('not taken');
    const old = new Date(Date.now() - 10 * 60_000);
    await fs.utimes(lockPath(dir), old, old);
    vi.advanceTimersByTime(LOCK_REFRESH_MS);
    await vi.waitFor(async () => expect((await fs.stat(lockPath(dir))).mtimeMs).toBeGreaterThan(Date.now() - 5_000));
    await taken.lock.release();
  });
});

describe('staleness', () => {
  const record = (pid: number, hostname = os.hostname()) => ({ pid, hostname, token: 'a'.repeat(32), since: '' });
  it('a live process on this host holds it; one on another host holds it while fresh', () => {
    expect(staleReason(record(process.ppid), Date.now())).toBeNull();
    expect(staleReason(record(999999, 'elsewhere'), Date.now() - 14 * 60_000)).toBeNull();
  });
  it('stale after 15 minutes untouched, whoever holds it', () => {
    expect(staleReason(record(process.ppid), Date.now() - 15 * 60_000 - 1000)).toMatch(/untouched for 15 minutes/);
  });
  it('stale when the pid is gone on this host', () => {
    expect(staleReason(record(2 ** 22 + 12345), Date.now())).toBe('its process is gone');
  });
  it('stale when it names this very process but not a token it holds (a restarted container reusing the pid)', () => {
    expect(staleReason(record(process.pid), Date.now())).toBe('left by an earlier process with this pid');
  });
  it('liveHolder is null for a free or stale lock', async () => {
    const dir = await tempDir();
    expect(await liveHolder(dir)).toBeNull();
    await fs.writeFile(lockPath(dir), JSON.stringify(record(2 ** 22 + 12345)));
    expect(await liveHolder(dir)).toBeNull();
    await fs.writeFile(lockPath(dir), JSON.stringify(record(process.ppid)));
    expect((await liveHolder(dir))?.pid).toBe(process.ppid);
  });
});
