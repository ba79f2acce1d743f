// One collection that gives memory back, once a burst of start-up work is over. The
// server's start on a large vault (the watcher's scan of every file, created.json,
// the first site's index) leaves a young generation grown to its largest and an old one
// full of what that work dropped, and V8 keeps both committed while the server idles.
// At 30,000 notes the server held 145 MB for about 20 MB alive; this collection took it
// to 82 MB, while its build process was at its own peak beside it.
import inspector from 'node:inspector';

/** From how many files met at start the collection pays: a smaller scan leaves little garbage, and the collection costs each start more than it gives back. */
export const SETTLE_MIN_FILES = 1_000;

/**
 * V8's low-memory collection (what the inspector's "collect garbage" runs: every
 * generation collected and the young one shrunk), through an in-process inspector
 * session: a plain `gc()` leaves the young generation at its size. A Node built without
 * the inspector simply skips it.
 */
export function settleHeap(): Promise<void> {
  return new Promise((resolve) => {
    let session: inspector.Session;
    try {
      session = new inspector.Session();
      session.connect();
    } catch {
      resolve();
      return;
    }
    // Disconnected after the callback, never inside it: from inside, the session's
    // teardown waits on a lock the reply still holds (the server hung at start).
    session.post('HeapProfiler.collectGarbage', () => {
      setImmediate(() => {
        session.disconnect();
        resolve();
      });
    });
  });
}

/** What the server's heap and buffers may grow by over edits before a collection gives it back. */
export const SETTLE_GROWTH_BYTES = 32 * 1024 * 1024;
/** How long the server waits once a build's pages are prepared again: the next edit's result may be near. */
export const SETTLE_AFTER_MS = 300;

/** The heap V8 holds and the buffers outside it (a page read, its compressed copies). */
const footprint = (): number => {
  const { heapTotal, external } = process.memoryUsage();
  return heapTotal + external;
};

/**
 * Gives back what edits grew the server by. Each build's result has the server read the
 * pages it changed and compress them again, and the buffers it dropped are freed only
 * when V8 collects their owners, which a server with room to grow does late: a pause after
 * those pages are prepared, once the heap and buffers have grown by SETTLE_GROWTH_BYTES since
 * the last collection, collects them (docs/dev/performance.md).
 */
export class SettleAfterBuilds {
  private timer: NodeJS.Timeout | null = null;
  private base = footprint();
  private pendingWhole = false;
  /** How many collections it made (for the tests). */
  settles = 0;

  constructor(private readonly afterMs = SETTLE_AFTER_MS) {}

  /**
   * A build's result was applied and the pages it changed prepared again. After a whole-site
   * build every prepared page was replaced: it collects whatever the growth it can see (much
   * of what warming drops is malloc's, outside V8's figures).
   */
  built(whole = false): void {
    if (this.timer) clearTimeout(this.timer);
    this.pendingWhole ||= whole;
    this.timer = setTimeout(() => void this.settleIfGrown(), this.afterMs);
    this.timer.unref();
  }

  private async settleIfGrown(): Promise<void> {
    this.timer = null;
    const whole = this.pendingWhole;
    this.pendingWhole = false;
    if (!whole && footprint() - this.base < SETTLE_GROWTH_BYTES) return;
    await settleHeap();
    this.settles++;
    this.base = footprint();
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
