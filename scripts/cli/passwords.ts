// `vault-service set-password [PASSWORD]` stores the admin password's scrypt hash in
// SERVICE_DATA/admin.json (never the password itself); `hash-password [PASSWORD]` prints a
// hash for ADMIN_PASSWORD_HASH. Without the argument the password is read from standard
// input, or typed twice at a terminal.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { writeAdminFile } from '../../admin/auth/admin-password.ts';
import { hashPassword } from '../../admin/auth/password.ts';
import type { Config } from '../../shared/config.ts';
import { checkPasswordStrength, promptNewPassword } from './prompt-password.ts';

/** A password good enough to keep, or an Error saying why not. */
async function newPassword(given: string | undefined): Promise<string> {
  const password = await promptNewPassword(given ? [given] : []);
  const weak = checkPasswordStrength(password);
  if (weak) throw new Error(weak);
  return password;
}

export async function setPasswordCommand(config: Config, given: string | undefined): Promise<number> {
  try {
    const password = await newPassword(given);
    await fs.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
    await writeAdminFile(config.dataDir, password);
  } catch (err) {
    process.stderr.write(`set-password: ${(err as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`Admin password saved (as a hash) in ${path.join(config.dataDir, 'admin.json')}. Restart the server to use it.\n`);
  if (config.adminPasswordHash) process.stdout.write('Note: ADMIN_PASSWORD_HASH is set and takes precedence over admin.json.\n');
  return 0;
}

export async function hashPasswordCommand(given: string | undefined): Promise<number> {
  try {
    process.stdout.write(`${await hashPassword(await newPassword(given))}\n`);
    return 0;
  } catch (err) {
    process.stderr.write(`hash-password: ${(err as Error).message}\n`);
    return 1;
  }
}
