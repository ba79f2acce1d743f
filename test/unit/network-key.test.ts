// Limits count a client's network, not its exact address (CONTRACT §15): IPv4 by its /24,
// IPv6 by its /64, an IPv4-mapped IPv6 address as the IPv4 one it carries.
import { describe, expect, it } from 'vitest';
import { createRateLimiter, MAX_NETWORKS, networkKey } from '../../admin/auth/rate-limit.ts';

describe('networkKey', () => {
  it('is an IPv4 address’s /24', () => {
    expect(networkKey('203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkKey('203.0.113.250')).toBe(networkKey('203.0.113.7'));
    expect(networkKey('203.0.114.7')).not.toBe(networkKey('203.0.113.7'));
    for (let i = 1; i <= 16; i++) expect(networkKey(`127.0.0.${i}`)).toBe('127.0.0.0/24');
  });

  it('takes an IPv4-mapped IPv6 address as the IPv4 one, dotted or in hex', () => {
    expect(networkKey('::ffff:203.0.113.7')).toBe('203.0.113.0/24');
    expect(networkKey('::FFFF:203.0.113.99')).toBe('203.0.113.0/24');
    expect(networkKey('::ffff:cb00:7107')).toBe('203.0.113.0/24');
    expect(networkKey('0:0:0:0:0:ffff:7f00:1')).toBe('127.0.0.0/24');
  });

  it('is an IPv6 address’s /64, however it is written', () => {
    const key = networkKey('2001:db8:1:2::1');
    expect(key).toBe('2001:db8:1:2::/64');
    for (const same of ['2001:db8:1:2:aaaa::1', '2001:db8:1:2:ffff:ffff:ffff:ffff', '2001:0DB8:0001:0002:0:0:0:9', '2001:db8:1:2::1%eth0']) expect(networkKey(same), same).toBe(key);
    expect(networkKey('2001:db8:1:3::1')).not.toBe(key);
    expect(networkKey('::1')).toBe('0:0:0:0::/64');
  });

  it('leaves what is not an address as it is', () => {
    expect(networkKey('unknown')).toBe('unknown');
  });
});

describe('a rate limiter counts networks', () => {
  it('the last 64 bits of an IPv6 address, or the last octet of an IPv4 one, buy no more attempts', () => {
    const limiter = createRateLimiter(3, 60_000, () => 1_000);
    expect([1, 2, 3, 4].map((i) => limiter.attempt(`2001:db8:5:6::${i.toString(16)}`))).toEqual([true, true, true, false]);
    expect(limiter.attempt('2001:db8:5:7::1')).toBe(true);
    expect([1, 2, 3, 4].map((i) => limiter.attempt(`198.51.100.${i}`))).toEqual([true, true, true, false]);
    expect(limiter.attempt('::ffff:198.51.100.200')).toBe(false);
    expect(limiter.attempt('198.51.101.1')).toBe(true);
  });
});

describe('a rate limiter’s memory', () => {
  it(`keeps count of ${MAX_NETWORKS} networks at most, forgetting the longest-known first`, () => {
    let t = 0;
    const limiter = createRateLimiter(1, 60_000, () => t);
    expect(limiter.attempt('2001:db8:ffff:ffff::1')).toBe(true);
    expect(limiter.attempt('2001:db8:ffff:ffff::2')).toBe(false);
    for (let i = 0; i < MAX_NETWORKS; i++) {
      t = i / 100;
      limiter.attempt(`2001:db8:${(i >> 16).toString(16)}:${(i & 0xffff).toString(16)}::1`);
    }
    // The newest networks are still counted; the first was forgotten to make room.
    expect(limiter.attempt(`2001:db8:${((MAX_NETWORKS - 1) >> 16).toString(16)}:${((MAX_NETWORKS - 1) & 0xffff).toString(16)}::9`)).toBe(false);
    expect(limiter.attempt('2001:db8:ffff:ffff::3')).toBe(true);
  });
});
