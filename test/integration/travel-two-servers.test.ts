// spec 8, Appendix C: two real servers over one vault, each with its own data
// directory, carry settings, preferences and fonts through the vault's `.service/`.
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles, filesUnder } from '../helpers/tmp.ts';

const PERIOD_S = 1;
const MB = 1024 * 1024;
const TOKEN = 'ghp_twoServersTravelToken9876543210';

let vault: string;
let dataA: string;
let dataB: string;
let a: TestServer;
let b: TestServer;
let catalog: http.Server;
let catalogUrl: string;
const catalogHits: string[] = [];

const env = () => ({ SETTINGS_MIRROR_SECONDS: String(PERIOD_S), FONT_CATALOG_URL: catalogUrl });
const vaultFile = (rel: string) => path.join(vault, '.service', rel);

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

beforeAll(async () => {
  // A loopback font catalog: {base}/{slug}/manifest.json and the files it lists.
  catalog = http.createServer((req, res) => {
    catalogHits.push(req.url ?? '');
    const m = (req.url ?? '').match(/^\/fonts\/([a-z0-9-]+)\/(.+)$/);
    if (m && m[2] === 'manifest.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ files: ['regular.woff2', 'bold.woff2'] }));
    } else if (m && /^(regular|bold)\.woff2$/.test(m[2]!)) {
      res.writeHead(200, { 'content-type': 'font/woff2' });
      res.end(Buffer.from(`wOF2 ${m[1]} ${m[2]}`));
    } else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((r) => catalog.listen(0, '127.0.0.1', () => r()));
  catalogUrl = `http://127.0.0.1:${(catalog.address() as AddressInfo).port}/fonts`;

  const base = await tempDir('vs-travel-');
  vault = path.join(base, 'vault');
  dataA = path.join(base, 'data-a');
  dataB = path.join(base, 'data-b');
  await writeFiles(vault, { 'Hello.md': '---\npublish: true\n---\nHello.\n' });
  a = await startServer({ vault, data: dataA, env: env() });
});

afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await new Promise((r) => catalog.close(r));
  await cleanupTempDirs();
});

describe('first contact: the vault copy wins', () => {
  it("B adopts the vault's settings.json even though its own file is newer", async () => {
    expect((await a.admin('PATCH', '/api/settings', { siteName: 'Saved on A' })).status).toBe(200);
    await waitFor(() => exists(vaultFile('settings.json')), 3000);

    await writeFiles(dataB, { 'settings.json': JSON.stringify({ siteName: 'B before it met the vault' }) });
    const future = new Date(Date.now() + 3600_000);
    await fs.utimes(path.join(dataB, 'settings.json'), future, future);

    b = await startServer({ vault, data: dataB, env: env() });
    // The boot pass runs before the server listens.
    expect((await b.admin('GET', '/api/settings')).body.siteName).toBe('Saved on A');
    expect(JSON.parse(await fs.readFile(path.join(dataB, 'settings.json'), 'utf8')).siteName).toBe('Saved on A');
  });

  it('first contact is remembered per vault: after a restart, an edit made on B while it was stopped wins', async () => {
    await b.stop();
    await writeFiles(dataB, { 'settings.json': JSON.stringify({ siteName: 'Edited on B while stopped' }) });
    b = await startServer({ vault, data: dataB, env: env() });
    expect((await b.admin('GET', '/api/settings')).body.siteName).toBe('Edited on B while stopped');
    await waitFor(async () => (await a.admin('GET', '/api/settings')).body.siteName === 'Edited on B while stopped', 3000);
    const state = JSON.parse(await fs.readFile(path.join(dataB, 'travel-state.json'), 'utf8'));
    expect(Object.keys(state.vaults)).toEqual([await fs.realpath(vault)]);
  });
});

describe('a setting saved on one server appears on the other within one mirror period plus a second', () => {
  it('A → B', async () => {
    const began = Date.now();
    await a.admin('PATCH', '/api/settings', { tagline: 'Tagline from A', home: { mode: 'dashboard' } });
    await waitFor(async () => (await b.admin('GET', '/api/settings')).body.tagline === 'Tagline from A', PERIOD_S * 1000 + 1000, 25);
    expect(Date.now() - began).toBeLessThanOrEqual(PERIOD_S * 1000 + 1000);
    expect((await b.admin('GET', '/api/settings')).body.home.mode).toBe('dashboard');
  });

  it('B → A', async () => {
    const began = Date.now();
    await b.admin('PATCH', '/api/settings', { collections: { enabled: true } });
    await waitFor(async () => (await a.admin('GET', '/api/settings')).body.collections.enabled === true, PERIOD_S * 1000 + 1000, 25);
    expect(Date.now() - began).toBeLessThanOrEqual(PERIOD_S * 1000 + 1000);
  });
});

describe('device preferences', () => {
  it('a preference cleared on A stays cleared on B while another key set on B survives', async () => {
    await a.admin('PUT', '/api/prefs', { keys: { theme: 'dark', vimKeys: true } });
    // B pulls before answering, once A has pushed (one second after the change).
    await waitFor(async () => (await b.admin('GET', '/api/prefs')).body.keys.vimKeys === true, 4000);

    const cleared = await a.admin('PUT', '/api/prefs', { keys: { vimKeys: null } });
    expect(cleared.body.keys).toEqual({ theme: 'dark' });
    const setOnB = await b.admin('PUT', '/api/prefs', { keys: { editorWidth: 720 } });
    expect(setOnB.body.keys).toMatchObject({ theme: 'dark', vimKeys: true, editorWidth: 720 });

    const expected = { theme: 'dark', editorWidth: 720 };
    await waitFor(async () => isDeepStrictEqual((await a.admin('GET', '/api/prefs')).body.keys, expected), 5000);
    await waitFor(async () => isDeepStrictEqual((await b.admin('GET', '/api/prefs')).body.keys, expected), 5000);

    // The clear travels as a stamped tombstone in .service/prefs.json.
    const doc = JSON.parse(await fs.readFile(vaultFile('prefs.json'), 'utf8'));
    expect(doc.keys.vimKeys).toMatchObject({ cleared: true });
    expect(doc.keys.editorWidth).toMatchObject({ value: 720 });
    // Several passes later it is still cleared on both.
    await new Promise((r) => setTimeout(r, PERIOD_S * 1000 + 500));
    expect((await a.admin('GET', '/api/prefs')).body.keys).toEqual(expected);
    expect((await b.admin('GET', '/api/prefs')).body.keys).toEqual(expected);
  });

  it("the travel report counts the preference keys and says the vault holds them", async () => {
    const report = (await a.admin('GET', '/api/sync/travel')).body;
    expect(report.items.find((i: any) => i.id === 'prefs')).toMatchObject({ state: 'vault', glyph: '✓', count: 2, travels: true });
  });
});

describe('a damaged vault copy is never adopted', () => {
  it('a truncated .service/settings.json is reported and leaves the good local copies alone', async () => {
    const goodA = await fs.readFile(path.join(dataA, 'settings.json'));
    const goodB = await fs.readFile(path.join(dataB, 'settings.json'));
    await fs.writeFile(vaultFile('settings.json'), '{\n  "siteName": "Torn');

    const report = (await b.admin('POST', '/api/sync/travel')).body;
    expect(report.problems).toEqual(
      expect.arrayContaining([expect.objectContaining({ item: 'site', file: '.service/settings.json', side: 'vault', code: 'malformed' })]),
    );
    expect(report.problems.find((p: any) => p.file === '.service/settings.json').reason).toMatch(/not valid JSON/);
    expect(report.lastPass.problems).toEqual(report.problems);
    await new Promise((r) => setTimeout(r, PERIOD_S * 1000 + 500));
    expect((await fs.readFile(path.join(dataA, 'settings.json'))).equals(goodA)).toBe(true);
    expect((await fs.readFile(path.join(dataB, 'settings.json'))).equals(goodB)).toBe(true);
    expect((await b.admin('GET', '/api/settings')).body.tagline).toBe('Tagline from A');
  });

  it('the next genuine save replaces the damaged copy, and the other server adopts it', async () => {
    await a.admin('PATCH', '/api/settings', { tagline: 'After the repair' });
    await waitFor(async () => (await b.admin('GET', '/api/settings')).body.tagline === 'After the repair', 4000);
    expect(JSON.parse(await fs.readFile(vaultFile('settings.json'), 'utf8')).tagline).toBe('After the repair');
    const report = (await b.admin('POST', '/api/sync/travel')).body;
    expect(report.problems).toEqual([]);
  });
});

describe('what never travels', () => {
  it('the token file, the admin password, versions and the travel memory never appear under .service/', async () => {
    await a.admin('PATCH', '/api/settings', { sync: { token: TOKEN, username: 'octo' } });
    await a.admin('PUT', '/api/note?path=Hello.md', { content: 'Hello again.\n' });
    await writeFiles(dataA, { 'feeds.db': 'feed data', 'fonts/catalog/x/manifest.json': '{"files":[]}' });
    await a.admin('POST', '/api/sync/travel');
    await b.admin('POST', '/api/sync/travel');
    const files = (await filesUnder(path.join(vault, '.service'))).map((f) => path.relative(path.join(vault, '.service'), f));
    expect(files).toContain('settings.json');
    for (const f of files) {
      expect(f).not.toMatch(/git-credentials|admin\.json|travel-state|feeds\.db|^versions\/|^fonts\/catalog\//);
      expect(await fs.readFile(path.join(vault, '.service', f), 'utf8')).not.toContain(TOKEN);
    }
    expect(await exists(path.join(dataB, 'git-credentials.json'))).toBe(false);
    expect((await b.admin('GET', '/api/settings')).body.tokenSet).toBe(false);
  });

  it('the public site serves nothing from .service/', async () => {
    // The masthead may show the tagline; the files themselves (their JSON keys) never appear.
    for (const [rel, marker] of [
      ['settings.json', '"tagline"'],
      ['prefs.json', 'editorWidth'],
      ['fonts/custom/index.json', '"faces"'],
    ]) {
      const res = await a.api('GET', `/.service/${rel}`);
      expect(res.status, rel).not.toBe(200);
      expect(res.text, rel).not.toContain(marker);
    }
  });
});

/** A file put in place whole, as the app's uploads are: a mirror pass reading it half written would see a smaller file. */
async function placeFile(file: string, bytes: Buffer): Promise<void> {
  const temp = path.join(path.dirname(path.dirname(file)), `.placing-${path.basename(file)}`);
  await fs.writeFile(temp, bytes);
  await fs.rename(temp, file);
}

describe('uploaded fonts', () => {
  it('a 6 MB font is left behind and named in the report; the others travel', async () => {
    await writeFiles(dataA, {
      'fonts/custom/index.json': JSON.stringify({ faces: [{ family: 'Mine', file: 'small.woff2' }, { family: 'Big', file: 'big.woff2' }] }),
    });
    await placeFile(path.join(dataA, 'fonts/custom/small.woff2'), Buffer.alloc(200 * 1024, 1));
    await placeFile(path.join(dataA, 'fonts/custom/big.woff2'), Buffer.alloc(6 * MB, 2));

    const report = (await a.admin('POST', '/api/sync/travel')).body;
    const big = report.problems.find((p: any) => p.file === 'fonts/custom/big.woff2');
    expect(big).toMatchObject({ item: 'fonts', code: 'file_cap', side: 'device' });
    expect(big.reason).toMatch(/6\.0 MB.*5\.0 MB/);
    expect(await exists(vaultFile('fonts/custom/big.woff2'))).toBe(false);
    expect(await exists(vaultFile('fonts/custom/small.woff2'))).toBe(true);
    expect(await exists(vaultFile('fonts/custom/index.json'))).toBe(true);
    expect(report.items.find((i: any) => i.id === 'fonts')).toMatchObject({ state: 'local', glyph: '⚠', count: 2 });
    await waitFor(() => exists(path.join(dataB, 'fonts/custom/small.woff2')), 4000);
    expect(await exists(path.join(dataB, 'fonts/custom/big.woff2'))).toBe(false);
  });

  it('once the folder would pass 40 MB the remaining files stay behind, each named', async () => {
    for (let i = 1; i <= 9; i++) {
      await placeFile(path.join(dataA, `fonts/custom/face-${i}.woff2`), Buffer.alloc(Math.round(4.6 * MB), i));
    }
    const report = (await a.admin('POST', '/api/sync/travel')).body;
    const folderCap = report.problems.filter((p: any) => p.code === 'folder_cap').map((p: any) => p.file);
    expect(folderCap.length).toBeGreaterThan(0);
    const inVault = await filesUnder(vaultFile('fonts/custom'));
    let total = 0;
    for (const f of inVault) total += (await fs.stat(f)).size;
    expect(total).toBeLessThanOrEqual(40 * MB);
    // Every local file is either in the vault or named in the report.
    for (const f of (await filesUnder(path.join(dataA, 'fonts/custom'))).map((p) => path.relative(dataA, p))) {
      const named = report.problems.some((p: any) => p.file === f);
      expect(named || (await exists(vaultFile(f))), f).toBe(true);
      expect(named && (await exists(vaultFile(f))), f).toBe(false);
    }
    // 200 KB + 8 × 4.6 MB fit; the ninth face would pass 40 MB.
    expect(folderCap).toEqual(['fonts/custom/face-9.woff2']);
  });
});

describe('catalog fonts are re-downloaded, never copied', () => {
  it('when a newer settings.json naming a family arrives, the receiving server downloads it from the catalog', async () => {
    catalogHits.length = 0;
    await b.admin('PATCH', '/api/settings', { typography: { catalogFamilies: ['Test Sans'] } });
    await waitFor(() => exists(path.join(dataA, 'fonts/catalog/test-sans/manifest.json')), 5000);
    expect(await fs.readFile(path.join(dataA, 'fonts/catalog/test-sans/bold.woff2'), 'utf8')).toBe('wOF2 test-sans bold.woff2');
    expect(catalogHits).toContain('/fonts/test-sans/manifest.json');
    expect(await exists(vaultFile('fonts/catalog'))).toBe(false);
    const report = (await a.admin('POST', '/api/sync/travel')).body;
    expect(report.catalog).toMatchObject({ configured: true, families: [{ family: 'Test Sans', state: 'cached', files: 2 }] });
  });
});
