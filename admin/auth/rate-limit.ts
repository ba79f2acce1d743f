// Login attempts: at most `limit` per window per client address. The attempt is
// counted before the password is checked, so parallel attempts are counted too.
export interface RateLimiter {
  /** Records one attempt; false when the address is over its limit. */
  attempt(key: string): boolean;
}

export function createRateLimiter(limit = 10, windowMs = 60_000, now: () => number = Date.now): RateLimiter {
  const attempts = new Map<string, number[]>();
  let lastSweep = now();
  return {
    attempt(key) {
      const t = now();
      if (t - lastSweep > windowMs) {
        for (const [k, times] of attempts) if (times.every((x) => t - x >= windowMs)) attempts.delete(k);
        lastSweep = t;
      }
      const recent = (attempts.get(key) ?? []).filter((x) => t - x < windowMs);
      if (recent.length >= limit) {
        attempts.set(key, recent);
        return false;
      }
      recent.push(t);
      attempts.set(key, recent);
      return true;
    },
  };
}
