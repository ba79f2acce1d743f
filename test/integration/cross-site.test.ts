// CONTRACT §11: a mutating /api/* request another site's page makes (cookie attached)
// is refused with 403 cross_site, with a body or without. Every mutating route the
// admin app registers is enumerated from the route modules themselves, so a new route
// cannot slip past the rule.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CROSS_SITE_OPEN } from '../../admin/auth/cross-site.ts';
import { createAdminContext } from '../../admin/context.ts';
import { routeModules } from '../../admin/routes/index.ts';
import { loadConfig } from '../../shared/config.ts';
import { TEST_PASSWORD, serverForFile } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const SAFE = new Set(['GET', 'HEAD']);

/** Every (method, path) the route modules register, read by registering them on a recorder. */
async function registeredRoutes(): Promise<Array<{ method: string; path: string }>> {
  const base = await tempDir('vs-routes-');
  await fs.mkdir(path.join(base, 'vault'));
  await fs.mkdir(path.join(base, 'data'));
  const config = loadConfig({ VAULT: path.join(base, 'vault'), SERVICE_DATA: path.join(base, 'data'), ADMIN_PASSWORD: TEST_PASSWORD }, []);
  const ctx = await createAdminContext(config);
  const found: Array<{ method: string; path: string }> = [];
  const recorder: any = new Proxy(
    {},
    {
      get: (_t, method: string) => (route: unknown) => {
        if (typeof route === 'string') found.push({ method: method.toUpperCase(), path: route });
        return recorder;
      },
    },
  );
  for (const register of routeModules) register(recorder, ctx);
  return found;
}

let cookie: string;
let mutating: Array<{ method: string; path: string }>;

const server = serverForFile(async () => {
  mutating = (await registeredRoutes()).filter((r) => !SAFE.has(r.method) && r.method !== 'USE');
  return {};
});
beforeAll(async () => {
  await writeFiles(server.vault, { 'Note.md': 'Text.\n' });
  cookie = await server.login();
});

/** A concrete URL for a registered route (parameters and wildcards filled in). */
const concrete = (p: string) => p.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x') + '?path=Note.md&id=x';

async function send(method: string, route: string, headers: Record<string, string>, body?: unknown) {
  const h: Record<string, string> = { cookie, ...headers };
  if (body !== undefined) h['content-type'] = 'application/json';
  const res = await fetch(server.url + route, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), redirect: 'manual' });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, json };
}

describe('the enumeration sees every mutating route', () => {
  it('finds the routes the issue names, all under /api/ but the open /webmention (CONTRACT §8)', () => {
    const names = mutating.map((r) => `${r.method} ${r.path}`);
    for (const expected of ['POST /api/sync/snapshot', 'POST /api/sync/now', 'POST /api/sync/init', 'POST /api/sync/travel', 'POST /api/logout', 'PUT /api/note', 'PATCH /api/settings', 'DELETE /api/trash', 'POST /api/comments/moderate', 'POST /webmention']) {
      expect(names).toContain(expected);
    }
    for (const r of mutating) expect(r.path.startsWith('/api/') || `${r.method} ${r.path}` === 'POST /webmention', `${r.method} ${r.path}`).toBe(true);
  });

  it('the open exemptions are the two the contract names', () => {
    expect(CROSS_SITE_OPEN).toEqual([
      { method: 'POST', path: '/api/comments' },
      { method: 'POST', path: '/webmention' },
    ]);
  });
});

describe('a cross-site mutating request is refused with 403 cross_site', () => {
  const senders: Array<[string, Record<string, string>]> = [
    ['another origin, no body', { origin: 'http://evil.example' }],
    ['another port of the same host', { origin: 'http://127.0.0.1:1' }],
    ['Origin: null (a sandboxed frame)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
  ];

  it.each(senders)('%s', async (_name, headers) => {
    const open = new Set(CROSS_SITE_OPEN.map((r) => `${r.method} ${r.path}`));
    for (const r of mutating) {
      if (open.has(`${r.method} ${r.path}`)) continue;
      const bodyless = await send(r.method, concrete(r.path), headers);
      expect({ route: `${r.method} ${r.path}`, status: bodyless.status, code: bodyless.json?.code }).toEqual({
        route: `${r.method} ${r.path}`,
        status: 403,
        code: 'cross_site',
      });
      const withBody = await send(r.method, concrete(r.path), headers, { content: 'x', path: 'Note.md', to: 'B.md', id: 'x' });
      expect({ route: `${r.method} ${r.path}`, status: withBody.status }).toEqual({ route: `${r.method} ${r.path}`, status: 403 });
    }
    // Nothing was changed on the way.
    expect(await fs.readFile(path.join(server.vault, 'Note.md'), 'utf8')).toBe('Text.\n');
    expect((await server.api('GET', '/api/me', undefined, cookie)).body).toEqual({ admin: true });
  });

  it('OPTIONS is checked like any method but GET and HEAD', async () => {
    const senders: Array<Record<string, string>> = [{ origin: 'http://evil.example' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of senders) {
      const res = await send('OPTIONS', '/api/note?path=Note.md', headers);
      expect(res).toEqual({ status: 403, json: expect.objectContaining({ code: 'cross_site' }) });
    }
  });

  it('a cross-site sign-in is refused too', async () => {
    const res = await fetch(server.url + '/api/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ password: TEST_PASSWORD }),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
  });
});

describe('the server\'s own pages and header-less clients pass', () => {
  it('own Origin with Sec-Fetch-Site: same-origin saves a note', async () => {
    const res = await send('PUT', '/api/note?path=Note.md', { origin: server.url, 'sec-fetch-site': 'same-origin' }, { content: 'Own.\n' });
    expect(res.status).toBe(200);
    expect(await fs.readFile(path.join(server.vault, 'Note.md'), 'utf8')).toBe('Own.\n');
  });

  it('a request with neither header (curl, a script) is not refused on this ground', async () => {
    const res = await send('POST', '/api/sync/snapshot', {});
    expect(res.json?.code).not.toBe('cross_site');
    expect(res.status).not.toBe(403);
  });

  it('reads stay open to a cross-site GET (they change nothing; CORS keeps the answer from the other site)', async () => {
    const res = await send('GET', '/api/me', { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
    expect(res.status).toBe(200);
  });

  it('a bodyless same-origin logout works', async () => {
    const own = await server.login();
    const res = await fetch(server.url + '/api/logout', { method: 'POST', headers: { cookie: own, origin: server.url, 'sec-fetch-site': 'same-origin' } });
    expect(res.status).toBe(200);
    expect((await server.api('GET', '/api/me', undefined, own)).body).toEqual({ admin: false });
  });
});
