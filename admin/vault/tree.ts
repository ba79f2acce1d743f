// Lists the vault for the admin: folders, notes and attachments, without the
// service's own folders, dot-files, temp files or an in-vault data directory.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { isTempFile } from '../../shared/atomic-write.ts';
import { isNotePath, toVaultPath, type VaultPath } from '../../shared/vault-path.ts';

export type EntryKind = 'note' | 'folder' | 'attachment';

export interface TreeEntry {
  path: VaultPath;
  kind: EntryKind;
  mtimeMs: number;
}

export function isHiddenName(name: string): boolean {
  return name.startsWith('.') || isTempFile(name);
}

/** Walks `dir` (absolute) and yields vault-relative entries; `skip` holds absolute folders to leave out. */
export async function walkVault(vaultDir: string, skip: string[] = [], from = vaultDir): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  async function walk(dir: string): Promise<void> {
    let names: string[];
    try {
      names = await fs.readdir(dir);
    } catch {
      return;
    }
    for (const name of names.sort()) {
      if (isHiddenName(name)) continue;
      const abs = path.join(dir, name);
      if (skip.includes(abs)) continue;
      let stat;
      try {
        stat = await fs.stat(abs);
      } catch {
        continue;
      }
      const rel = toVaultPath(path.relative(vaultDir, abs));
      if (stat.isDirectory()) {
        out.push({ path: rel, kind: 'folder', mtimeMs: stat.mtimeMs });
        await walk(abs);
      } else if (stat.isFile()) {
        out.push({ path: rel, kind: isNotePath(name) ? 'note' : 'attachment', mtimeMs: stat.mtimeMs });
      }
    }
  }
  await walk(from);
  return out;
}

/** Note paths below a folder (or the note itself), vault-relative. */
export async function notesUnder(vaultDir: string, abs: string): Promise<VaultPath[]> {
  const stat = await fs.stat(abs);
  if (stat.isFile()) return isNotePath(abs) ? [toVaultPath(path.relative(vaultDir, abs))] : [];
  return (await walkVault(vaultDir, [], abs)).filter((e) => e.kind === 'note').map((e) => e.path);
}
