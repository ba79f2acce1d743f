// Several servers on one vault (spec 1): the vault write lock every path-locked step also
// holds, on the real filesystem. Two VaultLock objects stand for two processes.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PathLocks } from '../../admin/vault/path-locks.ts';
import { REPO_LOCK_NAME, VAULT_LOCK_DIR, VAULT_LOCK_NAME, VaultLock } from '../../admin/vault/vault-lock.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const lockFile = (vault: string) => path.join(vault, VAULT_LOCK_DIR, VAULT_LOCK_NAME);
const exists = (file: string) => fs.stat(file).then(() => true, () => false);

describe('the vault write lock', () => {
  it("is held while any of this process's steps runs, and let go by the last", async () => {
    const vault = await tempDir();
    const lock = new VaultLock(vault);
    await lock.enter();
    await lock.enter();
    expect(await exists(lockFile(vault))).toBe(true);
    await lock.leave();
    expect(await exists(lockFile(vault))).toBe(true);
    await lock.leave();
    expect(await exists(lockFile(vault))).toBe(false);
  });

  it("another process's steps wait for it, and run once it is let go", async () => {
    const vault = await tempDir();
    const a = new PathLocks(new VaultLock(vault));
    const b = new PathLocks(new VaultLock(vault));
    const order: string[] = [];
    let letGo!: () => void;
    const holding = a.run(['One.md'], async () => {
      order.push('a in');
      await new Promise<void>((resolve) => (letGo = resolve));
      order.push('a out');
    });
    await expect.poll(() => order).toEqual(['a in']);
    // A different note, so only the vault lock stands between them.
    const waiting = b.run(['Two.md'], async () => void order.push('b in'));
    letGo();
    await Promise.all([holding, waiting]);
    expect(order).toEqual(['a in', 'a out', 'b in']);
  });

  it('a step that waits too long is refused as busy, naming the holder, and runs nothing', async () => {
    const vault = await tempDir();
    const holder = new VaultLock(vault);
    await holder.enter();
    let ran = false;
    const impatient = new PathLocks(new VaultLock(vault, 200));
    await expect(impatient.run(['A.md'], async () => void (ran = true))).rejects.toMatchObject({ code: 'busy', message: expect.stringContaining(`pid ${process.pid}`) });
    expect(ran).toBe(false);
    await holder.leave();
    await impatient.run(['A.md'], async () => void (ran = true));
    expect(ran).toBe(true);
  });

  it('a lock left by a process that is gone is broken and taken', async () => {
    const vault = await tempDir();
    await fs.mkdir(path.join(vault, VAULT_LOCK_DIR));
    const dead = { pid: 2 ** 22 + 4321, hostname: os.hostname(), token: 'd'.repeat(32), since: new Date().toISOString() };
    await fs.writeFile(lockFile(vault), JSON.stringify(dead));
    const lock = new VaultLock(vault, 1_000);
    await lock.enter();
    expect(JSON.parse(await fs.readFile(lockFile(vault), 'utf8')).pid).toBe(process.pid);
    await lock.leave();
  });

  it("in a repository it lives in .git/, where nothing a remote pushes can land", async () => {
    const vault = await tempDir();
    await fs.mkdir(path.join(vault, '.git'));
    const lock = new VaultLock(vault);
    await lock.enter();
    expect(await exists(path.join(vault, '.git', REPO_LOCK_NAME))).toBe(true);
    expect(await exists(path.join(vault, VAULT_LOCK_DIR))).toBe(false);
    // A lock a pull brought into the vault's own folder is not the lock: it holds nothing up.
    await fs.mkdir(path.join(vault, VAULT_LOCK_DIR));
    await fs.writeFile(lockFile(vault), JSON.stringify({ pid: 1, hostname: 'elsewhere', token: 'x', since: '' }));
    const other = new PathLocks(new VaultLock(vault, 200));
    await lock.leave();
    await expect(other.run(['A.md'], async () => 'ran')).resolves.toBe('ran');
  });

  it('a link planted under its folder\'s name is taken away: the lock never lands outside the vault', async () => {
    const vault = await tempDir();
    const outside = await tempDir();
    await fs.symlink(outside, path.join(vault, VAULT_LOCK_DIR));
    const lock = new VaultLock(vault);
    await lock.enter();
    expect((await fs.lstat(path.join(vault, VAULT_LOCK_DIR))).isDirectory()).toBe(true);
    expect(await fs.readdir(outside)).toEqual([]);
    await lock.leave();
  });

  it('taken while .git came (Initialize repository, under the lock), it is taken again where others now look', async () => {
    const vault = await tempDir();
    const a = new VaultLock(vault);
    const b = new VaultLock(vault);
    const order: string[] = [];
    await a.enter();
    // b waits for the lock in the vault's own folder: there is no .git yet.
    const bIn = b.enter().then(() => order.push('b in'));
    await fs.mkdir(path.join(vault, '.git'));
    await a.leave();
    await bIn;
    expect(await exists(path.join(vault, '.git', REPO_LOCK_NAME))).toBe(true);
    // A third process, seeing .git, waits for b.
    const c = new VaultLock(vault);
    const cIn = c.enter().then(() => order.push('c in'));
    await new Promise((r) => setTimeout(r, 60));
    order.push('b out');
    await b.leave();
    await cIn;
    expect(order).toEqual(['b in', 'b out', 'c in']);
    await c.leave();
  });
});
