// The webmention checker's name lookups (admin/comments/source-fetch.ts): asked of a name
// server directly, each with its own time-out, side by side; `localhost` names are loopback
// without asking. A real name server on loopback answers, stalls or says NXDOMAIN.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dnsResolver, LOOKUP_TIMEOUT_MS } from '../../admin/comments/source-fetch.ts';
import { TestNameServer } from '../helpers/dns-server.ts';

const names = new TestNameServer();
beforeAll(() => names.start());
afterAll(() => names.stop());

describe('dnsResolver', () => {
  it('answers a name’s addresses from the name server it is given', async () => {
    expect(await dnsResolver([names.address])('www.good.test')).toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('gives a stalled name up after its own time-out; five stalled at once take one time-out, not five', async () => {
    const resolve = dnsResolver([names.address]);
    const started = performance.now();
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => resolve(`n${i}.slow.test`)));
    const took = performance.now() - started;
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(took).toBeGreaterThanOrEqual(LOOKUP_TIMEOUT_MS - 100);
    expect(took).toBeLessThan(LOOKUP_TIMEOUT_MS + 1000);
  });

  it('refuses an unknown name at once, and answers localhost names without asking', async () => {
    const before = names.questions.length;
    await expect(dnsResolver([names.address])('nothing.example')).rejects.toThrow();
    expect(await dnsResolver([names.address])('app.localhost')).toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
    expect(names.questions.slice(before).some((q) => q.includes('localhost'))).toBe(false);
  });
});
