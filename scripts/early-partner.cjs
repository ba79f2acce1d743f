// `npm run build`'s partner thread (site/build/build-thread-link.ts), started by the launcher
// (run-compiled.cjs) before this thread loads the build's bundle, not by the bundle once
// loaded: the partner then boots (Node's own modules, the bundle from its code cache: about
// 0.15 s of a thread) while this one loads, and takes notes to parse about 0.1 s sooner.
// The build takes it (partner-link.ts startPartnerEarly) or lets it go, as one it started.
'use strict';
const { Worker } = require('node:worker_threads');

/** What the bundle's partner is started with: partner-link.ts PARTNER_ROLE and PARTNER_HEAP_MB (a unit test holds them equal). */
const PARTNER = { role: 'vault-service.partner', heapMb: 256 };

/** Where the build finds the thread: { worker, gone } until it takes it. */
const EARLY_PARTNER = Symbol.for('vault-service.early-partner');

/** Starts the partner on `bundle` through its code cache (cached-bundle.cjs); it keeps no process alive until taken. */
function startEarlyPartner(bundle) {
  const runner = require.resolve('./cached-bundle.cjs');
  const worker = new Worker(`require(${JSON.stringify(runner)}).runCached(${JSON.stringify(bundle)}, { writeCache: false })`, {
    eval: true,
    workerData: { role: PARTNER.role },
    resourceLimits: { maxOldGenerationSizeMb: PARTNER.heapMb },
  });
  worker.unref();
  const early = { worker, gone: false };
  // One that fails before it is taken is let go, never a crash: the build starts its own.
  const gone = () => {
    early.gone = true;
  };
  worker.once('error', gone);
  worker.once('exit', gone);
  globalThis[EARLY_PARTNER] = early;
}

module.exports = { EARLY_PARTNER, PARTNER, startEarlyPartner };
