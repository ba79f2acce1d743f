// The project's source files under some folders, for the checks that read the source tree
// (architecture.test.ts, regex-time.test.ts).
import { readdirSync } from 'node:fs';
import path from 'node:path';

/** The sources under `dirs` of `root`, `/`-separated from it: built output and dependencies left out. */
export function allSources(root: string, ...dirs: string[]): string[] {
  const out: string[] = [];
  for (const dir of dirs) {
    for (const name of readdirSync(path.join(root, dir), { recursive: true }) as string[]) {
      const rel = `${dir}/${name.split(path.sep).join('/')}`;
      if (!/\.(ts|tsx|cjs|mjs)$/.test(rel) || rel.endsWith('.d.ts')) continue;
      if (rel.includes('/dist/') || rel.includes('node_modules')) continue;
      out.push(rel);
    }
  }
  return out.sort();
}
