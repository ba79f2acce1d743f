// A change checks its path where it really leads, then waits for its locks: another server
// sharing the vault can hold the vault write lock for seconds (admin/vault/vault-lock.ts).
// A folder swapped for a link to outside the vault during that wait must not carry the
// save, rename or delete out of the vault: the path is checked again once the locks are held.
// The other server is stood in for by a guard that lets the task in when the test says so;
// everything else is the real writer, renamer, bin and filesystem.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { createRenamer } from '../../admin/vault/rename.ts';
import { createNoteWriter } from '../../admin/vault/note-writer.ts';
import { PathLocks } from '../../admin/vault/path-locks.ts';
import { createTrash } from '../../admin/vault/trash.ts';
import type { CrossProcessGuard } from '../../admin/vault/vault-lock.ts';
import { VersionStore } from '../../admin/versions/version-store.ts';
import { CreatedStore } from '../../shared/created-store.ts';
import { VaultEvents } from '../../shared/vault-events.ts';
import { VaultRoot, type VaultPath } from '../../shared/vault-path.ts';
import { waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

/** Another server holding the vault write lock until `release()`; `waiting` once a task asked for it. */
class HeldElsewhere implements CrossProcessGuard {
  waiting = false;
  private open = false;
  private wakers: Array<() => void> = [];
  async enter(): Promise<void> {
    this.waiting = true;
    if (!this.open) await new Promise<void>((resolve) => this.wakers.push(resolve));
  }
  async leave(): Promise<void> {}
  release(): void {
    this.open = true;
    for (const wake of this.wakers.splice(0)) wake();
  }
}

let vault: string;
let outside: string;
let guard: HeldElsewhere;
let services: Awaited<ReturnType<typeof make>>;

async function make() {
  const data = await tempDir('vs-recheck-data-');
  const root = new VaultRoot(vault, [data]);
  const events = new VaultEvents();
  const versions = new VersionStore(data);
  const created = new CreatedStore(data);
  await created.load();
  const locks = new PathLocks(guard);
  const writer = createNoteWriter({ root, versions, events, versionsEnabled: () => true, locks });
  return {
    writer,
    trash: createTrash({ root, versions, events, locks }),
    renamer: createRenamer({ root, writer, versions, created, events, skipDirs: [] }),
  };
}

beforeEach(async () => {
  vault = await tempDir('vs-recheck-vault-');
  outside = await tempDir('vs-recheck-outside-');
  await fs.mkdir(path.join(vault, 'Q'));
  await fs.writeFile(path.join(vault, 'Q/kept.md'), 'in the vault\n');
  await fs.writeFile(path.join(outside, 'kept.md'), 'outside\n');
  guard = new HeldElsewhere();
  services = await make();
});

/** Starts `change` (its first check passes), swaps Q for a link to outside while it waits, then lets it in. */
async function swappedWhileWaiting<T>(change: () => Promise<T>): Promise<PromiseSettledResult<T>> {
  const pending = Promise.allSettled([change()]);
  await waitFor(() => guard.waiting, 5_000, 5);
  await fs.rename(path.join(vault, 'Q'), path.join(vault, 'Q-moved'));
  await fs.symlink(outside, path.join(vault, 'Q'));
  guard.release();
  return (await pending)[0]!;
}

const outsideFiles = async () => (await fs.readdir(outside)).sort();

describe('a folder swapped for a link to outside while a change waits for the vault write lock', () => {
  it('a save is refused, and nothing is written outside', async () => {
    const result = await swappedWhileWaiting(() => services.writer.writeNote('Q/new.md' as VaultPath, 'written after the check\n'));
    expect(result.status).toBe('rejected');
    expect(await outsideFiles()).toEqual(['kept.md']);
  });

  it('a read-change-write (a link rewrite) is refused, and the file outside is unchanged', async () => {
    const result = await swappedWhileWaiting(() => services.writer.updateNote('Q/kept.md' as VaultPath, () => 'rewritten\n'));
    expect(result.status).toBe('rejected');
    expect(await fs.readFile(path.join(outside, 'kept.md'), 'utf8')).toBe('outside\n');
  });

  it('a rename is refused, and nothing moves out of or into the folder outside', async () => {
    const result = await swappedWhileWaiting(() => services.renamer.rename('Q/kept.md' as VaultPath, 'Elsewhere.md' as VaultPath));
    expect(result.status).toBe('rejected');
    expect(await outsideFiles()).toEqual(['kept.md']);
    await expect(fs.stat(path.join(vault, 'Elsewhere.md'))).rejects.toThrow();
  });

  it('a delete is refused, and the file outside stays where it is', async () => {
    const result = await swappedWhileWaiting(() => services.trash.remove('Q/kept.md' as VaultPath));
    expect(result.status).toBe('rejected');
    expect(await outsideFiles()).toEqual(['kept.md']);
  });

  it('with no swap, each of them goes through once let in', async () => {
    const save = services.writer.writeNote('Q/new.md' as VaultPath, 'saved\n');
    await waitFor(() => guard.waiting, 5_000, 5);
    guard.release();
    expect((await save).created).toBe(true);
    expect(await fs.readFile(path.join(vault, 'Q/new.md'), 'utf8')).toBe('saved\n');
  });
});
