// Eleventy renders batches (see site/templates/templates.11tydata.js); each holds
// several outputs, each opened by `<!--service:file:<encoded path>-->`. Splitting
// them here gives one file per address, in the staging folder.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
const MARKER = /<!--service:file:([^>]*?)-->\n?/g;

/** The outputs of one batch, as [relative file, content]. */
export function splitBundle(text: string): [string, string][] {
  const marks = [...text.matchAll(MARKER)];
  const out: [string, string][] = [];
  marks.forEach((m, i) => {
    const file = decodeURIComponent(m[1]!);
    // The paths come from our own planner; refuse anything that could leave the folder anyway.
    if (file === '' || file.startsWith('/') || file.split('/').includes('..')) throw new Error(`bad output path in a batch: ${file}`);
    const start = m.index! + m[0].length;
    const end = i + 1 < marks.length ? marks[i + 1]!.index! : text.length;
    out.push([file, text.slice(start, end)]);
  });
  return out;
}

/**
 * Writes every output of the given batches under `dir`. Synchronous on purpose: this
 * runs in the build worker (or the one-shot `npm run build`), never on the request
 * thread, and thousands of small writes are faster without a promise each.
 */
export function writeBundles(dir: string, batches: string[]): string[] {
  const made = new Set<string>();
  const files: string[] = [];
  for (const batch of batches) {
    for (const [file, body] of splitBundle(batch)) {
      const target = path.join(dir, file);
      const parent = path.dirname(target);
      if (!made.has(parent)) {
        made.add(parent);
        mkdirSync(parent, { recursive: true });
      }
      writeFileSync(target, body);
      files.push(file);
    }
  }
  return files;
}
