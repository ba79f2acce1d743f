// A full build's handle on its build thread (site/build/build-thread-serve.ts): a worker thread, so the
// records and page ranges it exchanges with the build are handed over whole, not through
// a pipe that only drains when the busy sender looks up. Its heap is its own and capped
// like the build's; messages in and out, and one signal the build's loops wait on. A
// build thread that fails or exits is `lost`: the build takes its work back.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { log } from '../../shared/log.ts';
import { cachedBundle, CODE_EXT, codeFile } from '../../shared/project-dir.ts';
import type { BuildThreadReply, BuildThreadRequest, BuildThreadSetup } from './build-thread-protocol.ts';

const BUILD_THREAD_MODULE = pathToFileURL(codeFile('site/build/build-thread')).href;
// From source, the thread registers tsx before it loads the build thread (a worker does not
// take `--import` hooks here); compiled, it loads the build thread as it is.
/** tsx's ESM API (its `import` condition: beside the file `require` finds). */
function tsxApi(): string {
  return pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
}
function entry(): string {
  if (CODE_EXT === '.ts') return `import(${JSON.stringify(tsxApi())}).then((tsx) => { tsx.register(); return import(${JSON.stringify(BUILD_THREAD_MODULE)}); })`;
  // Started from `npm run build`'s one-file bundle: the same file, compiled once already, its
  // code cache read again (scripts/cli/build-main.ts serves as the build thread when started in one).
  const bundle = cachedBundle();
  if (bundle) return `require(${JSON.stringify(bundle.runner)}).runCached(${JSON.stringify(bundle.file)}, { writeCache: false })`;
  return `import(${JSON.stringify(BUILD_THREAD_MODULE)})`;
}

/** The role `npm run build`'s bundle takes in a thread started with it (scripts/cli/build-main.ts). */
export const BUILD_THREAD_ROLE = 'vault-service.build-thread';

/** Whether a build thread starts from code already compiled (`npm run build`), so it pays for a smaller vault. */
export const buildThreadStartsQuickly = (): boolean => CODE_EXT !== '.ts' && cachedBundle() !== null;

/**
 * The build thread's heap cap; notes it parses are handed over and let go chunk by chunk. Its
 * peak is the search job (search-job.ts, bounded by SEARCH_JOB_MAX_CHARS), about 120 MB at
 * 30,000 notes; V8 sizes the heap by what it holds, so a roomier cap costs no memory.
 */
export const BUILD_THREAD_HEAP_MB = 256;

function newBuildThread(): Worker {
  return new Worker(entry(), { eval: true, workerData: { role: BUILD_THREAD_ROLE }, resourceLimits: { maxOldGenerationSizeMb: BUILD_THREAD_HEAP_MB } });
}

/**
 * A build thread started before the vault is walked (`npm run build`: scripts/cli/build-main.ts),
 * so it boots while this thread does; the build's BuildThreadLink takes it, or drops it when the
 * vault is too small for one (fullBuild). Until then it keeps no process alive.
 */
let early: Worker | null = null;

export function startBuildThreadEarly(): void {
  if (early || !buildThreadStartsQuickly()) return;
  const thread = handedBuildThread() ?? newBuildThread();
  thread.unref();
  // One that fails before a build takes it is let go (its error is no process's crash): the
  // build starts a build thread of its own. Failing once taken, the BuildThreadLink's listeners see it.
  const gone = () => {
    if (early === thread) early = null;
  };
  thread.once('error', gone);
  thread.once('exit', gone);
  early = thread;
}

/** The build thread `npm run build`'s launcher started before this bundle was loaded (scripts/early-build-thread.cjs), when it is still up. */
function handedBuildThread(): Worker | null {
  const key = Symbol.for('vault-service.early-build-thread');
  const handed = (globalThis as Record<symbol, { thread: Worker; gone: boolean } | undefined>)[key];
  delete (globalThis as Record<symbol, unknown>)[key];
  return handed && !handed.gone ? handed.thread : null;
}

export function dropEarlyBuildThread(): void {
  void early?.terminate();
  early = null;
}

export class BuildThreadLink {
  /** Build threads this process has started (test/fixtures/build/full-build.ts reports it). */
  static started = 0;
  private thread: Worker | null;
  private listeners = new Set<(reply: BuildThreadReply) => void>();
  private wakers: Array<() => void> = [];
  ready = false;
  lost = false;

  constructor(setup: BuildThreadSetup) {
    // It holds no model (a chunk of views at a time, the templates, the search job's documents): a capped heap.
    this.thread = early ?? newBuildThread();
    early = null;
    this.thread.ref();
    BuildThreadLink.started++;
    this.thread.on('message', (reply: BuildThreadReply) => {
      if (reply.type === 'ready') this.ready = true;
      if (reply.type === 'failed') {
        log.warn(`the build thread failed (its share is done here): ${reply.error.split('\n')[0]}`);
        this.lose();
      }
      for (const listener of this.listeners) listener(reply);
      this.wake();
    });
    this.thread.on('error', (err) => {
      log.warn(`the build thread failed (its share is done here): ${err.message}`);
      this.lose();
    });
    this.thread.on('exit', () => this.lose());
    this.send({ type: 'setup', setup });
  }

  on(listener: (reply: BuildThreadReply) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** False once the build thread is lost (the message is not sent). */
  send(request: BuildThreadRequest): boolean {
    if (this.lost || !this.thread) return false;
    try {
      this.thread.postMessage(request);
      return true;
    } catch {
      this.lose();
      return false;
    }
  }

  /** Resolves at the build thread's next message, or when it is lost. */
  changed(): Promise<void> {
    if (this.lost) return Promise.resolve();
    return new Promise((resolve) => this.wakers.push(resolve));
  }

  private wake(): void {
    for (const w of this.wakers.splice(0)) w();
  }

  private lose(): void {
    if (this.lost) return;
    this.lost = true;
    this.close();
    this.wake();
  }

  close(): void {
    const thread = this.thread;
    this.thread = null;
    void thread?.terminate();
  }
}
