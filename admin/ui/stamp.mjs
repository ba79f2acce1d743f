// Whether the admin app's bundle (admin/ui/dist) was built from exactly the current inputs:
// a hash of the app's sources, its build script and the locked dependencies. Plain
// JavaScript, so `npm start`'s pre-script (scripts/prestart.mjs) can answer without loading
// tsx and esbuild (0.28 s of every start, against about 0.1 s); admin/ui/build.ts writes it.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PROJECT = path.resolve(HERE, '../..');
export const DIST = path.join(HERE, 'dist');
/** The file in dist/ that holds the stamp it was built from. */
export const STAMP = '.inputs';
// The app imports the shared modules too (the note's headings, link keys, settings): a `git
// pull` that changed only those once left `npm start` serving the bundle built before it.
// admin/ui/build.ts refuses to build from a file none of these holds.
const INPUTS = [path.join(HERE, 'src'), path.join(PROJECT, 'shared'), path.join(HERE, 'build.ts'), path.join(HERE, 'stamp.mjs'), path.join(PROJECT, 'package-lock.json'), path.join(PROJECT, 'tsconfig.json')];

/** Whether the stamp reads `file` (an absolute path): one of its inputs, or inside one of its folders. */
export function stampReads(file) {
  return INPUTS.some((input) => file === input || file.startsWith(input + path.sep));
}

/** Hash of everything the bundle is made from. */
export async function inputsStamp() {
  const hash = createHash('sha1');
  for (const input of INPUTS) {
    const stat = await fs.stat(input).catch(() => null);
    if (!stat) continue;
    const files = stat.isDirectory() ? (await fs.readdir(input, { recursive: true })).map((f) => path.join(input, f)).sort() : [input];
    for (const file of files) {
      const body = await fs.readFile(file).catch(() => null);
      if (body) hash.update(path.relative(PROJECT, file)).update('\u0000').update(body);
    }
  }
  return hash.digest('hex');
}

/** True when dist/ was built from exactly the current inputs. */
export async function isUpToDate(stamp) {
  const [built, index] = await Promise.all([fs.readFile(path.join(DIST, STAMP), 'utf8').catch(() => ''), fs.stat(path.join(DIST, 'index.html')).catch(() => null)]);
  return index !== null && built.trim() === stamp;
}
