// A slow sender cannot hold up anyone else's webmentions (CONTRACT §8, §15): POST /webmention
// answers 202 without waiting on any name lookup; a lookup has its own time-out, after the
// answer (LOOKUP_TIMEOUT_MS); a sender network holds a few places of the queue and two
// checks at most. Slow names come from a real name server on loopback that never answers
// them (WEBMENTION_DNS points the checker at it); slow sources from a real HTTP server that
// never answers. A good sender's mention is verified promptly all the same.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOOKUP_TIMEOUT_MS } from '../../admin/comments/source-fetch.ts';
import { CHECKS_PER_NETWORK, MAX_QUEUED_PER_NETWORK } from '../../admin/comments/webmention.ts';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { TestNameServer } from '../helpers/dns-server.ts';
import { waitFor } from '../helpers/server.ts';
import { request } from '../helpers/visitor.ts';

const names = new TestNameServer();
const sockets = new Set<Socket>();
let target = '';
/** Another site: `/stall…` never answers; anything else is a page mentioning the target. */
const other = http.createServer((req, res) => {
  if (req.url?.startsWith('/stall')) return;
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(`<div class="h-entry"><a class="p-author h-card" href="https://good.example/">Good Sender</a><p class="e-content">About <a href="${target}">this</a>.</p></div>`);
});
other.on('connection', (s) => sockets.add(s));
let port = 0;
beforeAll(async () => {
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', () => r()));
  port = (other.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => other.close(() => r()));
  await names.stop();
});

const blog = blogForFile(async () => {
  await names.start();
  return {
    fixture: false,
    env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on', WEBMENTION_ALLOW_PRIVATE: 'on', WEBMENTION_DNS: names.address },
    files: { 'Posts/Target.md': '---\ntitle: Target\npublish: true\ndate: 2026-02-01\n---\nMention me.\n' },
  };
});

/**
 * An answer that waited on no lookup: well under one lookup's time-out, which any answer
 * waiting on a slow name would take, with room for a test machine under load.
 */
const AT_ONCE_MS = LOOKUP_TIMEOUT_MS / 2;

/** POST /webmention from `from`; answers its status and how long the answer took. */
async function send(from: string, source: string): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await request(`${blog.url}/webmention`, { method: 'POST', from, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ source, target }).toString() });
  return { status: res.status, ms: performance.now() - started };
}

/** How long until the mention from `source` waits in the moderation queue (checked and stored). */
async function verifiedWithin(source: string, since: number): Promise<number> {
  await waitFor(async () => ((await blog.admin('GET', '/api/comments/queue')).body.items as { source?: string }[]).some((i) => i.source === source), 15_000, 25);
  return performance.now() - since;
}

describe('slow name lookups', () => {
  it('ten slow names from one sender: each answered 202 at once (past its share, 429), and another sender is verified promptly', async () => {
    target = `${blog.url}/Posts/Target`;
    await blog.waitForPage('/Posts/Target', (p) => p.status === 200);
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await send(`127.20.0.${i + 1}`, `http://name${i}.slow.test:${port}/post`));
    const taken = MAX_QUEUED_PER_NETWORK + CHECKS_PER_NETWORK;
    expect(answers.map((a) => a.status)).toEqual([...Array(taken).fill(202), ...Array(10 - taken).fill(429)]);
    for (const a of answers) expect(a.ms).toBeLessThan(AT_ONCE_MS);
    // The slow names are being looked up (and go unanswered).
    await waitFor(() => names.questions.includes('A name0.slow.test'));
    const since = performance.now();
    const good = `http://one.good.test:${port}/first`;
    expect((await send('127.21.0.1', good)).status).toBe(202);
    // Well before even one slow lookup gives up.
    expect(await verifiedWithin(good, since)).toBeLessThan(LOOKUP_TIMEOUT_MS);
  });

  it('ten slow names from ten senders: each answered 202 at once, and a good sender is verified once the first lookups give up', async () => {
    const answers = [];
    for (let i = 0; i < 10; i++) answers.push(await send(`127.22.${i}.1`, `http://other${i}.slow.test:${port}/post`));
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(202));
    for (const a of answers) expect(a.ms).toBeLessThan(AT_ONCE_MS);
    await waitFor(() => names.questions.includes('A other0.slow.test'));
    const since = performance.now();
    const good = `http://two.good.test:${port}/second`;
    expect((await send('127.23.0.1', good)).status).toBe(202);
    // One after another, ten slow lookups would take ten time-outs; side by side, one.
    expect(await verifiedWithin(good, since)).toBeLessThan(LOOKUP_TIMEOUT_MS + 1500);
    // Every slow name was asked, and given up on after its own time-out.
    await waitFor(() => Array.from({ length: 10 }, (_, i) => `A other${i}.slow.test`).every((q) => names.questions.includes(q)), 10_000);
    await new Promise((r) => setTimeout(r, LOOKUP_TIMEOUT_MS + 500));
  }, 30_000);
});

describe('a slow source', () => {
  it('a sender whose pages never answer holds two checks at most: another sender is verified at once', async () => {
    const before = sockets.size;
    for (let i = 0; i < MAX_QUEUED_PER_NETWORK + CHECKS_PER_NETWORK; i++) expect((await send(`127.24.0.${i + 1}`, `http://127.0.0.1:${port}/stall-${i}`)).status).toBe(202);
    // The first checks are waiting on the stalled source.
    await waitFor(() => sockets.size >= before + CHECKS_PER_NETWORK);
    const since = performance.now();
    const good = `http://three.good.test:${port}/third`;
    expect((await send('127.25.0.1', good)).status).toBe(202);
    expect(await verifiedWithin(good, since)).toBeLessThan(1500);
  });
});
