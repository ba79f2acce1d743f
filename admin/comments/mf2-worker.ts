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

/** One parser thread and the sources it was given, each by its id. */
interface ParserThread {
  worker: Worker;
  waiting: Map<number, (items: unknown[] | null) => void>;
}

let current: ParserThread | null = null;
let nextId = 0;

function parserThread(): ParserThread {
  if (current) return current;
  const worker = new Worker(THREAD, { eval: true, resourceLimits: { maxOldGenerationSizeMb: PARSE_HEAP_MB } });
  worker.unref();
  const made: ParserThread = { worker, waiting: new Map() };
  worker.on('message', ({ id, items }: { id: number; items: unknown[] | null }) => {
    made.waiting.get(id)?.(items);
    made.waiting.delete(id);
  });
  // Out of memory, or stopped for taking too long: what it was given reads as a plain mention.
  const lost = () => {
    retire(made);
    for (const done of made.waiting.values()) done(null);
    made.waiting.clear();
  };
  worker.on('error', lost);
  worker.on('exit', lost);
  return (current = made);
}

/** The next source goes to a new thread: this one is being stopped, or is gone. */
function retire(parser: ParserThread): void {
  if (current === parser) current = null;
}

/** The source's microformats items, or null when it could not be read within the bounds (`limitMs`: tests). */
export function mf2Items(html: string, baseUrl: string, limitMs = PARSE_MS): Promise<unknown[] | null> {
  const parser = parserThread();
  const id = ++nextId;
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      parser.waiting.delete(id);
      resolve(null);
      // At once, not at its exit: a source sent meanwhile to the thread being stopped was read as a plain mention.
      retire(parser);
      void parser.worker.terminate();
    }, limitMs);
    parser.waiting.set(id, (items) => {
      clearTimeout(timer);
      resolve(items);
    });
    parser.worker.postMessage({ id, html, baseUrl });
  });
}
