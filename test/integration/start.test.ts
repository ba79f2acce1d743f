// CONTRACT §1: npm start on a fresh folder: example vault, first-start password,
// password sources, and a bad variable stopping the start.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../admin/auth/password.ts';
import { childEnv, CLI_BIN, PROJECT_DIR, startServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

/** `vault-service <command> …args`, as `npm run set-password` and the installed command run it (the compiled bundle). */
function run(command: string, env: Record<string, string>, args: string[] = [], input?: string) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const proc = spawn(process.execPath, [CLI_BIN, command, ...args], { cwd: PROJECT_DIR, env: childEnv(env) });
    let out = '';
    proc.stdout.on('data', (d) => (out += d));
    proc.stderr.on('data', (d) => (out += d));
    if (input !== undefined) proc.stdin.end(input);
    else proc.stdin.end();
    proc.on('close', (code) => resolve({ code, out }));
  });
}

describe('first start', () => {
  it('copies the example vault, generates a password printed once and stored only as a hash', async () => {
    const base = await tempDir();
    const server = await startServer({
      vault: path.join(base, 'vault'),
      data: path.join(base, 'data'),
      env: { ADMIN_PASSWORD: undefined },
      createVault: false,
    });
    try {
      const example = await fs.readdir(path.join(PROJECT_DIR, 'example-vault'));
      // The write lock's folder (README: outside a git repository), which the first settings mirror may make.
      expect((await fs.readdir(path.join(base, 'vault'))).filter((n) => n !== '.~vs-lock').sort()).toEqual(example.sort());
      const password = server.output().match(/^\s{4}(\S+)$/m)![1]!;
      const admin = JSON.parse(await fs.readFile(path.join(base, 'data', 'admin.json'), 'utf8'));
      expect(admin.hash).toMatch(/^scrypt\$/);
      expect(JSON.stringify(admin)).not.toContain(password);
      expect((await fs.stat(path.join(base, 'data', 'admin.json'))).mode & 0o777).toBe(0o600);
      expect((await server.api('POST', '/api/login', { password })).status).toBe(200);
    } finally {
      await server.stop();
    }
    // The second start keeps the stored hash and prints no password.
    const again = await startServer({ vault: path.join(base, 'vault'), data: path.join(base, 'data'), env: { ADMIN_PASSWORD: undefined } });
    try {
      expect(again.output()).not.toMatch(/Admin password/);
    } finally {
      await again.stop();
    }
  });
});

describe('password sources, in order', () => {
  it('ADMIN_PASSWORD_HASH wins over admin.json, which wins over ADMIN_PASSWORD', async () => {
    const base = await tempDir();
    const data = path.join(base, 'data');
    const set = await run('set-password', { SERVICE_DATA: data }, [], 'from-admin-json\n');
    expect(set.code).toBe(0);
    const hashOut = await run('hash-password', {}, ['from-env-hash']);
    expect(hashOut.code).toBe(0);
    const hash = hashOut.out.trim();
    expect(hash).toMatch(/^scrypt\$/);

    const both = await startServer({ data, env: { ADMIN_PASSWORD_HASH: hash, ADMIN_PASSWORD: 'from-env-plain' } });
    try {
      expect((await both.api('POST', '/api/login', { password: 'from-env-hash' })).status).toBe(200);
      expect((await both.api('POST', '/api/login', { password: 'from-admin-json' })).status).toBe(401);
    } finally {
      await both.stop();
    }
    const fileOnly = await startServer({ data, env: { ADMIN_PASSWORD: 'from-env-plain' } });
    try {
      expect((await fileOnly.api('POST', '/api/login', { password: 'from-admin-json' })).status).toBe(200);
      expect((await fileOnly.api('POST', '/api/login', { password: 'from-env-plain' })).status).toBe(401);
    } finally {
      await fileOnly.stop();
    }
  });

  it('set-password refuses a password under 8 characters', async () => {
    const res = await run('set-password', { SERVICE_DATA: await tempDir() }, ['short']);
    expect(res.code).toBe(1);
  });

  it('hashes are salted: the same password hashes differently', async () => {
    expect(await hashPassword('same password')).not.toBe(await hashPassword('same password'));
  });
});

describe('a bad variable stops the start', () => {
  it.each([
    ['PORT', 'abc'],
    ['NOTE_VERSIONS', 'maybe'],
  ])('%s=%s exits 1 with one line naming it', async (name, value) => {
    const res = await run('start', { [name]: value, VAULT: await tempDir(), SERVICE_DATA: await tempDir() });
    expect(res.code).toBe(1);
    expect(res.out.trim().split('\n')).toHaveLength(1);
    expect(res.out).toContain(name);
  });
});
