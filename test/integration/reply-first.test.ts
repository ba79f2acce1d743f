// The build process's reply reaches the server before the work it does after replying (a
// whole build's signatures, about a second at 10,000 notes): a reply larger than the pipe
// holds is written only as the sender's loop turns, and the first article of a first start
// waited that second (docs/dev/performance.md).
import { fork } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { childEnv } from '../helpers/server.ts';
import { fixtureScript } from '../helpers/fixture-process.ts';

/** Milliseconds between the large reply and the message sent after the busy part. */
function gapOf(mode: 'await' | 'plain'): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = fork(fixtureScript('reply-then-busy'), [mode], { env: childEnv({}), serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const at = new Map<number, number>();
    child.on('message', (m: { id: number }) => {
      at.set(m.id, performance.now());
      if (at.size === 2) resolve(at.get(2)! - at.get(1)!);
    });
    child.on('error', reject);
    child.on('exit', (code) => at.size < 2 && reject(new Error(`the child stopped (${code}) after ${at.size} messages`)));
  });
}

describe('a build process reply is written before the work after it', () => {
  // The child's loop is busy 2 s after replying; this side, itself busy under a loaded CI run,
  // may see the first message late (an 800 ms wait and a 600 ms bound once came out 597 ms).
  it('sendReply: the reply arrives well before the 2 s of work that follow it', async () => {
    expect(await gapOf('await')).toBeGreaterThan(1_000);
  }, 30_000);

  it('process.send alone: the same reply waits behind that work (what sendReply is for)', async () => {
    expect(await gapOf('plain')).toBeLessThan(500);
  }, 30_000);
});
