// `vault-service build` started as `npx vault-service build` (the CI recipes) or from a
// shell runs on Node's defaults; the snapshot builds faster with the build's V8 flags
// (site/build/build-heap.ts SNAPSHOT_V8_FLAGS), which only the command line can give a
// process. So a build started without them starts itself again with them and answers
// with that process's exit code. `npm run build` passes them itself: no second process.
// The flags' figures: docs/decisions/v8-flags.md (the second Node start costs about 0.07 s).
// Where the running Node has its own module compile cache (Node 22.1 on), a build turns that on
// and runs as it was started, without a second process.
import nodeModule, { createRequire } from 'node:module';
import { constants } from 'node:os';
import { SNAPSHOT_V8_FLAGS } from '../../site/build/build-heap.ts';

/** Node's own module compile cache (module.enableCompileCache, Node 22.1 on) as a function that turns it on, or null on a Node without one. */
export function nodeCompileCache(from: object = nodeModule): (() => unknown) | null {
  const enable = (from as { enableCompileCache?: unknown }).enableCompileCache;
  return typeof enable === 'function' ? () => enable.call(from) : null;
}

/** The arguments to start this command line again with the snapshot's flags; null when it already has them, or when Node caches compiled code itself (`ownCache`). */
export function relaunchArgs(execArgv: readonly string[], argv: readonly string[], ownCache = nodeCompileCache() !== null): string[] | null {
  if (ownCache) return null;
  const missing = SNAPSHOT_V8_FLAGS.filter((flag) => !execArgv.includes(flag));
  if (missing.length === 0) return null;
  // The same entry (argv[1]) with the same arguments, after the running process's own Node options (a loader from source).
  return [...execArgv, ...missing, ...argv.slice(1)];
}

/**
 * Runs this command line again with the snapshot's flags and answers its exit code, or
 * null when this process already has them, or turns Node's own compile cache on where it has
 * one and answers null. Signals sent to this process alone (a CI runner stopping the job)
 * are passed on; the child answers them as a build does.
 */
export function relaunchWithFlags(): Promise<number> | null {
  const enableCompileCache = nodeCompileCache();
  if (enableCompileCache) {
    enableCompileCache();
    return null;
  }
  const args = relaunchArgs(process.execArgv, process.argv, false);
  return args ? relaunch(args) : null;
}

// child_process (with net and streams) is loaded only here: every build that needs no second start saves it.
// Required, not imported: `npm run build`'s one-file bundle runs from V8's code cache
// (scripts/cached-bundle.cjs), and in Node 20 a script made from a cache loses its way to
// `import()` (ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING): the second run without the flags failed.
async function relaunch(args: string[]): Promise<number> {
  const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
  const child = spawn(process.execPath, args, { stdio: 'inherit' });
  const pass = (signal: NodeJS.Signals) => () => child.kill(signal);
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, pass(signal)] as const);
  for (const [signal, handler] of handlers) process.on(signal, handler);
  return await new Promise<number>((resolve) => {
    const done = (code: number) => {
      for (const [signal, handler] of handlers) process.off(signal, handler);
      resolve(code);
    };
    child.on('error', (err) => {
      process.stderr.write(`vault-service: build failed: could not start the build process: ${err.message}\n`);
      done(1);
    });
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 + constants.signals[signal] : 1)));
  });
}
