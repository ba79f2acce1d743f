// Bad input from a request is a visitor or a clear 4xx, never a 500, and
// changes nothing: malformed cookies, settings keys named like Object.prototype members.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, writeFiles } from '../helpers/tmp.ts';

let server: TestServer;
let privateServer: TestServer;
const BAD_COOKIE = 'service_session=%E0%A4%A';

beforeAll(async () => {
  [server, privateServer] = await Promise.all([
    startServer({ env: { SETTINGS_MIRROR_SECONDS: '0.2' } }),
    startServer({ env: { PUBLIC: 'false' } }),
  ]);
  await writeFiles(server.vault, { 'Hello.md': '---\npublish: true\n---\nHi.\n' });
});
afterAll(async () => {
  await Promise.all([server.stop(), privateServer.stop()]);
  await cleanupTempDirs();
});

async function get(base: string, route: string, cookie: string) {
  const res = await fetch(base + route, { headers: { cookie } });
  return { status: res.status, text: await res.text() };
}

describe('a malformed session cookie is a visitor, not a server error', () => {
  it('the public home answers 200', async () => {
    expect((await get(server.url, '/', BAD_COOKIE)).status).toBe(200);
  });

  it('/api/me says not admin', async () => {
    const res = await get(server.url, '/api/me', BAD_COOKIE);
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toEqual({ admin: false });
  });

  it('/api/tree answers 401 as to any visitor', async () => {
    expect((await get(server.url, '/api/tree', BAD_COOKIE)).status).toBe(401);
  });

  it('next to a valid session cookie, the valid one still signs in', async () => {
    const cookie = await server.login();
    expect((await get(server.url, '/api/tree', `${BAD_COOKIE}; ${cookie}`)).status).toBe(200);
  });

  it('on a PUBLIC=false instance the home answers 401, not 500', async () => {
    expect((await get(privateServer.url, '/', BAD_COOKIE)).status).toBe(401);
  });
});

describe('settings keys named like Object.prototype members are bad input', () => {
  const settingsJson = () => path.join(server.data, 'settings.json');
  const vaultCopy = () => path.join(server.vault, '.service', 'settings.json');
  const cases: Array<[unknown, string]> = [
    [{ constructor: 'x' }, 'constructor'],
    [{ toString: 'x' }, 'toString'],
    [{ isPrototypeOf: 'x' }, 'isPrototypeOf'],
    [{ valueOf: 'x' }, 'valueOf'],
    [{ hasOwnProperty: 'x' }, 'hasOwnProperty'],
    [JSON.parse('{"__proto__": {"siteName": "Polluted"}}'), '__proto__'],
    [{ sync: { constructor: 'x' } }, 'sync.constructor'],
    [{ home: { toString: 'x' } }, 'home.toString'],
    [JSON.parse('{"sync": {"__proto__": {"enabled": true}}}'), 'sync.__proto__'],
    [{ typography: { constructor: 'x' } }, 'typography.constructor'],
  ];

  it.each(cases)('%j answers 400 naming the field and changes nothing', async (body, field) => {
    // A real setting first, so "nothing changed" compares against something.
    expect((await server.admin('PATCH', '/api/settings', { siteName: 'Before' })).status).toBe(200);
    const before = await fs.readFile(settingsJson(), 'utf8');
    // JSON.stringify keeps an own `__proto__` key, as a hostile client would send it.
    const res = await server.admin('PATCH', '/api/settings', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ field, code: 'unknown_setting' });
    expect(await fs.readFile(settingsJson(), 'utf8')).toBe(before);
    const after = await server.admin('GET', '/api/settings');
    expect(after.status).toBe(200);
    expect(after.body.siteName).toBe('Before');
    expect(Object.keys(after.body)).not.toContain(field.split('.')[0] === 'sync' ? 'x' : field);
  });

  it('none of them reached the vault copy of the settings', async () => {
    // The mirror runs every 0.2 s: wait for it to have carried the last good save.
    const deadline = Date.now() + 10_000;
    let copy = '';
    while (Date.now() < deadline) {
      copy = await fs.readFile(vaultCopy(), 'utf8').catch(() => '');
      if (copy.includes('Before')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(copy).toContain('Before');
    for (const name of ['constructor', 'toString', 'isPrototypeOf', 'valueOf', 'hasOwnProperty', '__proto__', 'Polluted']) {
      expect(copy).not.toContain(name);
    }
  });
});
