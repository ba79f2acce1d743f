// The settings mirror reads the vault's `.service/` files by name: through a link never, and
// a name swapped for a FIFO after its lstat is refused at once rather than waited on.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TravelFiles } from '../../admin/travel/files.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('TravelFiles.read', () => {
  it('reads a regular file, and refuses a FIFO at once and a link without following it', async () => {
    const root = await tempDir('vs-travel-files-');
    await writeFiles(root, { '.service/settings.json': '{"siteName":"x"}', 'outside.json': '{"secret":true}' });
    const files = new TravelFiles();
    expect((await files.read(root, '.service/settings.json')).toString()).toBe('{"siteName":"x"}');
    execFileSync('mkfifo', [path.join(root, '.service', 'prefs.json')]);
    await fs.symlink(path.join(root, 'outside.json'), path.join(root, '.service', 'designs.json'));
    const codeOf = (p: Promise<unknown>) => p.then(() => 'read', (err: { code?: string }) => err.code);
    const started = Date.now();
    expect(await codeOf(files.read(root, '.service/prefs.json'))).toBe('not_a_file');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await codeOf(files.read(root, '.service/designs.json'))).toBe('symlink');
  });
});
