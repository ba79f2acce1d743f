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

// The app imports shared modules (a note's headings, link keys, settings). The stamp read only
// admin/ui: a `git pull` that changed only those left `npm start` serving the old bundle. The
// build now refuses a file the stamp does not read; here, every module the app's sources import.
it('the stamp reads every file of the project the app imports', async () => {
  const { stampReads } = await import('../../admin/ui/stamp.mjs');
  const src = path.join(PROJECT_DIR, 'admin/ui/src');
  const imported = new Set<string>();
  for (const file of (await fs.readdir(src, { recursive: true })) as string[]) {
    if (!/\.tsx?$/.test(file)) continue;
    const text = await fs.readFile(path.join(src, file), 'utf8');
    // Types are erased from the bundle: only what is imported as code is built from.
    for (const m of text.matchAll(/^(?:import|export) (?!type\b)[^;]*?from '(\.[^']+)'/gm)) imported.add(path.resolve(path.dirname(path.join(src, file)), m[1]!));
  }
  const outside = [...imported].filter((f) => !f.startsWith(src + path.sep));
  expect(outside.some((f) => f.includes(`${path.sep}shared${path.sep}`))).toBe(true);
  for (const f of imported) expect(stampReads(f), path.relative(PROJECT_DIR, f)).toBe(true);
});
