// `npm run build`'s build thread (site/build/build-thread-link.ts), started by the launcher
// (run-compiled.cjs) before this thread loads the build's bundle, not by the bundle once
// loaded: the build thread then boots (Node's own modules, the bundle from its code cache: about
// 0.15 s of a thread) while this one loads, and takes notes to parse about 0.1 s sooner.
// The build takes it (build-thread-link.ts startBuildThreadEarly) or lets it go, as one it started.
'use strict';
const { Worker } = require('node:worker_threads');

/** What the bundle's build thread is started with: build-thread-link.ts BUILD_THREAD_ROLE and BUILD_THREAD_HEAP_MB (a unit test holds them equal). */
const BUILD_THREAD = { role: 'vault-service.build-thread', heapMb: 256 };

/** Where the build finds the thread: { thread, gone } until it takes it. */
const EARLY_BUILD_THREAD = Symbol.for('vault-service.early-build-thread');

/** Starts the build thread on `bundle` through its code cache (cached-bundle.cjs); it keeps no process alive until taken. */
function startEarlyBuildThread(bundle) {
  const runner = require.resolve('./cached-bundle.cjs');
  const thread = new Worker(`require(${JSON.stringify(runner)}).runCached(${JSON.stringify(bundle)}, { writeCache: false })`, {
    eval: true,
    workerData: { role: BUILD_THREAD.role },
    resourceLimits: { maxOldGenerationSizeMb: BUILD_THREAD.heapMb },
  });
  thread.unref();
  const early = { thread, gone: false };
  // One that fails before it is taken is let go, never a crash: the build starts its own.
  const gone = () => {
    early.gone = true;
  };
  thread.once('error', gone);
  thread.once('exit', gone);
  globalThis[EARLY_BUILD_THREAD] = early;
}

module.exports = { EARLY_BUILD_THREAD, BUILD_THREAD, startEarlyBuildThread };
