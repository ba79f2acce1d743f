// spec 8: two real servers over one vault, each with its own data directory, save
// different settings a moment apart. The mirror merges the two changes field by field
// against the copy both last agreed on: neither is lost, and both servers end up agreeing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const PERIOD_S = 1;

let vault: string;
let a: TestServer;
let b: TestServer;

const env = () => ({ SETTINGS_MIRROR_SECONDS: String(PERIOD_S) });
const settingsOf = async (server: TestServer) => (await server.admin('GET', '/api/settings')).body;
const vaultSettings = async () => JSON.parse(await fs.readFile(path.join(vault, '.service', 'settings.json'), 'utf8'));

/** Both servers and the vault's copy report the same values for `keys` (a positive signal that the mirror has run). */
async function agreeOn(keys: string[], expectKey: string, expectValue: string): Promise<Record<string, unknown>> {
  return waitFor(async () => {
    const [sa, sb] = [await settingsOf(a), await settingsOf(b)];
    const inVault = await vaultSettings().catch(() => ({}));
    if (sa[expectKey] !== expectValue) return null;
    for (const key of keys) if (sa[key] !== sb[key] || (inVault[key] ?? null) !== sa[key]) return null;
    return sa;
  }, 8000, 25);
}

beforeAll(async () => {
  const base = await tempDir('vs-travel-race-');
  vault = path.join(base, 'vault');
  await writeFiles(vault, { 'Hello.md': '---\npublish: true\n---\nHello.\n' });
  a = await startServer({ vault, data: path.join(base, 'data-a'), env: env() });
  b = await startServer({ vault, data: path.join(base, 'data-b'), env: env() });
  expect((await a.admin('PATCH', '/api/settings', { siteName: 'Start', tagline: 'Start' })).status).toBe(200);
  await agreeOn(['siteName', 'tagline'], 'tagline', 'Start');
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await cleanupTempDirs();
});

describe('settings saved on two servers a moment apart are both kept', () => {
  for (const gapMs of [0, 50, 150, 300]) {
    it(`siteName on A, then tagline on B ${gapMs} ms later: both servers end with both`, async () => {
      const siteName = `Name from A (${gapMs} ms)`;
      const tagline = `Tagline from B (${gapMs} ms)`;
      const onA = a.admin('PATCH', '/api/settings', { siteName });
      if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      const onB = b.admin('PATCH', '/api/settings', { tagline });
      expect((await onA).status).toBe(200);
      expect((await onB).status).toBe(200);

      const agreed = await agreeOn(['siteName', 'tagline'], 'tagline', tagline);
      expect(agreed.siteName).toBe(siteName);
      // Another pass on each changes nothing.
      await a.admin('POST', '/api/sync/travel');
      await b.admin('POST', '/api/sync/travel');
      for (const server of [a, b]) expect(await settingsOf(server)).toMatchObject({ siteName, tagline });
      expect(await vaultSettings()).toMatchObject({ siteName, tagline });
    });
  }

  it('the same field changed on both: the later save wins on both servers, and the fields only one changed are kept', async () => {
    const onA = a.admin('PATCH', '/api/settings', { siteName: 'Both: A', footer: 'Footer from A' });
    await new Promise((r) => setTimeout(r, 50));
    const onB = b.admin('PATCH', '/api/settings', { siteName: 'Both: B', tagline: 'Tagline from B, in conflict' });
    expect((await onA).status).toBe(200);
    expect((await onB).status).toBe(200);

    const agreed = await agreeOn(['siteName', 'tagline', 'footer'], 'tagline', 'Tagline from B, in conflict');
    expect(agreed).toMatchObject({ siteName: 'Both: B', footer: 'Footer from A' });
    expect(await settingsOf(b)).toMatchObject({ siteName: 'Both: B', footer: 'Footer from A', tagline: 'Tagline from B, in conflict' });
  });

  it('a value cleared on one server while the other sets another field stays cleared', async () => {
    const onA = a.admin('PATCH', '/api/settings', { footer: null });
    const onB = b.admin('PATCH', '/api/settings', { home: { mode: 'dashboard' } });
    expect((await onA).status).toBe(200);
    expect((await onB).status).toBe(200);
    await waitFor(async () => {
      const [sa, sb] = [await settingsOf(a), await settingsOf(b)];
      return sa.home.mode === 'dashboard' && sb.home.mode === 'dashboard' && sa.footer === sb.footer && (await vaultSettings()).home?.mode === 'dashboard';
    }, 8000, 25);
    expect((await settingsOf(a)).footer).toBeNull();
    expect((await settingsOf(b)).footer).toBeNull();
    expect((await vaultSettings()).footer).toBeUndefined();
  });
});
