// Where the admin password comes from (CONTRACT §1): ADMIN_PASSWORD_HASH, else
// SERVICE_DATA/admin.json, else ADMIN_PASSWORD; with none, the first start makes one.
import { createHash } from 'node:crypto';
import { readJson, writeJsonAtomic } from '../../shared/atomic-write.ts';
import type { Config } from '../../shared/config.ts';
import { generatePassword, hashPassword, isPasswordHash, verifyPassword } from './password.ts';
import { dataPath, DATA_FILES, type DataPath } from '../../shared/data-path.ts';

export type PasswordSource = 'env-hash' | 'admin.json' | 'env-plain' | 'generated';

export interface AdminPassword {
  source: PasswordSource;
  /** Set only when this start generated the password, so it can be printed once. */
  generated: string | null;
  verify(password: string): Promise<boolean>;
  isSet(): boolean;
  /**
   * The key of the device cookies (device-cookie.ts): made from the stored hash, so they last
   * across restarts and end with a new password, and tell nothing of the password (the
   * hash's salt never leaves the server).
   */
  deviceKey(): Promise<Buffer>;
}

const keyOf = (hash: string) => createHash('sha256').update('service device cookie\0').update(hash).digest();

export function adminFile(dataDir: string): DataPath {
  return dataPath(dataDir, DATA_FILES.admin);
}

export async function writeAdminFile(dataDir: string, password: string): Promise<void> {
  await writeJsonAtomic(adminFile(dataDir), { hash: await hashPassword(password), updatedAt: new Date().toISOString() });
}

export async function loadAdminPassword(config: Config): Promise<AdminPassword> {
  const fromHash = (hash: string, source: PasswordSource, generated: string | null = null): AdminPassword => ({
    source,
    generated,
    verify: (password) => verifyPassword(password, hash),
    isSet: () => true,
    deviceKey: async () => keyOf(hash),
  });
  if (config.adminPasswordHash) return fromHash(config.adminPasswordHash, 'env-hash');
  const stored = await readJson<{ hash?: unknown }>(adminFile(config.dataDir), {});
  if (typeof stored.hash === 'string' && isPasswordHash(stored.hash)) return fromHash(stored.hash, 'admin.json');
  if (config.adminPassword) {
    // Hashed once so every check takes the same scrypt time; not waited for here: the start
    // (and a restart's first page) does not wait on a 16 MB scrypt that only a
    // sign-in needs.
    const hashing = hashPassword(config.adminPassword);
    hashing.catch(() => {}); // a failure is the first check's to tell
    return { source: 'env-plain', generated: null, verify: async (password) => verifyPassword(password, await hashing), isSet: () => true, deviceKey: async () => keyOf(await hashing) };
  }
  const generated = generatePassword();
  await writeAdminFile(config.dataDir, generated);
  const again = await readJson<{ hash: string }>(adminFile(config.dataDir), { hash: '' });
  return fromHash(again.hash, 'generated', generated);
}
