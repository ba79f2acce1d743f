// The live server: an image's smaller copies are made in the background, never on a
// request's or an edit's path (the page goes live with the original, its copies come with
// a later pass; a first start's build, with nothing live yet, waits for them), served immutable at their content-hashed addresses, and never made again
// when a note is edited.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';
import { IMAGE_NOTE, imageMarkup, srcsetOf, writeImages } from '../fixtures/images.ts';

afterAll(cleanupTempDirs);

const LATER = '---\ntitle: Later\npublish: true\ndate: 2026-01-11\n---\nNo picture yet.\n';

async function page(server: TestServer, address: string): Promise<string> {
  const res = await fetch(server.url + address);
  return res.status === 200 ? res.text() : '';
}

/** The page's markup for the image at `src` once it is a <picture>, else null. */
async function picture(server: TestServer, address: string, src: string): Promise<string | null> {
  const markup = imageMarkup(await page(server, address), src);
  return markup?.startsWith('<picture>') ? markup : null;
}

async function cacheTimes(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of (await fs.readdir(dir, { recursive: true })) as string[]) out.set(name, (await fs.stat(path.join(dir, name))).mtimeMs);
  return out;
}

describe('image copies on the live server', () => {
  let server: TestServer;
  let vault: string;
  let cache: string;

  beforeAll(async () => {
    const root = await tempDir('vs-img-live-');
    vault = path.join(root, 'vault');
    cache = path.join(root, 'data', 'image-variants');
    await writeFiles(vault, { 'Pictures.md': IMAGE_NOTE, 'Later.md': LATER });
    await writeImages(vault);
    server = await startServer({ vault, data: path.join(root, 'data'), env: { PUBLIC_LAYOUT: 'blog' } });
  }, 60_000);
  afterAll(() => server?.stop());

  it("a first start's build waits for the copies its pages show: no page goes live with the original, to be rendered again", async () => {
    // The server answers once its first build is live (startServer waits for it): the picture is there at once.
    expect(await picture(server, '/Pictures', '/photo.png')).not.toBeNull();
  });

  it('serves the copies a page shows, immutable, and the original where it was', async () => {
    const photo = (await waitFor(() => picture(server, '/Pictures', '/photo.png'), 60_000))!;
    expect(photo).toContain('width="300" height="225"');
    const candidates = srcsetOf(photo);
    expect(candidates.map(([, w]) => w)).toEqual([320, 640, 800]);
    for (const [url, width] of candidates) {
      const res = await fetch(server.url + url);
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/webp');
      expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect((await sharp(Buffer.from(await res.arrayBuffer())).metadata()).width).toBe(width);
    }
    const original = await fetch(`${server.url}/photo.png`);
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(await fs.readFile(path.join(vault, 'photo.png')))).toBe(true);
    // A hostile file did not stop the server: it is linked as it is.
    expect(imageMarkup(await page(server, '/Pictures'), '/bomb.png')).toMatch(/^<img src="\/bomb.png"/);
  }, 90_000);

  it('an edit of the note makes no copy again', async () => {
    await waitFor(() => picture(server, '/Pictures', '/pics/wide.jpg'), 60_000);
    const before = await cacheTimes(cache);
    await fs.writeFile(path.join(vault, 'Pictures.md'), IMAGE_NOTE + '\nEdited once.\n');
    await waitFor(async () => (await page(server, '/Pictures')).includes('Edited once.'), 15_000);
    expect(await picture(server, '/Pictures', '/photo.png')).not.toBeNull();
    expect(await cacheTimes(cache)).toEqual(before);
  }, 90_000);

  it('an edit that shows an image already made gets its copies with a later pass, each served', async () => {
    await fs.writeFile(path.join(vault, 'Later.md'), LATER + '\n![[photo.png]]\n');
    const markup = (await waitFor(() => picture(server, '/Later', '/photo.png'), 30_000))!;
    expect(markup).toContain('width="800" height="600"');
    for (const [url] of srcsetOf(markup)) expect((await fetch(server.url + url)).status, url).toBe(200);
  }, 60_000);

  it('a new image goes live at once as its original; its copies follow, made off the edit', async () => {
    // 12 million pixels of noise: seconds to scale on one thread, far longer than a pass.
    await sharp({ create: { width: 4000, height: 3000, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 120, sigma: 40 } } })
      .jpeg({ quality: 95 })
      .toFile(path.join(vault, 'big.jpg'));
    await fs.writeFile(path.join(vault, 'Big.md'), '---\ntitle: Big\npublish: true\ndate: 2026-01-12\n---\n![[big.jpg]]\n');
    const first = await waitFor(async () => imageMarkup(await page(server, '/Big'), '/big.jpg'), 30_000);
    // Its size from its header already: the box is reserved before any copy exists.
    expect(first).toBe('<img src="/big.jpg" alt="big.jpg" width="4000" height="3000" decoding="async">');
    const made = (await waitFor(() => picture(server, '/Big', '/big.jpg'), 120_000))!;
    expect(made).toContain('width="4000" height="3000"');
    expect(srcsetOf(made).map(([, w]) => w)).toEqual([320, 640, 960, 1280, 1920]);
  }, 180_000);
});
