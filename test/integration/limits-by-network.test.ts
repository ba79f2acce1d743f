// Limits count a client's network, not its exact address (CONTRACT §15): IPv4 by its /24,
// IPv6 by its /64 (test/unit/network-key.test.ts); a global ceiling holds past that. Sign-ins:
// 10 attempts a minute per network, and past 30 failures a minute across all clients the
// checks are spaced out network by network, the right password still let in. Comments: 3 a
// minute per network, and past MAX_PENDING_COMMENTS waiting, 429 with a clear message. The
// moderation queue pages, 50 at a time, quickly at 10,000 pending.
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { LOGIN_LIMITS } from '../../admin/auth/login-guard.ts';
import { MAX_PENDING_COMMENTS, QUEUE_PAGE } from '../../admin/comments/service.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { fillPendingComments } from '../helpers/pending-comments.ts';
import { forFile, startServer, TEST_PASSWORD } from '../helpers/server.ts';
import { request } from '../helpers/visitor.ts';

const files = { 'Posts/Target.md': '---\ntitle: Target\npublish: true\ndate: 2026-02-01\n---\nComment here.\n' };
const blog = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on' }, files });
const PENDING = 10_000;
const MENTIONS = 40;
const flooded = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on' },
  files,
  beforeStart: (vault) => fillPendingComments(vault.replace(/vault$/, 'data'), 'Posts/Target.md', PENDING, MENTIONS),
});
const onIpv6 = forFile(() => startServer({ env: { HOST: '::1' } }));
// Addresses of two /64s of the documentation prefix, on the loopback device for these tests
// (where the machine lets a test add them: root with CAP_NET_ADMIN, as here and in CI).
function removeAddress(a: string): void {
  try {
    execFileSync('ip', ['-6', 'addr', 'del', `${a}/128`, 'dev', 'lo'], { stdio: 'ignore' });
  } catch {
    // not there
  }
}
const SAME_64 = Array.from({ length: 12 }, (_, i) => `2001:db8:5::${i + 1}`);
const OTHER_64 = '2001:db8:6::1';
const addable = (() => {
  try {
    for (const a of [...SAME_64, OTHER_64]) {
      removeAddress(a); // left by a run that was killed
      execFileSync('ip', ['-6', 'addr', 'add', `${a}/128`, 'dev', 'lo', 'nodad'], { stdio: 'ignore' });
    }
    return true;
  } catch {
    console.warn('limits-by-network: cannot add IPv6 addresses to lo here; the /64 test is skipped');
    return false;
  }
})();
afterAll(() => {
  if (addable) for (const a of [...SAME_64, OTHER_64]) removeAddress(a);
});
const dualStack = forFile(() => startServer({ env: { HOST: '::' } }));
const devices = forFile(() => startServer());

const login = (server: { url: string }, from: string, password: string) =>
  request(`${server.url}/api/login`, { method: 'POST', from, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password }) });
const comment = (from: string, n: number) =>
  request(`${blog.url}/api/comments`, { method: 'POST', from, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: 'Posts/Target.md', name: `Reader ${n}`, body: `Comment ${n}.` }) });

// Beside the flood below (its own server): the tests in here one after the other, each counting on the last.
describe('sign-in limits count networks', { concurrent: true }, () => {
  it.sequential('16 addresses of one /24 share its 10 attempts a minute; another /24 is not held up', async () => {
    const statuses = await Promise.all(Array.from({ length: 16 }, (_, i) => login(blog, `127.1.0.${i + 1}`, 'wrong guess').then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMITS.perNetwork);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16 - LOGIN_LIMITS.perNetwork);
    expect((await login(blog, '127.1.0.200', TEST_PASSWORD)).status).toBe(429);
    expect((await login(blog, '127.1.1.1', TEST_PASSWORD)).status).toBe(200);
  });

  it.sequential('past the failures ceiling, guesses from many networks are spaced out, and the right password still signs in', async () => {
    // From enough networks to pass the ceiling, each under its own limit (10 failures are counted already).
    const perNetwork = LOGIN_LIMITS.perNetwork - 2;
    const networks = Math.ceil((LOGIN_LIMITS.failuresCeiling - LOGIN_LIMITS.perNetwork) / perNetwork) + 1;
    for (let n = 0; n < networks; n++) {
      const answers = await Promise.all(Array.from({ length: perNetwork }, (_, i) => login(blog, `127.2.${n}.${i + 1}`, 'wrong guess')));
      expect(answers.map((a) => a.status)).toEqual(Array(perNetwork).fill(401));
    }
    // Now six guesses from three new networks at once, and the owner from a fourth just after.
    const started = Date.now();
    const done: Record<string, number> = {};
    const guesses = Array.from({ length: 6 }, (_, i) =>
      login(blog, `127.3.${i % 3}.${i + 1}`, 'wrong guess').then((r) => {
        done[`guess${i}`] = Date.now() - started;
        return r.status;
      }),
    );
    await new Promise((r) => setTimeout(r, 100));
    const owner = login(blog, '127.4.0.1', TEST_PASSWORD).then((r) => {
      done.owner = Date.now() - started;
      return r.status;
    });
    expect(await Promise.all(guesses)).toEqual(Array(6).fill(401));
    expect(await owner).toBe(200);
    // One check each SLOW_CHECK_MS: six guesses and the owner take at least six spacings.
    const slowest = Math.max(...Object.values(done));
    expect(slowest).toBeGreaterThanOrEqual(LOGIN_LIMITS.slowCheckMs * 6 - 50);
    // The owner's network has its turn after at most one round of the three others: before their second guesses.
    expect(Object.values(done).filter((t) => t > done.owner!).length).toBeGreaterThanOrEqual(2);
    expect(done.owner).toBeLessThan(100 + LOGIN_LIMITS.slowCheckMs * 4 + 1000);
  }, 60_000);

  it.sequential('an IPv6 client is counted by its /64 (the server on ::1)', async () => {
    const url = new URL(onIpv6.url);
    expect(url.hostname).toBe('[::1]');
    const statuses: number[] = [];
    for (let i = 0; i <= LOGIN_LIMITS.perNetwork; i++) statuses.push((await login(onIpv6, '::1', 'wrong guess')).status);
    expect(statuses).toEqual([...Array(LOGIN_LIMITS.perNetwork).fill(401), 429]);
  });

  it.runIf(addable).sequential('12 IPv6 addresses of one /64 share its attempts; another /64 is not held up', async () => {
    const statuses = await Promise.all(SAME_64.map((from) => login(onIpv6, from, 'wrong guess').then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMITS.perNetwork);
    expect(statuses.filter((s) => s === 429)).toHaveLength(SAME_64.length - LOGIN_LIMITS.perNetwork);
    expect((await login(onIpv6, OTHER_64, TEST_PASSWORD)).status).toBe(200);
  });

  it.sequential('on a dual-stack server, an IPv4 client (seen as ::ffff:a.b.c.d) is counted by its /24, not with every other IPv4 client', async () => {
    // Asked over IPv4: the server listening on :: sees IPv4-mapped addresses.
    const v4 = { url: `http://127.0.0.1:${new URL(dualStack.url).port}` };
    const statuses = await Promise.all(Array.from({ length: 12 }, (_, i) => login(v4, `127.7.0.${i + 1}`, 'wrong guess').then((r) => r.status)));
    expect(statuses.filter((s) => s === 401)).toHaveLength(LOGIN_LIMITS.perNetwork);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - LOGIN_LIMITS.perNetwork);
    expect((await login(v4, '127.7.1.1', TEST_PASSWORD)).status).toBe(200);
  });
});

// A flood waited out turn by turn: run beside the sign-in tests above rather than after them.
describe('a browser that signed in here before', { concurrent: true }, () => {
  it('is not held up by a flood of guesses from many networks; a forged device cookie waits its turn like anyone', async () => {
    const first = await request(`${devices.url}/api/login`, { method: 'POST', from: '127.40.0.1', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: TEST_PASSWORD }) });
    expect(first.status).toBe(200);
    const device = (first.headers['set-cookie'] ?? []).find((c) => c.startsWith('service_device='))!;
    expect(device).toMatch(/HttpOnly/);
    const deviceCookie = device.split(';')[0]!;
    const signIn = (from: string, cookie?: string) =>
      request(`${devices.url}/api/login`, { method: 'POST', from, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) }, body: JSON.stringify({ password: TEST_PASSWORD }) });
    // Past the failures ceiling, each network under its own limit.
    const perNetwork = LOGIN_LIMITS.perNetwork - 2;
    for (let n = 0; n * perNetwork < LOGIN_LIMITS.failuresCeiling; n++) {
      await Promise.all(Array.from({ length: perNetwork }, (_, i) => login(devices, `127.41.${n}.${i + 1}`, 'wrong guess')));
    }
    // A flood from 40 more networks: their checks now take their turns, 40 turns long.
    const FLOOD = 40;
    const flood = Promise.all(Array.from({ length: FLOOD }, (_, n) => login(devices, `127.42.${n}.1`, 'wrong guess').then((r) => r.status)));
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const forged = signIn('127.44.0.1', `service_device=${deviceCookie.split('=')[1]!.split('.')[0]}.forged`).then((r) => ({ status: r.status, ms: Date.now() - started }));
    const owner = await signIn('127.43.0.1', deviceCookie);
    expect(owner.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(LOGIN_LIMITS.slowCheckMs * 4);
    // The others still wait their turns: the forged cookie's sign-in comes after most of the flood.
    const late = await forged;
    expect(late.status).toBe(200);
    expect(late.ms).toBeGreaterThan(LOGIN_LIMITS.slowCheckMs * (FLOOD / 2));
    expect(await flood).toEqual(Array(FLOOD).fill(401));
  }, 90_000);
});

describe('comment limits', () => {
  it('3 comments a minute per network: another address of the /24 is the same client; another /24 is not', async () => {
    await blog.waitForPage('/Posts/Target', (p) => p.status === 200);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await comment(`127.5.0.${i + 1}`, i)).status);
    expect(statuses).toEqual([202, 202, 202, 429]);
    expect((await comment('127.5.1.1', 9)).status).toBe(202);
  });

  it(`past ${MAX_PENDING_COMMENTS} pending, a new comment answers 429 and says why; nothing is stored`, async () => {
    const res = await request(`${flooded.url}/api/comments`, {
      method: 'POST',
      from: '127.6.0.1',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'Posts/Target.md', name: 'Late', body: 'One more.' }),
    });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'queue_full' });
    expect(res.body.error).toMatch(/waiting for moderation/);
    expect((await flooded.admin('GET', '/api/comments/queue')).body.total).toBe(PENDING + MENTIONS);
  });
});

describe('GET /api/comments/queue pages', () => {
  it(`${PENDING} pending comments and ${MENTIONS} mentions: ${QUEUE_PAGE} a page, newest first, each page quick, every item once`, async () => {
    const cookie = await flooded.login();
    const seen = new Set<string>();
    let last = Infinity;
    let after: string | null = null;
    let pages = 0;
    let slowest = 0;
    do {
      const started = performance.now();
      const res = await flooded.api('GET', `/api/comments/queue${after ? `?after=${encodeURIComponent(after)}` : ''}`, undefined, cookie);
      slowest = Math.max(slowest, performance.now() - started);
      expect(res.status).toBe(200);
      const { items, next, total } = res.body as { items: { id: string; date: string; type: string }[]; next: string | null; total: number };
      expect(total).toBe(PENDING + MENTIONS);
      expect(items.length).toBeLessThanOrEqual(QUEUE_PAGE);
      if (next) expect(items).toHaveLength(QUEUE_PAGE);
      for (const item of items) {
        expect(seen.has(item.id), item.id).toBe(false);
        seen.add(item.id);
        const at = Date.parse(item.date);
        expect(at).toBeLessThanOrEqual(last);
        last = at;
      }
      after = next;
      pages++;
    } while (after);
    expect(seen.size).toBe(PENDING + MENTIONS);
    expect(pages).toBe(Math.ceil((PENDING + MENTIONS) / QUEUE_PAGE));
    expect(slowest).toBeLessThan(1000);
  }, 120_000);

  it('?path= filters while it pages; a malformed `after` is a 400', async () => {
    const first = await flooded.admin('GET', '/api/comments/queue?path=Posts%2FTarget.md');
    expect(first.body.items).toHaveLength(QUEUE_PAGE);
    expect(first.body.next).toEqual(expect.any(String));
    expect((await flooded.admin('GET', '/api/comments/queue?path=Posts%2FOther.md')).body).toEqual({ items: [], next: null, total: 0 });
    for (const bad of ['x', '1.2.3', '1.0', '99999999999999999.0.1']) {
      const res = await flooded.admin('GET', `/api/comments/queue?after=${encodeURIComponent(bad)}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe('bad_cursor');
    }
  });
});

describe('GET /api/comments/queue?status=approved', () => {
  it('pages what readers see, as the queue pages what waits; any other status is a 400', async () => {
    const first = await flooded.admin('GET', '/api/comments/queue');
    const chosen = (first.body.items as { id: string; type: string }[]).filter((i) => i.type === 'comment').slice(0, 30);
    const second = await flooded.admin('GET', `/api/comments/queue?after=${encodeURIComponent(first.body.next)}`);
    chosen.push(...(second.body.items as { id: string; type: string }[]).filter((i) => i.type === 'comment').slice(0, 30));
    for (const { id } of chosen) expect((await flooded.admin('POST', '/api/comments/moderate', { id, action: 'approve' })).status).toBe(200);
    const page = await flooded.admin('GET', '/api/comments/queue?status=approved');
    expect(page.status).toBe(200);
    expect(page.body.total).toBe(chosen.length);
    expect(page.body.items).toHaveLength(QUEUE_PAGE);
    const rest = await flooded.admin('GET', `/api/comments/queue?status=approved&after=${encodeURIComponent(page.body.next)}`);
    expect(rest.body.next).toBeNull();
    const listed = [...page.body.items, ...rest.body.items] as { id: string; status: string }[];
    expect(listed.map((i) => i.id).sort()).toEqual(chosen.map((i) => i.id).sort());
    expect(listed.every((i) => i.status === 'approved')).toBe(true);
    expect((await flooded.admin('GET', '/api/comments/queue')).body.total).toBe(PENDING + MENTIONS - chosen.length);
    const bad = await flooded.admin('GET', '/api/comments/queue?status=spam');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('bad_status');
  });
});
