// The image copies' queue: whatever moment of a drain an image is asked for in, it is made
// before `settled()` resolves (a snapshot writes its pages then, and exits); a file that is
// no usable image leaves its verdict in the cache and nothing else, not even a copy sharp
// was still writing when another width failed.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { ImageVariants } from '../../site/render/image-variants.ts';
import type { AttachmentInfo } from '../../site/read/attachments.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

async function infoOf(vault: string, p: string): Promise<AttachmentInfo> {
  const stat = await fs.stat(path.join(vault, p));
  return { path: p, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs };
}

const noise = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#777', noise: { type: 'gaussian', mean: 120, sigma: 30 } } });

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('image copies', () => {
  it('makes an image asked for at any moment of a drain before settled() resolves', async () => {
    const root = await tempDir('vs-img-queue-');
    const vault = path.join(root, 'vault');
    await fs.mkdir(vault);
    await noise(400, 300).png().toFile(path.join(vault, 'a.png'));
    await noise(500, 300).png().toFile(path.join(vault, 'b.png'));
    const [a, b] = [await infoOf(vault, 'a.png'), await infoOf(vault, 'b.png')];
    const cache = path.join(root, 'cache');
    // Each round asks for b one turn of the event loop later into a drain of a, until the drain was over first.
    for (let turns = 0; ; turns++) {
      const images = new ImageVariants(cache, vault);
      expect(images.state('a.png', a).kind).toBe('pending');
      for (let i = 0; i < turns && images.busy; i++) await nextTurn();
      const drainWasOver = !images.busy;
      images.state('b.png', b);
      await images.settled();
      expect(images.busy, `asked ${turns} turns in`).toBe(false);
      expect(images.state('b.png', b).kind, `asked ${turns} turns in`).toBe('ready');
      expect(images.busy).toBe(false);
      await fs.rm(path.join(cache, 'stamps.json'));
      if (drainWasOver) break;
      expect(turns).toBeLessThan(2_000);
    }
  });

  it('leaves a verdict, and nothing else, for an image that fails part way', async () => {
    const root = await tempDir('vs-img-truncated-');
    const vault = path.join(root, 'vault');
    await fs.mkdir(vault);
    // A header that promises 2,400×1,600 and a fifth of the pixels: each width fails at its own moment.
    const png = await noise(2400, 1600).png({ compressionLevel: 0 }).toBuffer();
    await fs.writeFile(path.join(vault, 'cut.png'), png.subarray(0, png.length / 5));
    const info = await infoOf(vault, 'cut.png');
    const cache = path.join(root, 'cache');
    const images = new ImageVariants(cache, vault);
    images.state('cut.png', info);
    await images.settled();
    expect(images.state('cut.png', info)).toMatchObject({ kind: 'original', warn: true });
    // Long enough for a copy still being written to land.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const files = ((await fs.readdir(cache, { recursive: true })) as string[]).sort();
    expect(files).toEqual([expect.stringMatching(/^[0-9a-f]{32}-[0-9a-f]{8}$/), expect.stringMatching(/^[0-9a-f]{32}-[0-9a-f]{8}\/meta\.json$/), 'stamps.json']);
  });
});
