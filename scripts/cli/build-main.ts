// `npm run build` as one CommonJS file, dist/bundle/build.cjs (scripts/server-bundle.ts),
// which scripts/cached-bundle.cjs compiles with V8's code cache: a build's own code is
// compiled once per version of it, not at every build. The same command line
// as `vault-service build` (scripts/cli.ts), without a top-level await a script cannot hold.
// In a thread the build starts (site/build/build-thread-link.ts), the same file is its build thread.
import { isMainThread, workerData } from 'node:worker_threads';
import { BUILD_THREAD_ROLE, startBuildThreadEarly } from '../../site/build/build-thread-link.ts';
import { serveBuildThread } from '../../site/build/build-thread-serve.ts';
import { relaunchWithFlags } from './relaunch.ts';
import { runCli } from './run.ts';

if (!isMainThread && (workerData as { role?: string } | null)?.role === BUILD_THREAD_ROLE) serveBuildThread();
else {
  const relaunched = relaunchWithFlags();
  if (relaunched) void relaunched.then((code) => process.exit(code));
  else {
    // Booting a thread takes about 0.1 s (Node compiles its own code again under our V8
    // flags): begun now, the build thread is ready by the time the vault has been walked.
    startBuildThreadEarly();
    void runCli(process.argv.slice(2));
  }
}
