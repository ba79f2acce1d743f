// CONTRACT §5, spec 5.2, 8, Appendix C: GET/PUT /api/prefs on the real server, with
// `.service/prefs.json` edited from outside the way another device would.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

let server: TestServer;
const vaultPrefs = () => path.join(server.vault, '.service', 'prefs.json');
const localPrefs = () => path.join(server.data, 'prefs.json');

async function readVaultPrefs(): Promise<any> {
  try {
    return JSON.parse(await fs.readFile(vaultPrefs(), 'utf8'));
  } catch {
    return null;
  }
}

/** Writes the vault copy as another device would (temp file + rename). */
async function writeVaultPrefs(doc: unknown): Promise<void> {
  await fs.mkdir(path.dirname(vaultPrefs()), { recursive: true });
  await fs.writeFile(vaultPrefs() + '.tmp', typeof doc === 'string' ? doc : JSON.stringify(doc));
  await fs.rename(vaultPrefs() + '.tmp', vaultPrefs());
}

beforeAll(async () => {
  // A long mirror period: only the one-second preferences push can carry a change.
  server = await startServer({ env: { SETTINGS_MIRROR_SECONDS: '600' } });
});
afterAll(async () => {
  await server.stop();
  await cleanupTempDirs();
});

describe('GET/PUT /api/prefs', () => {
  it('starts empty, with the per-device switch on', async () => {
    const res = await server.admin('GET', '/api/prefs');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ keys: {}, travelWithVault: true });
  });

  it('PUT merges and returns the whole map; null clears a key', async () => {
    expect((await server.admin('PUT', '/api/prefs', { keys: { theme: 'dark', sidebar: 'left' } })).body.keys).toEqual({
      theme: 'dark',
      sidebar: 'left',
    });
    const res = await server.admin('PUT', '/api/prefs', { keys: { sidebar: null, 'course:algebra': { page: 12 } } });
    expect(res.status).toBe(200);
    expect(res.body.keys).toEqual({ theme: 'dark', 'course:algebra': { page: 12 } });
    expect((await server.admin('GET', '/api/prefs')).body.keys).toEqual(res.body.keys);
    expect((await fs.stat(localPrefs())).mode & 0o777).toBe(0o600);
  });

  it('bad input is a 400 naming the key, and nothing is written', async () => {
    const before = await fs.readFile(localPrefs());
    const cases: Array<[unknown, string]> = [
      [{ keys: { ['k'.repeat(129)]: 1 } }, `keys.${'k'.repeat(129)}`],
      [{ keys: { huge: 'x'.repeat(5000) } }, 'keys.huge'],
      [{ keys: { 'bad\u0001key': 1 } }, 'keys.bad\u0001key'],
      [{ keys: ['theme'] }, 'keys'],
      [{ keys: 'theme=dark' }, 'keys'],
      [{ travelWithVault: 'no' }, 'travelWithVault'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await server.admin('PUT', '/api/prefs', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.field, JSON.stringify(body)).toBe(field);
    }
    expect((await fs.readFile(localPrefs())).equals(before)).toBe(true);
  });
});

describe('pushed one second after a change', () => {
  it('a change reaches .service/prefs.json about a second later, not at the next mirror period', async () => {
    // Let the push of the earlier changes land first, so this one starts its own second.
    await waitFor(async () => (await readVaultPrefs())?.keys?.theme !== undefined, 3000);
    await server.admin('PUT', '/api/prefs', { keys: { readingMode: 'serif' } });
    expect((await readVaultPrefs())?.keys?.readingMode).toBeUndefined();
    const began = Date.now();
    await waitFor(async () => (await readVaultPrefs())?.keys?.readingMode?.value === 'serif', 3000, 25);
    // Far sooner than the 600 s mirror period: the one-second push carried it. (No lower
    // bound: a push already scheduled by an earlier change may carry it sooner.)
    expect(Date.now() - began).toBeLessThan(2500);
    const doc = await readVaultPrefs();
    expect(doc.keys.sidebar).toMatchObject({ cleared: true });
  });
});

describe('pulled before anything is drawn', () => {
  it("GET merges the vault's copy first: a key set on another device is there at once", async () => {
    const doc = await readVaultPrefs();
    doc.keys.headingNumbers = { at: Date.now(), value: true };
    doc.keys.theme = { at: Date.now() + 10, value: 'sepia' };
    await writeVaultPrefs(doc);
    const res = await server.admin('GET', '/api/prefs');
    expect(res.body.keys).toMatchObject({ headingNumbers: true, theme: 'sepia' });
  });

  it('a cleared key from another device stays cleared here', async () => {
    const doc = await readVaultPrefs();
    doc.keys.headingNumbers = { at: Date.now() + 20, cleared: true };
    await writeVaultPrefs(doc);
    expect((await server.admin('GET', '/api/prefs')).body.keys.headingNumbers).toBeUndefined();
  });

  it('malformed entries are dropped, the good ones kept', async () => {
    const doc = await readVaultPrefs();
    doc.keys.fromElsewhere = { at: Date.now() + 30, value: 'ok' };
    doc.keys.noStamp = { value: 'x' };
    doc.keys.tooBig = { at: Date.now(), value: 'x'.repeat(5000) };
    await writeVaultPrefs(doc);
    const keys = (await server.admin('GET', '/api/prefs')).body.keys;
    expect(keys.fromElsewhere).toBe('ok');
    expect(keys.noStamp).toBeUndefined();
    expect(keys.tooBig).toBeUndefined();
  });

  it('a torn vault copy is not adopted: the map on this device is intact and the copy is rewritten from it', async () => {
    const before = (await server.admin('GET', '/api/prefs')).body.keys;
    await writeVaultPrefs('{"version":1,"keys":{"theme":{"at":');
    expect((await server.admin('GET', '/api/prefs')).body.keys).toEqual(before);
    expect((await readVaultPrefs())?.keys?.fromElsewhere?.value).toBe('ok');
  });
});

describe("the per-device switch 'Settings travel with the vault'", () => {
  it('off: changes stay on this device and the vault copy is not pulled', async () => {
    const res = await server.admin('PUT', '/api/prefs', { travelWithVault: false, keys: { privateKey: 1 } });
    expect(res.body.travelWithVault).toBe(false);
    const doc = await readVaultPrefs();
    doc.keys.whileOff = { at: Date.now() + 40, value: 'elsewhere' };
    await writeVaultPrefs(doc);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await readVaultPrefs()).keys.privateKey).toBeUndefined();
    const get = await server.admin('GET', '/api/prefs');
    expect(get.body).toMatchObject({ travelWithVault: false });
    expect(get.body.keys.whileOff).toBeUndefined();
    expect(get.body.keys.privateKey).toBe(1);
    const item = (await server.admin('GET', '/api/sync/travel')).body.items.find((i: any) => i.id === 'prefs');
    expect(item).toMatchObject({ travels: false, state: 'local', glyph: '⚠' });
  });

  it('the switch itself does not travel: it lives in the data directory only', async () => {
    const text = await fs.readFile(vaultPrefs(), 'utf8');
    expect(text).not.toContain('travelWithVault');
    const state = JSON.parse(await fs.readFile(path.join(server.data, 'travel-state.json'), 'utf8'));
    expect(state.device).toEqual({ travelWithVault: false });
  });

  it('back on: both ways again', async () => {
    await server.admin('PUT', '/api/prefs', { travelWithVault: true });
    await waitFor(async () => (await readVaultPrefs())?.keys?.privateKey?.value === 1, 3000);
    expect((await server.admin('GET', '/api/prefs')).body.keys.whileOff).toBe('elsewhere');
  });

  it('survives a restart', async () => {
    await server.admin('PUT', '/api/prefs', { travelWithVault: false });
    await server.stop();
    server = await startServer({ vault: server.vault, data: server.data, env: { SETTINGS_MIRROR_SECONDS: '600' } });
    expect((await server.admin('GET', '/api/prefs')).body.travelWithVault).toBe(false);
  });
});

describe('admin only', () => {
  it('a visitor can neither read nor write preferences, through the API or the public site', async () => {
    expect((await server.api('GET', '/api/prefs')).status).toBe(401);
    expect((await server.api('PUT', '/api/prefs', { keys: { theme: 'x' } })).status).toBe(401);
    const res = await server.api('GET', '/.service/prefs.json');
    expect(res.status).not.toBe(200);
    expect(res.text).not.toContain('privateKey');
  });
});
