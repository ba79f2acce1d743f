// A raster image a published note shows gets smaller WebP copies (a srcset no wider than
// the original), its intrinsic size and lazy loading; the copies are made once per image
// content and kept in the data directory, so a second build makes none; a file that is
// no usable image is linked as it is with a warning; the static snapshot carries the copies.
import { createHash } from 'node:crypto';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';
import { DRAFT_NOTE, IMAGE_NOTE, imageMarkup, srcsetOf, writeImages } from '../fixtures/images.ts';

afterAll(cleanupTempDirs);

/** The V8 flags `npm run build` gives node (package.json): what the code cache is made with. */
const NPM_BUILD_FLAGS = (JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts
  .build!.split(' scripts/run-compiled.cjs')[0]!
  .split(' ')
  .filter((arg) => arg.startsWith('--'));

/** Every file under `dir` with its modification time: what a second build must leave as it is. */
async function stamps(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const name of (await fs.readdir(dir, { recursive: true })) as string[]) {
    const stat = await fs.stat(path.join(dir, name));
    if (stat.isFile()) out.set(name, stat.mtimeMs);
  }
  return out;
}

describe('raster images in a static snapshot', () => {
  let root: string;
  let vault: string;
  let cache: string;
  let first: ReturnType<typeof buildSnapshot>;

  beforeAll(async () => {
    root = await tempDir('vs-img-');
    vault = path.join(root, 'vault');
    cache = path.join(root, 'data', 'image-variants');
    await writeFiles(vault, { 'Pictures.md': IMAGE_NOTE, 'Draft.md': DRAFT_NOTE });
    await writeImages(vault);
    // The first as `npm run build` runs it, its code from V8's code cache (where a dynamic
    // import() has no loader): a build of its own first leaves the cache made. The others as `vault-service build`.
    const npmRunBuild = (data: string, out: string) =>
      spawnSync(process.execPath, [...NPM_BUILD_FLAGS, 'scripts/run-compiled.cjs', 'build'], {
        cwd: PROJECT_DIR,
        env: childEnv({ VAULT: vault, SERVICE_DATA: data, SITE_OUT: out, PUBLIC_LAYOUT: 'blog', SITE_URL: 'https://example.org' }),
        encoding: 'utf8',
        timeout: 120_000,
      });
    npmRunBuild(path.join(root, 'warm-data'), path.join(root, 'warm-site'));
    first = { res: npmRunBuild(path.join(root, 'data'), path.join(root, 'site')), out: path.join(root, 'site') };
  }, 120_000);

  it('shows each image as a picture: WebP srcset no wider than the original, intrinsic size, sizes, lazy below the top', async () => {
    const { res, out } = first;
    expect(res.status, res.stderr).toBe(0);
    const html = await fs.readFile(path.join(out, 'Pictures.html'), 'utf8');

    // `|300` keeps working: shown 300 wide, the height in proportion (800×600).
    const photo = imageMarkup(html, '/photo.png')!;
    expect(photo).toMatch(/^<picture><source type="image\/webp" srcset="[^"]+" sizes="\(max-width: 300px\) 100vw, 300px"><img src="\/photo.png" alt="photo.png" width="300" height="225" decoding="async"><\/picture>$/);
    // The first image, near the top of the article, loads at once; the next ones lazily.
    expect(photo).not.toContain('loading=');
    expect(srcsetOf(photo).map(([, w]) => w)).toEqual([320, 640, 800]);

    const wide = imageMarkup(html, '/pics/wide.jpg')!;
    expect(wide).toContain('width="2400" height="1200" loading="lazy" decoding="async"');
    expect(wide).toContain('sizes="(max-width: 704px) 100vw, 704px"');
    expect(srcsetOf(wide).map(([, w]) => w)).toEqual([320, 640, 960, 1280, 1920]);

    // Each copy is in the snapshot at its address, a WebP of the width the srcset says.
    for (const [url, width] of [...srcsetOf(photo), ...srcsetOf(wide)]) {
      expect(url).toMatch(/^\/_img\/[0-9a-f]{32}-[0-9a-f]{8}\/\d+\.webp$/);
      const meta = await sharp(path.join(out, url)).metadata();
      expect([meta.format, meta.width]).toEqual(['webp', width]);
    }
    // The originals stay where they were, byte for byte.
    expect((await fs.readFile(path.join(out, 'photo.png'))).equals(await fs.readFile(path.join(vault, 'photo.png')))).toBe(true);
    expect((await fs.readFile(path.join(out, 'pics/wide.jpg'))).equals(await fs.readFile(path.join(vault, 'pics/wide.jpg')))).toBe(true);
  });

  it('links a file that is no usable image as it is, with a warning, and leaves SVG and GIF alone', async () => {
    const { res, out } = first;
    const html = await fs.readFile(path.join(out, 'Pictures.html'), 'utf8');
    for (const src of ['/text.png', '/truncated.png', '/bomb.png', '/drawing.svg', '/moving.gif']) {
      expect(imageMarkup(html, src), src).toMatch(new RegExp(`^<img src="${src}" alt="[^"]+" loading="lazy" decoding="async">$`));
    }
    const output = res.stdout + res.stderr;
    expect(output).toMatch(/Pictures\.md: the image text\.png is shown as it is, without smaller copies: sharp cannot read it/);
    expect(output).toMatch(/Pictures\.md: the image truncated\.png is shown as it is/);
    expect(output).toMatch(/Pictures\.md: the image bomb\.png is shown as it is, without smaller copies: it has more than 50 million pixels/);
    expect(output).not.toMatch(/drawing\.svg is shown|moving\.gif is shown/);
  });

  it('makes and publishes copies of the images published notes show, no others', async () => {
    const made = (await fs.readdir(path.join(first.out, '_img'))).sort();
    // photo.png and wide.jpg.
    expect(made).toHaveLength(2);
    // The draft's secret.png was never read: no folder is named by its content.
    const secret = createHash('sha256').update(await fs.readFile(path.join(vault, 'secret.png'))).digest('hex').slice(0, 32);
    expect((await fs.readdir(cache)).some((d) => d.startsWith(secret))).toBe(false);
    expect(await fs.stat(path.join(first.out, 'secret.png')).catch(() => null)).toBeNull();
  });

  it('makes no copy again: a second build, and one after the image is touched, leave the cache as it was', async () => {
    const before = await stamps(cache);
    expect([...before.keys()].filter((f) => f.endsWith('.webp')).length, [...before.keys()].join(' ')).toBe(8);
    // sharp read each of the five raster images once, in the first build; never again.
    expect(first.res.stdout + first.res.stderr).toContain('image copies: sharp read 5 new images');
    const second = buildSnapshot(root, vault);
    expect(second.res.status, second.res.stderr).toBe(0);
    expect(second.res.stdout + second.res.stderr).not.toContain('image copies:');
    const after = await stamps(cache);
    expect(after).toEqual(before);
    // Same bytes, new times (a checkout, a sync): the content key finds the copies made.
    const now = new Date();
    await fs.utimes(path.join(vault, 'photo.png'), now, now);
    const third = buildSnapshot(root, vault);
    expect(third.res.status, third.res.stderr).toBe(0);
    expect(third.res.stdout + third.res.stderr).not.toContain('image copies:');
    const last = await stamps(cache);
    for (const [file, mtime] of before) if (file !== 'stamps.json') expect(last.get(file), file).toBe(mtime);
    expect(last.size).toBe(before.size);
    // ...and the pages show the same copies.
    const html = await fs.readFile(path.join(third.out, 'Pictures.html'), 'utf8');
    expect(srcsetOf(imageMarkup(html, '/photo.png')!).map(([, w]) => w)).toEqual([320, 640, 800]);
  }, 120_000);
});
