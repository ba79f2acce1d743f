// spec 4.1, Appendix C: the 'What travels' report and the boot pass of one server
// meeting a vault that already carries `.service/` (catalog fonts, a planted link, a
// file it cannot copy).
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { waitFor, serverForFile } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

let catalog: http.Server;
let vault: string;
let data: string;
let outside: string;

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

const server = serverForFile(async () => {
  catalog = http.createServer((req, res) => {
    const m = (req.url ?? '').match(/^\/cat\/(boot-serif|design-mono)\/(manifest\.json|regular\.woff2)$/);
    if (!m) {
      res.writeHead(404);
      res.end();
    } else if (m[2] === 'manifest.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ files: ['regular.woff2'] }));
    } else {
      res.end(Buffer.from(`font ${m[1]}`));
    }
  });
  await new Promise<void>((r) => catalog.listen(0, '127.0.0.1', () => r()));
  const catalogUrl = `http://127.0.0.1:${(catalog.address() as AddressInfo).port}/cat`;

  const base = await tempDir('vs-travel-report-');
  vault = path.join(base, 'vault');
  data = path.join(base, 'data');
  outside = path.join(base, 'outside-secret.txt');
  await fs.writeFile(outside, 'PRIVATE KEY MATERIAL');
  await writeFiles(vault, {
    'Note.md': 'A note.\n',
    '.service/settings.json': JSON.stringify({ siteName: 'From the vault', typography: { catalogFamilies: ['Boot Serif', 'Missing Face'] } }),
    '.service/designs.json': JSON.stringify({ designs: [{ name: 'Plain', fonts: { catalogFamilies: ['Design Mono'] } }] }),
    '.service/custom.css': '.s-blog-powered { display: none; }\n',
    '.service/books.json/not-a-file': 'a folder where books.json should be',
  });
  // A link planted in the vault's fonts folder must never be followed.
  await fs.mkdir(path.join(vault, '.service/fonts/custom'), { recursive: true });
  await fs.symlink(outside, path.join(vault, '.service/fonts/custom/planted.woff2'));
  await writeFiles(data, {
    'layouts.json': JSON.stringify({ layouts: [{ name: 'Wide' }] }),
    'books.json': JSON.stringify({ shelf: [{ title: 'A book', page: 12 }] }),
  });
  return { vault, data, env: { SETTINGS_MIRROR_SECONDS: '600', FONT_CATALOG_URL: catalogUrl } };
});

afterAll(async () => {
  await new Promise((r) => catalog.close(r));
});

describe('the boot pass', () => {
  it("adopts the vault's settings before the first request and carries this machine's own files into the vault", async () => {
    expect((await server.admin('GET', '/api/settings')).body.siteName).toBe('From the vault');
    expect(await fs.readFile(path.join(data, 'custom.css'), 'utf8')).toContain('s-blog-powered');
    expect(JSON.parse(await fs.readFile(path.join(vault, '.service/layouts.json'), 'utf8'))).toEqual({ layouts: [{ name: 'Wide' }] });
  });

  it('downloads the catalog families named by settings.json and designs.json, at boot, into the data directory only', async () => {
    await waitFor(() => exists(path.join(data, 'fonts/catalog/design-mono/manifest.json')), 5000);
    await waitFor(() => exists(path.join(data, 'fonts/catalog/boot-serif/manifest.json')), 5000);
    expect(await fs.readFile(path.join(data, 'fonts/catalog/boot-serif/regular.woff2'), 'utf8')).toBe('font boot-serif');
    expect(await exists(path.join(vault, '.service/fonts/catalog'))).toBe(false);
  });

  it('never follows a link planted in .service/', async () => {
    expect(await exists(path.join(data, 'fonts/custom/planted.woff2'))).toBe(false);
    for (const f of await fs.readdir(data, { recursive: true })) {
      const p = path.join(data, f.toString());
      // A temp file of a write in progress may be renamed away between the listing and here.
      const stat = await fs.lstat(p).catch(() => null);
      if (stat?.isFile()) expect(await fs.readFile(p, 'utf8').catch(() => '')).not.toContain('PRIVATE KEY MATERIAL');
    }
  });
});

describe("GET /api/sync/travel: the 'What travels' report", () => {
  it('one glyph per item: ✓ the vault holds it, ⚠ this machine holds something the vault does not yet, – nothing to carry', async () => {
    const res = await server.admin('GET', '/api/sync/travel');
    expect(res.status).toBe(200);
    const byId = Object.fromEntries(res.body.items.map((i: any) => [i.id, i]));
    expect(res.body.items.map((i: any) => i.id)).toEqual(['site', 'designs', 'css', 'fonts', 'layouts', 'books', 'annotations', 'prefs']);
    expect(byId.site).toMatchObject({ state: 'vault', glyph: '✓', label: 'Site' });
    expect(byId.designs).toMatchObject({ state: 'vault', glyph: '✓' });
    expect(byId.css).toMatchObject({ state: 'vault', glyph: '✓' });
    expect(byId.layouts).toMatchObject({ state: 'vault', glyph: '✓' });
    expect(byId.books).toMatchObject({ state: 'local', glyph: '⚠' });
    expect(byId.annotations).toMatchObject({ state: 'none', glyph: '–' });
    expect(byId.fonts).toMatchObject({ state: 'none', count: 0 });
    expect(byId.prefs).toMatchObject({ state: 'none', count: 0, travels: true });
  });

  it('time of the last pass, files reconciled, and each file the pass could not copy with its reason', async () => {
    const { body } = await server.admin('GET', '/api/sync/travel');
    expect(Date.parse(body.lastPass.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(body.reconciled).toBe(body.lastPass.reconciled);
    // settings, designs and custom.css came in; layouts went out; books could not.
    expect(body.reconciled).toBe(4);
    expect(body.problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ item: 'fonts', file: '.service/fonts/custom/planted.woff2', side: 'vault', code: 'symlink' }),
        expect.objectContaining({ item: 'books', file: '.service/books.json', side: 'vault', code: 'not_a_file' }),
      ]),
    );
    for (const p of body.problems) expect(p.reason).toEqual(expect.any(String));
    expect(JSON.stringify(body)).not.toContain(path.dirname(vault));
  });

  it('the catalog part names each family and what happened to it', async () => {
    await waitFor(async () => (await server.admin('GET', '/api/sync/travel')).body.catalog.families.length === 3, 5000);
    const { catalog: report } = (await server.admin('GET', '/api/sync/travel')).body;
    expect(report.configured).toBe(true);
    const byFamily = Object.fromEntries(report.families.map((f: any) => [f.family, f]));
    expect(byFamily['Boot Serif'].state).toMatch(/downloaded|cached/);
    expect(byFamily['Design Mono'].state).toMatch(/downloaded|cached/);
    expect(byFamily['Missing Face']).toMatchObject({ state: 'failed', error: expect.stringMatching(/404/) });
  });

  it('POST (Re-sync now) runs a pass and the font download, and answers the same report', async () => {
    await fs.rm(path.join(vault, '.service/books.json'), { recursive: true });
    await fs.rm(path.join(data, 'fonts/catalog/boot-serif'), { recursive: true });
    const res = await server.admin('POST', '/api/sync/travel');
    expect(res.status).toBe(200);
    expect(res.body.items.find((i: any) => i.id === 'books')).toMatchObject({ state: 'vault', glyph: '✓' });
    expect(res.body.problems.some((p: any) => p.item === 'books')).toBe(false);
    expect(await exists(path.join(data, 'fonts/catalog/boot-serif/regular.woff2'))).toBe(true);
    expect(res.body.catalog.families.find((f: any) => f.family === 'Boot Serif').state).toBe('downloaded');
    expect(Object.keys((await server.admin('GET', '/api/sync/travel')).body).sort()).toEqual(Object.keys(res.body).sort());
  });
});
