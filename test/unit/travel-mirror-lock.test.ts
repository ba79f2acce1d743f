// spec 8: a mirror pass takes the vault's write lock for each file it copies or merges (a
// file both sides agree on takes none);
// a lock held elsewhere too long skips the file (named), a lock that cannot be made at all
// (a read-only vault) still lets the pass adopt the vault's copies.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TravelFiles } from '../../admin/travel/files.ts';
import { mirrorPass, type MirrorContext } from '../../admin/travel/mirror.ts';
import { VaultLock } from '../../admin/vault/vault-lock.ts';
import { DomainError } from '../../shared/errors.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

async function setup(): Promise<{ data: string; vault: string; ctx: (lock: MirrorContext['vaultLock']) => MirrorContext }> {
  const data = await tempDir('vs-mirror-data-');
  const vault = await tempDir('vs-mirror-vault-');
  await writeFiles(vault, { '.service/settings.json': JSON.stringify({ siteName: 'From the vault' }) });
  return { data, vault, ctx: (vaultLock) => ({ dataDir: data, vaultReal: vault, files: new TravelFiles(), checks: {}, bases: {}, copies: {}, vaultLock }) };
}

const readSiteName = async (data: string) => JSON.parse(await fs.readFile(path.join(data, 'settings.json'), 'utf8')).siteName;

describe('the vault write lock around each file', () => {
  it('a pass with the real lock adopts the copy and leaves no lock behind', async () => {
    const { data, vault, ctx } = await setup();
    const out = await mirrorPass(ctx(new VaultLock(vault)));
    expect(out.problems).toEqual([]);
    expect(await readSiteName(data)).toBe('From the vault');
    expect(await fs.readdir(path.join(vault, '.~vs-lock'))).toEqual([]);
  });

  it('a pass that finds both sides as they agreed takes no lock: only a change does', async () => {
    const { vault, ctx } = await setup();
    const real = new VaultLock(vault);
    let entered = 0;
    const counting = { enter: async () => (entered++, real.enter()), leave: () => real.leave() };
    const context = ctx(counting);
    await mirrorPass(context);
    expect(entered).toBeGreaterThan(0);
    entered = 0;
    const quiet = await mirrorPass(context);
    expect(quiet.problems).toEqual([]);
    expect(entered).toBe(0);
    await writeFiles(vault, { '.service/settings.json': JSON.stringify({ siteName: 'Changed in the vault' }) });
    await mirrorPass(context);
    expect(entered).toBe(1);
  });

  it('a lock another server holds too long skips the file and names it; nothing is written', async () => {
    const { data, ctx } = await setup();
    const held = { enter: async () => Promise.reject(new DomainError('busy', 'Another server is changing this vault.')), leave: async () => {} };
    const out = await mirrorPass(ctx(held));
    expect(out.problems).toContainEqual(expect.objectContaining({ file: '.service/settings.json', code: 'busy', side: 'vault' }));
    await expect(fs.stat(path.join(data, 'settings.json'))).rejects.toThrow();
  });

  it('a lock that cannot be made (a read-only vault) still adopts the vault copy', async () => {
    const { data, ctx } = await setup();
    const readOnly = { enter: async () => Promise.reject(Object.assign(new Error('EROFS: read-only file system'), { code: 'EROFS' })), leave: async () => {} };
    const out = await mirrorPass(ctx(readOnly));
    expect(out.problems).toEqual([]);
    expect(await readSiteName(data)).toBe('From the vault');
  });
});
