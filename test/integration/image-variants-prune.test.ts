// The live server keeps its image copies' cache to what the vault shows: its first build
// removes copies that have gone unshown for a week and notes the newly unshown, and a deleted
// image is forgotten by the pass that sees it go, its copies kept through their week (no
// longer served: no page shows them).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNSHOWN_KEPT_MS } from '../../site/render/image-variants.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';
import { imageMarkup, srcsetOf } from '../fixtures/images.ts';

afterAll(cleanupTempDirs);

const NOTE = '---\ntitle: Pictures\npublish: true\ndate: 2026-01-10\n---\n![[a.png]]\n\nText.\n';
/** Two content keys no image of the vault has: one unshown for more than a week, one never noted. */
const STALE = `${'a'.repeat(32)}-0000beef`;
const RECENT = `${'b'.repeat(32)}-0000beef`;

const json = async (file: string) => JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;

describe('the image copies a live server keeps', () => {
  let server: TestServer;
  let vault: string;
  let cache: string;

  beforeAll(async () => {
    const root = await tempDir('vs-img-prune-live-');
    vault = path.join(root, 'vault');
    cache = path.join(root, 'data', 'image-variants');
    await writeFiles(vault, { 'Pictures.md': NOTE });
    await sharp({ create: { width: 800, height: 600, channels: 3, background: '#246' } }).png().toFile(path.join(vault, 'a.png'));
    for (const key of [STALE, RECENT]) {
      await fs.mkdir(path.join(cache, key), { recursive: true });
      await fs.writeFile(path.join(cache, key, 'meta.json'), JSON.stringify({ width: 320, height: 240, widths: [320] }));
      await fs.writeFile(path.join(cache, key, '320.webp'), 'old copy');
    }
    await fs.writeFile(path.join(cache, 'unused.json'), JSON.stringify({ [STALE]: Date.now() - UNSHOWN_KEPT_MS - 60_000 }));
    server = await startServer({ vault, data: path.join(root, 'data'), env: { PUBLIC_LAYOUT: 'blog' } });
  }, 60_000);
  afterAll(() => server?.stop());

  it('the first build removes what went unshown a week ago, and notes what is unshown now', async () => {
    // unused.json is written once the prune's removals are done.
    const unused = (await waitFor(async () => {
      const now = await json(path.join(cache, 'unused.json'));
      return RECENT in now ? now : null;
    }, 30_000))!;
    expect(Object.keys(unused)).toEqual([RECENT]);
    const names = await fs.readdir(cache);
    expect(names).toContain(RECENT);
    expect(names).not.toContain(STALE);
    expect(Date.now() - (unused[RECENT] as number)).toBeLessThan(120_000);
  }, 60_000);

  it('a deleted image is forgotten, and its copies are kept through their week', async () => {
    const markup = imageMarkup(await (await fetch(`${server.url}/Pictures`)).text(), '/a.png')!;
    const [url] = srcsetOf(markup)[0]!;
    const key = url.split('/')[2]!;
    expect(Object.values(await json(path.join(cache, 'stamps.json')))).toEqual([[expect.any(String), key]]);

    await fs.rm(path.join(vault, 'a.png'));
    await fs.writeFile(path.join(vault, 'Pictures.md'), NOTE.replace('![[a.png]]', 'No picture now.'));
    await waitFor(async () => (await (await fetch(`${server.url}/Pictures`)).text()).includes('No picture now.'), 15_000);
    const unused = await waitFor(async () => {
      const now = await json(path.join(cache, 'unused.json'));
      return key in now ? now : null;
    }, 15_000);
    expect(Object.keys(unused!).sort()).toEqual([RECENT, key].sort());
    expect(await json(path.join(cache, 'stamps.json'))).toEqual({});
    expect((await fs.readdir(path.join(cache, key))).sort()).toEqual(['320.webp', '640.webp', '800.webp', 'meta.json']);
  }, 60_000);
});
