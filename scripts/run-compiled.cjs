'use strict';
// `npm start` and `npm run build`: the compiled command line, in one process, once what it
// runs is up to date: the server compiled when a source is newer than dist/, and for `start`
// the admin app rebuilt when its inputs changed (prestart.mjs). As `prestart` and `prebuild`
// scripts the checks were a second Node start and a shell each: about 0.07 s of every build
// (the benchmark times `npm run build` against Hugo) and 0.15 s of every start.
//
// CommonJS on purpose: a build never starts Node's ES module loader. An ES module entry did,
// and each built-in module it imported got a facade that reads all its exports (fs's include
// getters that load the stream modules): with the build's V8 flags, Node's own code compiled
// without its cache, about 25 ms of every build, and as much again in its build thread.
const path = require('node:path');
const { compileIfStale } = require('./compile-if-stale.cjs');

async function main() {
  const start = process.argv[2] === 'start';
  const status = start ? await (await import('./prestart.mjs')).prepareStart() : await compileIfStale();
  if (status !== 0) process.exit(status);
  // The command line reads its command from process.argv.slice(2), as when it is run itself.
  // A build runs its code through V8's code cache (cached-bundle.cjs): one CommonJS file. Its
  // build thread starts first, to boot while this thread loads it (early-build-thread.cjs).
  if (process.argv[2] === 'build') {
    const bundle = path.join(__dirname, '../dist/bundle/build.cjs');
    require('./early-build-thread.cjs').startEarlyBuildThread(bundle);
    require('./cached-bundle.cjs').runCached(bundle);
  } else await import('../dist/bundle/cli.js');
}

void main();
