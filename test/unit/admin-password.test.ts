// CONTRACT §1: ADMIN_PASSWORD (plain, for tests and containers) is hashed once at start, so
// every check takes the same scrypt time; the start does not wait on that hash (a
// restart's first page waited on a 16 MB scrypt only a sign-in needs).
import { afterAll, describe, expect, it } from 'vitest';
import { loadAdminPassword } from '../../admin/auth/admin-password.ts';
import { loadConfig } from '../../shared/config.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('ADMIN_PASSWORD', () => {
  it('checks a sign-in made at once, before its hash was awaited by anyone, and refuses a wrong one', async () => {
    const config = loadConfig({ SERVICE_DATA: await tempDir('vs-pw-'), ADMIN_PASSWORD: 'a long enough password' }, []);
    const password = await loadAdminPassword(config);
    expect(password.source).toBe('env-plain');
    const [right, wrong] = await Promise.all([password.verify('a long enough password'), password.verify('a long enough passwore')]);
    expect(right).toBe(true);
    expect(wrong).toBe(false);
    expect(password.isSet()).toBe(true);
  });
});
