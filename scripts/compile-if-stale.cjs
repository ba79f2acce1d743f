// Runs before `npm start` and the password scripts (and inside `npm run build`, through
// scripts/run-compiled.cjs): compiles the server (scripts/compile.ts) only when a source is
// newer than dist/. Plain JavaScript on purpose:
// loading tsx just to find nothing changed cost 0.2 s of every `npm run build`,
// while reading the file times costs about 20 ms. scripts/compile.ts touches the compiled
// dist/scripts/cli.js when it finishes, so its time is the stamp every source is compared
// with; the commands run dist/bundle/cli.js, made from dist/ by the same compile.
'use strict';
const { readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const PROJECT = path.resolve(__dirname, '..');
const BIN = path.join(PROJECT, 'dist/scripts/cli.js');
// The test fixtures that run as processes are compiled too (tsconfig.build.json), so the tests run them as JavaScript.
const SOURCES = ['shared', 'site', 'admin', 'scripts', 'test/fixtures/build', 'test/fixtures/garden', 'test/fixtures/documents', 'tsconfig.json', 'tsconfig.build.json'];
// Folders under the sources that are outputs or never compiled into dist/.
const SKIP = new Set(['admin/ui/dist', 'admin/ui/node_modules', 'node_modules']);

// Synchronous on purpose: some 400 stats, one after another, took 27-30 ms as promises
// (each a round trip through libuv's pool) and 2-3 ms as calls.
const statOf = (file) => statSync(file, { throwIfNoEntry: false }) ?? null;
const mtime = (file) => statOf(file)?.mtimeMs ?? -1;

/** Is anything under `rel` newer than `stamp`? Stops at the first that is. */
function newerThan(rel, stamp) {
  const abs = path.join(PROJECT, rel);
  const stat = statOf(abs);
  if (!stat) return false;
  if (!stat.isDirectory()) return stat.mtimeMs > stamp;
  if (stat.mtimeMs > stamp) return true; // a file was added, removed or renamed here
  for (const entry of readdirSync(abs, { withFileTypes: true })) {
    const child = `${rel}/${entry.name}`;
    if (SKIP.has(child)) continue;
    if (entry.isDirectory() ? newerThan(child, stamp) : mtime(path.join(PROJECT, child)) > stamp) return true;
  }
  return false;
}

function stale() {
  const built = mtime(BIN);
  if (built < 0 || mtime(path.join(PROJECT, 'dist/bundle/cli.js')) < 0) return true;
  // `npm run build`'s one-file bundle (scripts/cached-bundle.cjs runs it); a dist/ made before it has none.
  if (mtime(path.join(PROJECT, 'dist/bundle/build.cjs')) < 0) return true;
  // The templates compiled ahead (site/render/template-code.ts); without them a build compiles its own.
  if (mtime(path.join(PROJECT, 'dist/templates.json')) < 0) return true;
  let bundles = [];
  try {
    bundles = readdirSync(path.join(PROJECT, 'dist/site/client'));
  } catch {
    /* no client bundles yet */
  }
  if (!bundles.some((name) => name.endsWith('.js'))) return true;
  for (const rel of SOURCES) if (newerThan(rel, built)) return true;
  return false;
}

/** Compiles when stale; the compile's exit status (0 when nothing was to do). */
async function compileIfStale() {
  if (!stale()) return 0;
  // Loaded only to compile: child_process (with net and streams) is about 20 ms of a start with the build's V8 flags.
  const { spawnSync } = require('node:child_process');
  const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(PROJECT, 'scripts/compile.ts')], { stdio: 'inherit' });
  return run.status ?? 1;
}

module.exports = { compileIfStale };

if (require.main === module) void compileIfStale().then((status) => (process.exitCode = status));
