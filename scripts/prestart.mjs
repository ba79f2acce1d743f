// Runs before `npm start`, in one plain-JavaScript process: rebuilds the admin app only when
// its inputs changed (admin/ui/stamp.mjs), then compiles the server only when a source is
// newer than dist/ (compile-if-stale.mjs). Loading tsx and esbuild just to find the app up to
// date cost 0.28 s of every start; the checks alone take about 0.1 s.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputsStamp, isUpToDate } from '../admin/ui/stamp.mjs';
import { compileIfStale } from './compile-if-stale.mjs';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (!(await isUpToDate(await inputsStamp()))) {
  const ui = spawnSync(process.execPath, ['--import', 'tsx', path.join(PROJECT, 'admin/ui/build.ts')], { stdio: 'inherit' });
  if (ui.status !== 0) process.exit(ui.status ?? 1);
}
process.exitCode = await compileIfStale();
