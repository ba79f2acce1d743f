// Vitest's global setup: the test servers run the compiled command line, as `npm start`
// does (test/helpers/server.ts), so dist/ is brought up to date once, before any file runs.
// Started from TypeScript through tsx, each server took 0.5 s longer to listen (about
// 400 starts in a run) and its build process compiled the builder again.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export default function compileBefore(): void {
  const project = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const run = spawnSync(process.execPath, [path.join(project, 'scripts/compile-if-stale.cjs')], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error(`compiling dist/ for the tests failed (${run.status ?? run.signal})`);
}
