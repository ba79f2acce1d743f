// The image copies' cache does not grow without end: the server's builder forgets images the
// vault no longer holds and removes the copies of contents no image shows, a week after a
// prune first found them unshown (an image put back meanwhile is not scaled again), and never
// while copies are being made.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ImageVariants, UNSHOWN_KEPT_MS } from '../../site/render/image-variants.ts';
import type { AttachmentInfo } from '../../site/read/attachments.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const KEY = /^[0-9a-f]{32}-[0-9a-f]{8}$/;
const DAY = 86_400_000;

async function infoOf(vault: string, p: string): Promise<AttachmentInfo> {
  const stat = await fs.stat(path.join(vault, p));
  return { path: p, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

/** A PNG of one colour: each colour is a content of its own. */
const write = (vault: string, p: string, background: string) => sharp({ create: { width: 400, height: 300, channels: 3, background } }).png().toFile(path.join(vault, p));

const folders = async (cache: string) => (await fs.readdir(cache)).filter((n) => KEY.test(n)).sort();
const json = async (file: string) => JSON.parse(await fs.readFile(file, 'utf8')) as Record<string, unknown>;

/** The content key an image's copies are kept under. */
async function keyOf(images: ImageVariants, p: string, info: AttachmentInfo): Promise<string> {
  images.state(p, info);
  await images.settled();
  const state = images.state(p, info);
  if (state.kind !== 'ready') throw new Error(`${p} is ${state.kind}`);
  return state.variants[0]!.file.split('/')[1]!;
}

async function setup(name: string) {
  const root = await tempDir(`vs-img-prune-${name}-`);
  const vault = path.join(root, 'vault');
  await fs.mkdir(vault);
  return { vault, cache: path.join(root, 'cache') };
}

describe('pruning the image copies', () => {
  it("removes a replaced image's old copies a week after a prune first found them unshown, and keeps the new", async () => {
    const { vault, cache } = await setup('replaced');
    const images = new ImageVariants(cache, vault, 1, (p) => p === 'a.png');
    await write(vault, 'a.png', '#c00');
    const red = await keyOf(images, 'a.png', await infoOf(vault, 'a.png'));
    expect(await images.prune()).toBe(0);
    expect(await folders(cache)).toEqual([red]);

    await write(vault, 'a.png', '#00c');
    const blue = await keyOf(images, 'a.png', await infoOf(vault, 'a.png'));
    expect(blue).not.toBe(red);
    // The drain's end, or this prune, notes when red was first found unshown.
    expect(await images.prune()).toBe(0);
    const unused = await json(path.join(cache, 'unused.json'));
    expect(Object.keys(unused)).toEqual([red]);
    const now = unused[red] as number;
    expect(Date.now() - now).toBeLessThan(60_000);
    // A day short of the week: still kept, and still noted from the first time.
    expect(await images.prune(now + UNSHOWN_KEPT_MS - DAY)).toBe(0);
    expect(await folders(cache)).toEqual([blue, red].sort());
    expect(await images.prune(now + UNSHOWN_KEPT_MS)).toBe(1);
    expect(await folders(cache)).toEqual([blue]);
    expect(await json(path.join(cache, 'unused.json'))).toEqual({});
    expect(images.state('a.png', await infoOf(vault, 'a.png')).kind).toBe('ready');
  });

  it('forgets a deleted image and removes its copies in time; a content shown again before then is kept', async () => {
    const { vault, cache } = await setup('deleted');
    let present = new Set(['a.png', 'b.png']);
    const images = new ImageVariants(cache, vault, 1, (p) => present.has(p));
    await write(vault, 'a.png', '#0a0');
    await write(vault, 'b.png', '#aa0');
    const green = await keyOf(images, 'a.png', await infoOf(vault, 'a.png'));
    const yellow = await keyOf(images, 'b.png', await infoOf(vault, 'b.png'));
    await images.prune();

    await fs.rm(path.join(vault, 'a.png'));
    await fs.rm(path.join(vault, 'b.png'));
    present = new Set();
    const now = Date.now();
    await images.prune(now);
    // Both noted now: the drains before knew both images.
    expect(Object.keys(await json(path.join(cache, 'stamps.json')))).toEqual([]);
    expect(Object.keys(await json(path.join(cache, 'unused.json'))).sort()).toEqual([green, yellow].sort());

    // b's content comes back under another name within the week: its copies are shown again, not made again.
    await write(vault, 'c.png', '#aa0');
    present = new Set(['c.png']);
    const made = (await fs.stat(path.join(cache, yellow, 'meta.json'))).mtimeMs;
    expect(await keyOf(images, 'c.png', await infoOf(vault, 'c.png'))).toBe(yellow);
    expect((await fs.stat(path.join(cache, yellow, 'meta.json'))).mtimeMs).toBe(made);
    expect(await images.prune(now + UNSHOWN_KEPT_MS)).toBe(1);
    expect(await folders(cache)).toEqual([yellow]);
    expect(await json(path.join(cache, 'stamps.json'))).toEqual({ 'c.png': [expect.any(String), yellow] });
  });

  it('leaves the cache alone while copies are being made, and a drain asked for during a prune makes what it removed again', async () => {
    const { vault, cache } = await setup('race');
    await write(vault, 'a.png', '#808');
    const info = await infoOf(vault, 'a.png');
    const first = new ImageVariants(cache, vault);
    const key = await keyOf(first, 'a.png', info);

    // A fresh process whose stamps know nothing of a.png: its folder has been unshown past the week.
    await fs.rm(path.join(cache, 'stamps.json'));
    await fs.writeFile(path.join(cache, 'unused.json'), JSON.stringify({ [key]: Date.now() - UNSHOWN_KEPT_MS - DAY }));
    let present = true;
    const images = new ImageVariants(cache, vault, 1, () => present);
    const pruned = images.prune();
    // Asked for in the same turn: its drain waits for the prune, then finds the folder gone and makes it again.
    expect(images.state('a.png', info).kind).toBe('pending');
    expect(await pruned).toBe(1);
    await images.settled();
    expect(images.state('a.png', info).kind).toBe('ready');
    expect(await folders(cache)).toEqual([key]);
    for (const width of [320]) expect((await fs.stat(path.join(cache, key, `${width}.webp`))).size).toBeGreaterThan(0);

    // While a drain is under way a prune does nothing at all.
    await write(vault, 'b.png', '#088');
    images.state('b.png', await infoOf(vault, 'b.png'));
    expect(images.busy).toBe(true);
    present = false;
    expect(await images.prune(Date.now() + 10 * UNSHOWN_KEPT_MS)).toBe(0);
    await images.settled();
    expect((await folders(cache)).length).toBe(2);
  });

  it('removes what a crashed make() left behind after an hour, never one in progress, and no name that is not its own', async () => {
    const { vault, cache } = await setup('leftovers');
    await write(vault, 'a.png', '#333');
    const images = new ImageVariants(cache, vault, 1, () => true);
    await keyOf(images, 'a.png', await infoOf(vault, 'a.png'));
    const old = path.join(cache, '.tmp-0123-dead');
    const fresh = path.join(cache, '.tmp-4567-live');
    for (const dir of [old, fresh]) await fs.mkdir(dir);
    await fs.writeFile(path.join(cache, 'notes.txt'), 'the owner put this here');
    const hourAgo = (Date.now() - 2 * 3_600_000) / 1000;
    await fs.utimes(old, hourAgo, hourAgo);
    await images.prune();
    const names = await fs.readdir(cache);
    expect(names).not.toContain('.tmp-0123-dead');
    expect(names).toContain('.tmp-4567-live');
    expect(names).toContain('notes.txt');
  });

  it('a snapshot (no vault lookup given) never prunes', async () => {
    const { vault, cache } = await setup('snapshot');
    await write(vault, 'a.png', '#444');
    const images = new ImageVariants(cache, vault);
    const key = await keyOf(images, 'a.png', await infoOf(vault, 'a.png'));
    await fs.writeFile(path.join(cache, 'unused.json'), JSON.stringify({ [key]: 0 }));
    await fs.rm(path.join(cache, 'stamps.json'));
    const fresh = new ImageVariants(cache, vault);
    expect(await fresh.prune(Date.now() + 10 * UNSHOWN_KEPT_MS)).toBe(0);
    expect(await folders(cache)).toEqual([key]);
  });
});
