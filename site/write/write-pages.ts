// A render's outputs become files in the staging folder, one per address, each written as
// Eleventy hands it over (eleventy-runner.ts).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { OutputSink } from '../render/eleventy-runner.ts';
import type { FileWriter } from './file-writer.ts';
import { isSiteFile } from './generation.ts';

/** `file`, when it is a file of the site (generation.ts isSiteFile: the paths come from our own planner, and this is the last guard). */
function insideFolder(file: string): string {
  if (!isSiteFile(file)) throw new Error(`bad output path in a render: ${JSON.stringify(file)}`);
  return file;
}

/**
 * A sink (eleventy-runner.ts) that writes each output under `dir` as it comes, through `finish`
 * when given (null: not written). Synchronous on purpose: this runs in the build process
 * (or the one-shot `npm run build`) and its build thread, never on the request thread,
 * and thousands of small writes are faster without a promise each. A full build hands
 * them to a writer thread instead (file-writer.ts), which the caller then closes.
 */
export function pageWriter(dir: string, finish?: (file: string, body: string) => string | null, writer?: FileWriter | null): OutputSink {
  return (file, rendered) => {
    const body = finish ? finish(file, rendered) : rendered;
    if (body === null) return;
    const target = path.join(dir, insideFolder(file));
    if (writer) writer.write(target, body);
    else writeMakingFolder(target, body);
  };
}

/**
 * Writes `target`, making its folder only when the write finds none: most pages land in a
 * folder an earlier page made, and a `mkdir` that finds it there is one more system call
 * each (a 1,000-note build made 648 of them for 120 folders, each pass and thread again).
 */
export function writeMakingFolder(target: string, body: string): void {
  try {
    writeFileSync(target, body);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, body);
  }
}
