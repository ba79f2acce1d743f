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
