// `npm run hash-password [password]`: prints a hash for ADMIN_PASSWORD_HASH.
import { hashPassword } from '../admin/auth/password.ts';
import { checkPasswordStrength, promptNewPassword } from './prompt-password.ts';

try {
  const password = await promptNewPassword(process.argv.slice(2));
  const weak = checkPasswordStrength(password);
  if (weak) throw new Error(weak);
  process.stdout.write(`${await hashPassword(password)}\n`);
} catch (err) {
  process.stderr.write(`hash-password: ${(err as Error).message}\n`);
  process.exit(1);
}
