// The microformats parser, off the server's one thread and bounded in time and memory.
// It reads another site's markup, and an HTML parser's work can grow far faster than the
// page: 58 KB of formatting elements the parser rebuilds after every paragraph held every
// request for 30 s and took the server to 4 GB. Here a source gets at most 2 s and a
// 128 MB heap in a thread of its own; past either it is read as a plain mention (nothing
// of its h-entry), and the thread is started again for the next source. The thread is
// plain JavaScript over the package (no TypeScript), made at the first mention.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export const PARSE_MS = 2_000;
const PARSE_HEAP_MB = 128;

const require = createRequire(import.meta.url);
const THREAD = `
const { parentPort } = require('node:worker_threads');
const { mf2 } = require(${JSON.stringify(require.resolve('microformats-parser'))});
parentPort.on('message', ({ id, html, baseUrl }) => {
  let items = null;
  try { items = mf2(html, { baseUrl }).items; } catch {}
  parentPort.postMessage({ id, items });
});`;

let thread: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (items: unknown[] | null) => void>();

function parserThread(): Worker {
  if (thread) return thread;
  const started = new Worker(THREAD, { eval: true, resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB } });
  started.unref();
  started.on('message', ({ id, items }: { id: number; items: unknown[] | null }) => {
    waiting.get(id)?.(items);
    waiting.delete(id);
  });
  // Out of memory, or stopped for taking too long: whatever waited reads as a plain mention.
  const lost = () => {
    if (thread === started) thread = null;
    for (const done of waiting.values()) done(null);
    waiting.clear();
  };
  started.on('error', lost);
  started.on('exit', lost);
  return (thread = started);
}

/** The source's microformats items, or null when it could not be read within the bounds. */
export function mf2Items(html: string, baseUrl: string): Promise<unknown[] | null> {
  const worker = parserThread();
  const id = ++nextId;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(id);
      resolve(null);
      void worker.terminate();
    }, PARSE_MS);
    waiting.set(id, (items) => {
      clearTimeout(timer);
      resolve(items);
    });
    worker.postMessage({ id, html, baseUrl });
  });
}
