// The build process: the site builder runs here, off the server's process, so the
// public pages and the admin API stay responsive during a build. Messages are
// handled one at a time, in order; the first one carries the builder's options.
// It also owns the one vault model: GET /api/posts is answered from it.
import { getHeapStatistics } from 'node:v8';
import { log } from '../../shared/log.ts';
import { sameWarnings, type BuildWarning } from '../../shared/model/build-warnings.ts';
import { isNotePath } from '../../shared/vault-path.ts';
import { SiteBuilder, type BuildResult } from './site-builder.ts';
import { GrowthCollector } from './build-heap.ts';
import { settleHeap } from '../../shared/heap-settle.ts';
import { sendReply, type BuilderReply, type BuilderRequest } from './builder-protocol.ts';

let builder: SiteBuilder | null = null;
let chain: Promise<void> = Promise.resolve();
/** The warnings last sent to the server (a copy of the list): a list is sent again only when it changed. */
let sentWarnings: BuildWarning[] | null = null;

// Compared field by field, not printed to one text: a vault's thousands of warnings are checked at every save.
function changedWarnings(b: SiteBuilder) {
  const warnings = b.warnings();
  if (sentWarnings && sameWarnings(warnings, sentWarnings)) return undefined;
  sentWarnings = [...warnings];
  return warnings;
}

// The server went away: so does its builder.
process.on('disconnect', () => process.exit(0));
// The server stops it with a SIGTERM. Ended by the signal's default action, a process runs
// no exit handler, and the git runner's temp folder (shared/git-run.ts) was left behind at
// every stop; exiting here runs them (between two tasks: the server waits, then kills).
// A record being written is finished first: cut short, it would leave its temp file behind.
process.once('SIGTERM', () => void (pauseTimer ? rememberNow() : (remembering ?? Promise.resolve())).finally(() => process.exit(0)));

async function handle(b: SiteBuilder, request: Exclude<BuilderRequest, { type: 'init' }>) {
  switch (request.type) {
    case 'full':
      return b.full(request.moves);
    case 'resume':
      return b.resume(request.moves);
    case 'apply':
      return b.apply(request.paths, request.discussed, request.moves);
    case 'tidy':
      return b.tidy();
    case 'posts':
      return b.posts();
    case 'post':
      return b.post(request.query);
  }
}

process.on('message', (request: BuilderRequest) => {
  if (request.type === 'init') {
    builder = new SiteBuilder(request.options);
    builder.images.onReady = (paths) => process.send!({ id: null, imagesReady: paths } satisfies BuilderReply);
    return;
  }
  chain = chain.then(async () => {
    let reply: BuilderReply;
    try {
      if (!builder) throw new Error('the builder was not initialised');
      const result = await handle(builder, request);
      // A lookup or a search base's step changes no warning.
      const same = request.type === 'posts' || request.type === 'post' || request.type === 'tidy';
      reply = { id: request.id, ok: true, result, warnings: same ? undefined : changedWarnings(builder) };
    } catch (err) {
      log.error(`site build failed: ${(err as Error)?.stack ?? String(err)}`);
      reply = { id: request.id, ok: false, error: (err as Error)?.message ?? String(err) };
    }
    // Written out first: the whole build's signatures below take a second of the loop the reply needs.
    await sendReply(reply);
    // A whole read of the vault, or a file that is no note changed: copies no image shows any more are noted, or go.
    if (request.type === 'full' || request.type === 'resume' || (request.type === 'apply' && request.paths.some((p) => !isNotePath(p)))) builder?.images.pruneSoon();
    // A whole build's signatures, now its pages are served and before the next request can change what they read.
    try {
      builder?.dueSigs.settle();
    } catch (err) {
      // Outside the request's own answer: a throw here would stop the chain of requests for good.
      log.error(`site signatures failed: ${(err as Error)?.stack ?? String(err)}`);
    }
    if (reply.ok && (request.type === 'apply' || request.type === 'tidy')) growth?.afterEdit();
    // A step of the search base that wrote nothing leaves the generation as it was.
    const wrote = reply.ok && reply.result !== null && (request.type !== 'tidy' || (reply.result as BuildResult).rendered > 0);
    // A quiet moment's step that wrote finished a search base or the sitemaps: like a whole-site pass, it grew the heap.
    if (wrote && request.type !== 'posts' && request.type !== 'post') rememberSoon(request.type === 'full' || request.type === 'resume' ? 'settle' : request.type === 'tidy' ? 'collect' : null);
  });
});

// A whole-site pass grows the heap well past what the model keeps (at 10,000 notes about
// 160 MB for 100 MB live), and V8 keeps the pages it freed for a next one that may never
// come. V8's low-memory collection after it (settleHeap) gives them back and moves what
// lives on half-empty pages together: a plain gc() left a realistic builder's old generation
// at 205 MB for 126 MB live (docs/dev/performance.md). It takes about 0.7 s there, so other
// passes' collections stay plain (the server starts this process with --expose-gc).
const collect = (globalThis as { gc?: () => void }).gc;
/** Below this much heap in use the collection is skipped: a small site leaves a few megabytes to give back, and no cap its live heap could reach (heapForLive). */
const COLLECT_FROM_MB = 48;
const growth = collect ? new GrowthCollector(collect) : null;

// The generation is remembered after answering and beside the next build, never in
// its way (an fsync can take tens of milliseconds); bursts collapse into one write of
// the latest state. A write cut short leaves an older state, which the next start's
// pass corrects (it compares every output's signature). After an edit it waits for a
// pause: writing the record of every output after each save of a steady edit took the
// CPU the next save's pass wanted; a stop writes one still waiting.
const REMEMBER_PAUSE_MS = 1_000;
/** The records being written, while they are. */
let remembering: Promise<void> | null = null;
let rememberAgain = false;
let collectAfter: Collection | null = null;
let pauseTimer: NodeJS.Timeout | null = null;
/** After a whole-site pass V8's low-memory collection (`settle`), after a quiet moment's step that wrote (a search base, the sitemaps) a plain one. */
type Collection = 'settle' | 'collect';
/** `heapGrown`: a pass that grew the heap, remembered at once, then collected so. */
function rememberSoon(heapGrown: Collection | null): void {
  if (pauseTimer) clearTimeout(pauseTimer);
  pauseTimer = null;
  if (!heapGrown) {
    pauseTimer = setTimeout(() => rememberNow(), REMEMBER_PAUSE_MS);
    return;
  }
  if (collectAfter !== 'settle') collectAfter = heapGrown;
  void rememberNow();
}

/** Writes the generation's record now (one waiting for a pause, at once). */
function rememberNow(): Promise<void> {
  const b = builder;
  if (pauseTimer) clearTimeout(pauseTimer);
  pauseTimer = null;
  if (!b) return Promise.resolve();
  if (remembering) {
    rememberAgain = true;
    return remembering;
  }
  remembering = (async () => {
    do {
      rememberAgain = false;
      await b.remember().catch((err) => log.warn(`could not remember the site generation: ${(err as Error).message}`));
    } while (rememberAgain);
  })();
  return remembering.then(async () => {
    remembering = null;
    if (collectAfter) {
      const how = collectAfter;
      collectAfter = null;
      if (collect && getHeapStatistics().used_heap_size >= COLLECT_FROM_MB * 1024 * 1024) {
        if (how === 'settle') await settleHeap();
        else collect();
        growth?.collected();
        process.send!({ id: null, liveHeapMB: Math.round(getHeapStatistics().used_heap_size / (1024 * 1024)) } satisfies BuilderReply);
      }
    }
  });
}
