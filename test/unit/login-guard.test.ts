// Past the failures ceiling, password checks take turns network by network; a browser that
// signed in before (its device cookie's id) skips the turns, within 10 a minute of its own.
import { describe, expect, it } from 'vitest';
import { LoginGuard } from '../../admin/auth/login-guard.ts';

const LIMITS = { perNetwork: 10, windowMs: 60_000, failuresCeiling: 3, slowCheckMs: 10_000 };
const settled = async (p: Promise<void>) => {
  let done = false;
  void p.then(() => (done = true));
  await new Promise((r) => setTimeout(r, 20));
  return done;
};

describe('LoginGuard turns', () => {
  it('past the ceiling a check waits its turn, a known device does not, and a copied device id gets no more than 10 a minute', async () => {
    const guard = new LoginGuard(LIMITS, () => 1_000);
    for (let i = 0; i < LIMITS.failuresCeiling; i++) guard.failed();
    // Someone is waiting already: a new network's check waits for its turn (slowCheckMs away).
    void guard.turn('198.51.100.1');
    expect(await settled(guard.turn('203.0.113.9'))).toBe(false);
    // The owner's browser: at once, from any network.
    expect(await settled(guard.turn('192.0.2.1', 'device-a'))).toBe(true);
    // The same id from ten more networks: the tenth attempt is its last at once.
    const fast: boolean[] = [];
    for (let i = 0; i < 10; i++) fast.push(await settled(guard.turn(`100.64.${i}.1`, 'device-a')));
    expect(fast).toEqual([...Array(9).fill(true), false]);
    // Another device is counted apart.
    expect(await settled(guard.turn('192.0.2.2', 'device-b'))).toBe(true);
  });
});
