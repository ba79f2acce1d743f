// CONTRACT §2: admin session, rate limit, JSON-only mutating routes, 401 for visitors.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEvents } from '../helpers/events.ts';
import { startServer, TEST_PASSWORD, serverForFile, waitFor } from '../helpers/server.ts';

const server = serverForFile();

describe('admin session', () => {
  it('a visitor is not admin', async () => {
    const res = await server.api('GET', '/api/me');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ admin: false });
  });

  it('a wrong password answers 401 and sets no cookie', async () => {
    const res = await server.api('POST', '/api/login', { password: 'nope' });
    expect(res.status).toBe(401);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('login sets an HttpOnly SameSite=Lax service_session cookie and /api/me says admin', async () => {
    const res = await server.api('POST', '/api/login', { password: TEST_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ admin: true });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^service_session=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/);
    const me = await server.api('GET', '/api/me', undefined, cookie.split(';')[0]);
    expect(me.body).toEqual({ admin: true });
  });

  it('logout kills the session on the server, not only the cookie', async () => {
    const cookie = await server.login();
    expect((await server.api('GET', '/api/tree', undefined, cookie)).status).toBe(200);
    const out = await server.api('POST', '/api/logout', undefined, cookie);
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/Max-Age=0/);
    // Replaying the old cookie no longer works.
    expect((await server.api('GET', '/api/tree', undefined, cookie)).status).toBe(401);
    expect((await server.api('GET', '/api/me', undefined, cookie)).body).toEqual({ admin: false });
  });

  it('logout answers 200 and clears the cookie even when its session is gone already (a restart)', async () => {
    const out = await server.api('POST', '/api/logout', undefined, 'service_session=deadbeef');
    expect(out.status).toBe(200);
    expect(out.body).toEqual({ admin: false });
    expect(out.headers.get('set-cookie')).toMatch(/^service_session=;.*Max-Age=0/);
  });

  it('an open event stream ends with its session: after a logout it names no changed note', async () => {
    const leaving = await server.login();
    const staying = await server.login();
    const gone = await openEvents(server.url, leaving);
    const kept = await openEvents(server.url, staying);
    try {
      await fs.writeFile(path.join(server.vault, 'Before logout.md'), 'x');
      await gone.waitFor((e) => e.data.path === 'Before logout.md');
      expect((await server.api('POST', '/api/logout', undefined, leaving)).status).toBe(200);
      await fs.writeFile(path.join(server.vault, 'After logout.md'), 'x');
      // The positive signal first: the session still signed in hears of the change.
      await kept.waitFor((e) => e.data.path === 'After logout.md');
      await waitFor(() => gone.ended);
      expect(gone.events.map((e) => e.data.path)).not.toContain('After logout.md');
    } finally {
      gone.close();
      kept.close();
    }
  });

  it('every admin route answers 401 to a visitor', async () => {
    const routes: [string, string, unknown?][] = [
      ['GET', '/api/tree'],
      ['GET', '/api/note?path=Home.md'],
      ['PUT', '/api/note?path=Home.md', { content: 'x' }],
      ['GET', '/api/note/state?path=Home.md'],
      ['GET', '/api/note/moved?path=Home.md'],
      ['POST', '/api/note/rename', { path: 'a.md', to: 'b.md' }],
      ['DELETE', '/api/note?path=Home.md'],
      ['GET', '/api/trash'],
      ['POST', '/api/trash/restore', { id: 'x' }],
      ['DELETE', '/api/trash'],
      ['GET', '/api/versions?path=Home.md'],
      ['GET', '/api/versions/one?path=Home.md&at=1'],
      ['POST', '/api/versions/restore', { path: 'Home.md', at: '1' }],
      ['GET', '/api/events'],
      ['GET', '/api/comments/queue'],
      ['POST', '/api/comments/moderate', { id: 'x', action: 'approve' }],
      ['POST', '/api/comments/reply', { id: 'x', body: 'hi' }],
      ['GET', '/api/comments/export'],
      ['GET', '/api/no-such-route'],
    ];
    for (const [method, route, body] of routes) {
      const res = await server.api(method, route, body);
      expect(res.status, `${method} ${route}`).toBe(401);
    }
  });

  it('mutating routes refuse a form body (cross-site form posts cannot reach them)', async () => {
    const cookie = await server.login();
    const res = await fetch(server.url + '/api/note?path=Form.md', {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'content=hello',
    });
    expect(res.status).toBe(415);
    await expect(fs.stat(path.join(server.vault, 'Form.md'))).rejects.toThrow();
    const login = await fetch(server.url + '/api/login', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ password: TEST_PASSWORD }),
    });
    expect(login.status).toBe(415);
  });
});

describe('login rate limit', () => {
  it('allows 10 tries a minute per address, then 429, parallel attempts included', async () => {
    const fresh = await startServer();
    try {
      const attempts = await Promise.all(
        Array.from({ length: 14 }, () => fresh.api('POST', '/api/login', { password: 'wrong' })),
      );
      const statuses = attempts.map((a) => a.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(10);
      expect(statuses.filter((s) => s === 429)).toHaveLength(4);
      // Even the right password is refused while limited.
      expect((await fresh.api('POST', '/api/login', { password: TEST_PASSWORD })).status).toBe(429);
    } finally {
      await fresh.stop();
    }
  });
});
