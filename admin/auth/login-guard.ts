// Sign-in limits (CONTRACT §2, §15). Each network gets 10 attempts a minute (429 past them).
// Across all clients, past FAILURES_CEILING wrong passwords in a minute, password checks are
// spaced out, one each SLOW_CHECK_MS, taken network by network in turn: guessing from many
// networks slows to a crawl, while the owner's attempt waits at most one turn per waiting
// network and then succeeds with the right password; from a browser that signed in here before
// (device-cookie.ts) it waits for none. Nothing ever locks the right one out.
import { createRateLimiter, networkKey, type RateLimiter } from './rate-limit.ts';

export const LOGIN_LIMITS = { perNetwork: 10, windowMs: 60_000, failuresCeiling: 30, slowCheckMs: 500 };

export class LoginGuard {
  private readonly perNetwork: RateLimiter;
  private readonly perDevice: RateLimiter;
  private failures: number[] = [];
  /** Networks waiting for a slow check, in turn order, each with its waiters oldest first. */
  private waiting = new Map<string, Array<() => void>>();
  private timer: NodeJS.Timeout | null = null;
  private lastCheckAt = 0;

  constructor(
    private readonly limits = LOGIN_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.perNetwork = createRateLimiter(limits.perNetwork, limits.windowMs, now);
    this.perDevice = createRateLimiter(limits.perNetwork, limits.windowMs, now);
  }

  /** Counts an attempt: false (answer 429) when its network is over its limit. Call before anything is awaited. */
  attempt(address: string): boolean {
    return this.perNetwork.attempt(address);
  }

  /**
   * Resolves when this attempt's password may be checked: at once, or in its network's turn
   * past the ceiling. `device`: the id of a browser that signed in here before
   * (device-cookie.ts), at once too, within that device's own 10 a minute (a copied cookie
   * used from many networks buys no more).
   */
  turn(address: string, device: string | null = null): Promise<void> {
    if (device !== null && this.perDevice.attempt(`device ${device}`)) return Promise.resolve();
    if (!this.overCeiling() && this.waiting.size === 0) return Promise.resolve();
    const key = networkKey(address);
    return new Promise((resolve) => {
      const list = this.waiting.get(key);
      if (list) list.push(resolve);
      else this.waiting.set(key, [resolve]);
      this.schedule();
    });
  }

  /** A wrong password was given. */
  failed(): void {
    this.failures.push(this.now());
    if (this.failures.length > this.limits.failuresCeiling * 4) this.prune();
  }

  private prune(): void {
    const since = this.now() - this.limits.windowMs;
    this.failures = this.failures.filter((t) => t > since);
  }

  private overCeiling(): boolean {
    this.prune();
    return this.failures.length >= this.limits.failuresCeiling;
  }

  private schedule(): void {
    if (this.timer || this.waiting.size === 0) return;
    const delay = Math.max(0, this.lastCheckAt + this.limits.slowCheckMs - this.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.releaseOne();
      this.schedule();
    }, delay);
    this.timer.unref();
  }

  /** The next network in turn gets one check; it goes to the back of the turn if it has more waiting. */
  private releaseOne(): void {
    const next = this.waiting.entries().next();
    if (next.done) return;
    const [key, list] = next.value;
    this.waiting.delete(key);
    const resolve = list.shift()!;
    if (list.length) this.waiting.set(key, list);
    this.lastCheckAt = this.now();
    resolve();
  }
}
