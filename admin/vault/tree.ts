// Lists the vault for the admin: folders, notes and attachments, as the one vault
// walker sees them (shared/vault-walk.ts: no links, no service folders, dot-files,
// temp files or an in-vault data directory).
import path from 'node:path';
import { VaultEntries, type EntryKind } from '../../shared/vault-walk.ts';
import { toVaultPath, type VaultPath } from '../../shared/vault-path.ts';

export type { EntryKind } from '../../shared/vault-walk.ts';

export interface TreeEntry {
  path: VaultPath;
  kind: EntryKind;
  mtimeMs: number;
}

/** Entries of the vault at `vaultDir` (below the absolute folder `from`); `skip` holds absolute folders to leave out. */
export async function walkVault(vaultDir: string, skip: string[] = [], from = vaultDir): Promise<TreeEntry[]> {
  const entries = await new VaultEntries(vaultDir, skip).list({ from: toVaultPath(path.relative(vaultDir, from)), stat: true });
  return entries.map((e) => ({ path: e.path, kind: e.kind, mtimeMs: e.stats!.mtimeMs }));
}
