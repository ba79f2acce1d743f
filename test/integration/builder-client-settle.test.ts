// The server's builder client takes a lone change (a save) at once, and holds a burst (a
// git pull, a folder copied in) for its settle window so one pass takes it. A save once
// waited out the window every time: 15 ms of each edit's way to the live site.
import { execFileSync } from 'node:child_process';
import { afterAll, expect, it } from 'vitest';
import { childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { fixtureScript } from '../helpers/fixture-process.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const SETTLE_MS = 3_000;

interface Step {
  passes: number;
  afterMs: number;
  wrote: string[];
}

it('a lone change goes at once; changes right behind it wait out the window and share one pass', async () => {
  const vault = await tempDir('vs-settle-');
  const out = execFileSync(process.execPath, [fixtureScript('client-settle'), vault, await tempDir('vs-settle-out-'), String(SETTLE_MS)], { cwd: PROJECT_DIR, env: childEnv({}), encoding: 'utf8', timeout: 60_000 });
  const { lone, burst } = JSON.parse(out.trim().split('\n').pop()!) as { lone: Step; burst: Step };
  // Well under the window (a trailing wait would take all of it).
  expect(lone.passes).toBe(1);
  expect(lone.afterMs).toBeLessThan(SETTLE_MS);
  expect(lone.wrote).toContain('/Notes/B');
  // Asked within the window of B's change: held for it, then built in one pass.
  expect(burst.passes).toBe(1);
  expect(burst.afterMs).toBeGreaterThanOrEqual(SETTLE_MS - 5);
  expect(burst.wrote).toEqual(expect.arrayContaining(['/Notes/C', '/Notes/D']));
}, 60_000);
