// The session cookie carries Secure whenever the browser is on https (a reviewer's find): a
// TLS proxy that sends no X-Forwarded-Proto, in front of a server whose SITE_URL is https,
// left it without, so any plain-http request to the host would carry it in the clear.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, TEST_PASSWORD, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { SITE_URL: 'https://blog.example' } });
});
afterAll(async () => {
  await server?.stop();
  await cleanupTempDirs();
});

const login = (origin?: string) =>
  fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify({ password: TEST_PASSWORD }),
  });

it('a sign-in from a page on https gets a Secure cookie, with no X-Forwarded-Proto from the proxy', async () => {
  const res = await login('https://blog.example');
  expect(res.status).toBe(200);
  expect(res.headers.get('set-cookie')).toMatch(/; Secure/);
  const out = await fetch(`${server.url}/api/logout`, { method: 'POST', headers: { origin: 'https://blog.example', cookie: res.headers.get('set-cookie')!.split(';')[0]! } });
  expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0.*; Secure/);
});

it('a sign-in from plain http (a script, or the server’s own address) gets none: the browser could not keep it', async () => {
  const res = await login();
  expect(res.status).toBe(200);
  expect(res.headers.get('set-cookie')).not.toMatch(/Secure/);
});
