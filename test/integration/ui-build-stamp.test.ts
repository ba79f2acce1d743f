// `npm start` runs `npm run build:ui` first; the bundle is rebuilt only
// when its inputs changed, so a restart does not pay for an esbuild run.
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIST, inputsStamp, isUpToDate } from '../../admin/ui/build.ts';
import { childEnv, PROJECT_DIR } from '../helpers/server.ts';

const buildUi = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'admin/ui/build.ts', ...args], { cwd: PROJECT_DIR, env: childEnv({}), encoding: 'utf8', timeout: 120_000 });

describe('npm run build:ui', () => {
  it('does nothing when the stamp of its inputs matches the built bundle', async () => {
    if (!(await isUpToDate(await inputsStamp()))) expect(buildUi().status).toBe(0);
    expect(await isUpToDate(await inputsStamp())).toBe(true);
    const before = await fs.stat(path.join(DIST, 'index.html'));
    const again = buildUi();
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('admin ui up to date');
    expect((await fs.stat(path.join(DIST, 'index.html'))).ino).toBe(before.ino);
  });

  it('a different stamp (a changed source) is not up to date', async () => {
    expect(await isUpToDate('0'.repeat(40))).toBe(false);
  });
});
