// The one place that counts clients for limits (CONTRACT §15): by network, never by exact
// address. One host may hold a whole IPv4 /24 or IPv6 /64 (16 loopback addresses once made
// about 1,900 password guesses a minute, each under the per-address limit), so each counts
// as one client. Sign-ins, comments and the webmention queue all key on `networkKey`.
import { isIP } from 'node:net';
import { expandV6 } from '../comments/ip-ranges.ts';

/** The network a client address counts as: IPv4 by its /24 (an IPv4-mapped IPv6 address too), IPv6 by its /64. */
export function networkKey(address: string): string {
  const bare = address.replace(/%[^]*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  const v4 = mapped ? mapped[1]! : isIP(bare) === 4 ? bare : null;
  if (v4) return v4.split('.').slice(0, 3).join('.') + '.0/24';
  const full = isIP(bare) === 6 ? expandV6(bare) : null;
  if (full) {
    const words = full.split(':');
    // ::ffff:0a00:0001 is the mapped form written in hex.
    if (words.slice(0, 5).every((w) => /^0+$/.test(w)) && words[5] === 'ffff') {
      const hi = parseInt(words[6]!, 16);
      return networkKey(`${hi >> 8}.${hi & 255}.${parseInt(words[7]!, 16) >> 8}.0`);
    }
    return words.slice(0, 4).map((w) => w.replace(/^0+(?=.)/, '')).join(':') + '::/64';
  }
  return address;
}

/** Networks a limiter keeps count of at most: its memory is bounded whatever the flood. */
export const MAX_NETWORKS = 100_000;

export interface RateLimiter {
  /** Records one attempt from a client address; false when its network is over the limit. */
  attempt(address: string): boolean;
}

/** At most `limit` attempts per window per network. The attempt is counted before it is judged, so parallel ones count too. */
export function createRateLimiter(limit = 10, windowMs = 60_000, now: () => number = Date.now): RateLimiter {
  const attempts = new Map<string, number[]>();
  let lastSweep = now();
  return {
    attempt(address) {
      const key = networkKey(address);
      const t = now();
      if (t - lastSweep > windowMs || attempts.size >= MAX_NETWORKS) {
        for (const [k, times] of attempts) if (times.every((x) => t - x >= windowMs)) attempts.delete(k);
        lastSweep = t;
        // Still full (networks are cheap in IPv6): the longest-known ones are forgotten first.
        for (const k of attempts.keys()) {
          if (attempts.size < MAX_NETWORKS * 0.9) break;
          attempts.delete(k);
        }
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
