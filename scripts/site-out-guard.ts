// `npm run build` replaces SITE_OUT as a whole, so before anything is written or deleted
// it checks where that is: never the vault or the data directory, nor a folder
// that contains or lies inside either (symlinks resolved), and never a non-empty folder
// the build did not write itself (its own output carries a marker file).
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** Written into every snapshot: the next build may replace a folder that has it. */
export const SITE_MARKER = '.vault-service-site';
export const SITE_MARKER_TEXT = 'Written by `npm run build` (vault-service). The next build replaces this folder.\n';

/** The real path of `p`, for a path that may not exist yet (its nearest existing ancestor resolved). */
export async function realPathOf(p: string): Promise<string> {
  const abs = path.resolve(p);
  const rest: string[] = [];
  let at = abs;
  for (;;) {
    try {
      return path.join(await fs.realpath(at), ...rest.reverse());
    } catch (err) {
      const parent = path.dirname(at);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) throw err;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

function inside(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..' + path.sep) && rel !== '..' && !path.isAbsolute(rel));
}

/** Why SITE_OUT may not be used, as one sentence; null when the build may replace it. */
export async function siteOutProblem(siteOut: string, guarded: Array<{ name: string; dir: string }>): Promise<string | null> {
  const out = await realPathOf(siteOut);
  for (const { name, dir } of guarded) {
    const real = await realPathOf(dir);
    if (out === real) return `SITE_OUT (${siteOut}) is the ${name}`;
    if (inside(real, out)) return `SITE_OUT (${siteOut}) lies inside the ${name} (${dir})`;
    if (inside(out, real)) return `SITE_OUT (${siteOut}) contains the ${name} (${dir})`;
  }
  const stat = await fs.lstat(siteOut).catch(() => null);
  if (!stat) return null;
  if (!stat.isDirectory()) return `SITE_OUT (${siteOut}) is not a folder`;
  const names = await fs.readdir(siteOut);
  if (names.length > 0 && !names.includes(SITE_MARKER)) return `SITE_OUT (${siteOut}) is a folder that npm run build did not write, and it is not empty`;
  return null;
}
