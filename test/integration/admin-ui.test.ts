// The admin app's own routes (admin/routes/ui.ts) against the real server: the
// shell and its assets under /admin/, the attachment read and upload, and the
// collections the vault declares.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureUiBuilt } from '../helpers/browser.ts';
import { serverForFile } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

let vault: string;

const server = serverForFile(async () => {
  await ensureUiBuilt();
  const base = await tempDir('vs-admin-ui-');
  vault = path.join(base, 'vault');
  await writeFiles(vault, {
    'Note.md': 'A note.\n',
    'Topics/writing.md': '---\ntitle: Writing\ncollection: true\nicon: ✎\ndescription: About writing.\norder: 2\n---\n',
    'Topics/travel.md': '---\ntitle: Travel\ncollection: true\nfolder: Trips\nslug: On The Road\norder: 1\nhidden: true\n---\n',
    'Topics/food.md': '---\ntitle: Food\n---\nA plain tag page.\n',
    'Elsewhere/garden.md': '---\ntag: "#garden"\ncollection: true\n---\n',
  });
  await fs.mkdir(path.join(vault, 'Attachments'));
  await fs.writeFile(path.join(vault, 'Attachments/pic.png'), PNG);
  return { vault, data: path.join(base, 'data') };
});

describe('the app shell under /admin/', () => {
  it('answers /admin, /admin/ and deep links with the same public shell, never cached', async () => {
    for (const route of ['/admin', '/admin/', '/admin/note/Some/Deep.md']) {
      const res = await server.api('GET', route);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      // Framed by nothing, the site's own pages included (a published note's iframe once
      // showed the signed-in app under a bait).
      expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.text).toContain('<div id="app"></div>');
    }
  });

  it('serves hashed assets with a year-long immutable cache, brotli when asked, and 404 for a missing one', async () => {
    const shell = (await server.api('GET', '/admin/')).text;
    const script = shell.match(/src="(\/admin\/assets\/app-[^"]+\.js)"/)![1]!;
    const res = await fetch(server.url + script, { headers: { 'accept-encoding': 'br' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await res.text()).toContain('/api/');
    expect((await server.api('GET', '/admin/assets/app-missing.js')).status).toBe(404);
  });
});

describe('attachments for the app', () => {
  it('a visitor gets 401 from the file, upload and collections routes', async () => {
    expect((await server.api('GET', '/api/file?path=Attachments%2Fpic.png')).status).toBe(401);
    expect((await server.api('PUT', '/api/attachment?path=Attachments%2Fx.png', { dataBase64: PNG.toString('base64') })).status).toBe(401);
    expect((await server.api('GET', '/api/collections')).status).toBe(401);
  });

  it('reads an attachment with its type and a no-script policy; refuses notes and paths out of the vault', async () => {
    const res = await fetch(`${server.url}/api/file?path=Attachments%2Fpic.png`, { headers: { cookie: await server.login() } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
    expect(Buffer.compare(Buffer.from(await res.arrayBuffer()), PNG)).toBe(0);
    expect((await server.admin('GET', '/api/file?path=Note.md')).status).toBe(400);
    expect((await server.admin('GET', '/api/file?path=..%2Fetc%2Fpasswd')).status).toBe(400);
    expect((await server.admin('GET', '/api/file?path=Attachments%2Fnone.png')).status).toBe(404);
  });

  it('an upload is written into the vault, beside an existing name rather than over it', async () => {
    const first = await server.admin('PUT', '/api/attachment?path=Attachments%2Fpic.png', { dataBase64: PNG.toString('base64') });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ path: 'Attachments/pic 2.png' });
    expect(Buffer.compare(await fs.readFile(path.join(vault, 'Attachments/pic 2.png')), PNG)).toBe(0);
    const fresh = await server.admin('PUT', '/api/attachment?path=New%2Fbanner.png', { dataBase64: PNG.toString('base64') });
    expect(fresh.body).toEqual({ path: 'New/banner.png' });
  });

  it('refuses notes, non-images, empty bodies and bad base64', async () => {
    const data = PNG.toString('base64');
    expect((await server.admin('PUT', '/api/attachment?path=Evil.md', { dataBase64: data })).body.code).toBe('not_an_image');
    expect((await server.admin('PUT', '/api/attachment?path=a.html', { dataBase64: data })).body.code).toBe('not_an_image');
    expect((await server.admin('PUT', '/api/attachment?path=a.png', { dataBase64: '' })).status).toBe(413);
    expect((await server.admin('PUT', '/api/attachment?path=a.png', { dataBase64: '<script>' })).body.code).toBe('bad_data');
    expect((await server.admin('PUT', '/api/attachment?path=.git%2Fx.png', { dataBase64: data })).status).toBe(400);
    await expect(fs.stat(path.join(vault, 'Evil.md'))).rejects.toThrow();
  });
});

describe('GET /api/collections: what the vault declares (spec 2.8, D.5)', () => {
  it('lists tag pages with collection: true, in arranged order, read as the public model reads them', async () => {
    const res = await server.admin('GET', '/api/collections');
    expect(res.status).toBe(200);
    expect(res.body.collections).toEqual([
      { tag: 'travel', slug: 'on-the-road', title: 'Travel', icon: '◆', description: null, folder: 'Trips', hidden: true, path: 'Topics/travel.md' },
      { tag: 'writing', slug: 'writing', title: 'Writing', icon: '✎', description: 'About writing.', folder: '', hidden: false, path: 'Topics/writing.md' },
      { tag: 'garden', slug: 'garden', title: 'garden', icon: '◆', description: null, folder: '', hidden: false, path: 'Elsewhere/garden.md' },
    ]);
  });

  it('follows the vault: a new declaration appears, a removed one goes', async () => {
    await fs.writeFile(path.join(vault, 'Topics/food.md'), '---\ntitle: Food\ncollection: true\n---\n');
    await fs.rm(path.join(vault, 'Elsewhere/garden.md'));
    const tags = (await server.admin('GET', '/api/collections')).body.collections.map((c: { tag: string }) => c.tag);
    expect(tags).toEqual(['travel', 'writing', 'food']);
  });
});
