// `npm run set-password [password]`: stores the admin password's scrypt hash in
// SERVICE_DATA/admin.json (never the password itself).
import { promises as fs } from 'node:fs';
import { writeAdminFile } from '../admin/auth/admin-password.ts';
import { ConfigError, loadConfig } from '../shared/config.ts';
import { checkPasswordStrength, promptNewPassword } from './prompt-password.ts';

try {
  const config = loadConfig(process.env, []);
  const password = await promptNewPassword(process.argv.slice(2));
  const weak = checkPasswordStrength(password);
  if (weak) throw new Error(weak);
  await fs.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  await writeAdminFile(config.dataDir, password);
  process.stdout.write(`Admin password saved (as a hash) in ${config.dataDir}/admin.json. Restart the server to use it.\n`);
  if (config.adminPasswordHash) process.stdout.write('Note: ADMIN_PASSWORD_HASH is set and takes precedence over admin.json.\n');
} catch (err) {
  process.stderr.write(`set-password: ${err instanceof ConfigError ? err.message : (err as Error).message}\n`);
  process.exit(1);
}
