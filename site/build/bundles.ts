// The templates render batches (template-runner.ts); each holds several outputs, each
// opened by `<!--service:file:<encoded path>-->`. Splitting them here gives one file
// per address, in the staging folder. The templates write the path `| urlencode | safe`:
// autoescape would turn a `'` (which urlencode keeps) into `&#39;` and name the file
// wrongly (issue 9: `Tom's & Jerry` answered 404).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const MARKER = '<!--service:file:';

/** The outputs of one batch, as [relative file, content]. */
export function splitBundle(text: string): [string, string][] {
  const out: [string, string][] = [];
  let at = text.indexOf(MARKER);
  while (at >= 0) {
    const close = text.indexOf('-->', at);
    if (close < 0) break;
    const file = decodeURIComponent(text.slice(at + MARKER.length, close));
    // The paths come from our own planner; refuse anything that could leave the folder anyway.
    if (file === '' || file.startsWith('/') || file.split('/').includes('..')) throw new Error(`bad output path in a batch: ${file}`);
    let start = close + 3;
    if (text.charCodeAt(start) === 10) start++;
    const next = text.indexOf(MARKER, start);
    out.push([file, text.slice(start, next < 0 ? text.length : next)]);
    at = next;
  }
  return out;
}

/**
 * Writes every output of the given batches under `dir`, each through `finish` when
 * given (null: not written). Synchronous on purpose: this
 * runs in the build worker (or the one-shot `npm run build`), never on the request
 * thread, and thousands of small writes are faster without a promise each.
 */
export function writeBundles(dir: string, batches: string[], finish?: (file: string, body: string) => string | null): string[] {
  const files: string[] = [];
  for (const batch of batches) {
    for (const [file, rendered] of splitBundle(batch)) {
      const body = finish ? finish(file, rendered) : rendered;
      if (body === null) continue;
      writeMakingFolder(path.join(dir, file), body);
      files.push(file);
    }
  }
  return files;
}

/**
 * Writes `target`, making its folder only when the write finds none: most pages land in a
 * folder an earlier page made, and a `mkdir` that finds it there is one more system call
 * each (a 1,000-note build made 648 of them for 120 folders, each pass and thread again).
 */
function writeMakingFolder(target: string, body: string): void {
  try {
    writeFileSync(target, body);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, body);
  }
}
