// `npm run build` of a vault into `<root>/site`, as the command line runs it (a data
// directory of its own under `root`, SITE_URL https://example.org, the blog layout unless named).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';
import { CLI_BUILD, childEnv, PROJECT_DIR } from './server.ts';

export function buildSnapshot(root: string, vault: string, layout: 'blog' | 'default' = 'blog'): { res: SpawnSyncReturns<string>; out: string } {
  const out = path.join(root, 'site');
  const res = spawnSync(process.execPath, [...CLI_BUILD], {
    cwd: PROJECT_DIR,
    env: childEnv({ VAULT: vault, SERVICE_DATA: path.join(root, 'data'), SITE_OUT: out, PUBLIC_LAYOUT: layout, SITE_URL: 'https://example.org' }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { res, out };
}
