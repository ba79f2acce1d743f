// An image whose scaling takes the build process down (sharp is native code; a hostile file
// can crash it) must not do so for ever: the server starts a new build process, which would
// read the same image and go down again. Here a real SIGKILL stands for the crash, each time
// while the build process is scaling the image (site/render/scaling-marks.ts).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_SCALING_TRIES, SCALING_MARK } from '../../site/render/scaling-marks.ts';
import { isBuilderCommand, startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

/** The server's build process, once it runs. */
async function builderPid(server: TestServer): Promise<number | null> {
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid === server.proc.pid && isBuilderCommand(await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => ''))) return Number(entry);
  }
  return null;
}

/** How many scalings of the image were begun, as its mark says (0: no mark). */
async function begun(cache: string): Promise<number> {
  const mark = (await fs.readdir(cache).catch(() => [] as string[])).find((n) => n.startsWith(SCALING_MARK));
  return mark ? Number(await fs.readFile(path.join(cache, mark), 'utf8').catch(() => '0')) : 0;
}

type Warnings = { warnings: { path: string; kind: string; message: string; target?: string }[] };

/** A vault of a note showing a 49-million-pixel image: a few seconds of scaling, time enough to stop it. */
async function bigImageVault(prefix: string): Promise<{ vault: string; data: string; cache: string }> {
  const root = await tempDir(prefix);
  const vault = path.join(root, 'vault');
  await writeFiles(vault, {
    'Big.md': '---\ntitle: Big\npublish: true\ndate: 2026-01-10\n---\nA big picture.\n\n![[big.png]]\n',
    'Other.md': '---\ntitle: Other\npublish: true\ndate: 2026-01-09\n---\nNo picture.\n',
  });
  await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#3a6' } }).png().toFile(path.join(vault, 'big.png'));
  return { vault, data: path.join(root, 'data'), cache: path.join(root, 'data', 'image-variants') };
}

describe('an image that stops the build process while it is scaled', () => {
  let server: TestServer;
  afterAll(() => server?.stop());

  it('a server stopped in an orderly way meanwhile counts no try: the next start scales it', { timeout: 120_000 }, async () => {
    const { vault, data, cache } = await bigImageVault('vs-img-stop-');
    server = await startServer({ vault, data });
    await waitFor(async () => (await begun(cache)) === 1, 60_000, 10);
    await server.stop();
    expect(await begun(cache)).toBe(0);
    server = await startServer({ vault, data });
    await waitFor(async () => /<picture>/.test(await (await fetch(`${server.url}/Big`)).text()), 60_000);
    await server.stop();
  });

  it('is tried once more, then shown as it is with a warning, and the site goes on', { timeout: 120_000 }, async () => {
    const { vault, data, cache } = await bigImageVault('vs-img-crash-');
    server = await startServer({ vault, data });

    const killed: number[] = [];
    for (let tries = 1; tries <= MAX_SCALING_TRIES; tries++) {
      await waitFor(async () => (await begun(cache)) === tries, 60_000, 10);
      const pid = (await waitFor(() => builderPid(server), 10_000, 10))!;
      expect(killed).not.toContain(pid);
      process.kill(pid, 'SIGKILL');
      killed.push(pid);
    }

    const warnings = async () => (await server.admin<Warnings>('GET', '/api/site/warnings')).body?.warnings ?? [];
    const warning = (await waitFor(async () => (await warnings()).find((w) => w.target === 'big.png'), 60_000))!;
    expect(warning).toMatchObject({ path: 'Big.md', kind: 'unreadable_image' });
    expect(warning.message).toContain(`reading it stopped the build process ${MAX_SCALING_TRIES} times`);
    // Its verdict is kept with its content, and no mark is left to count another try.
    expect(await begun(cache)).toBe(0);
    const folders = (await fs.readdir(cache)).filter((n) => /^[0-9a-f]{32}-[0-9a-f]{8}$/.test(n));
    expect(folders).toHaveLength(1);
    expect(JSON.parse(await fs.readFile(path.join(cache, folders[0]!, 'meta.json'), 'utf8'))).toMatchObject({ warn: true });
    // The page shows the original, and the site is served and built as before.
    const page = await (await fetch(`${server.url}/Big`)).text();
    expect(page).toMatch(/<img[^>]+src="\/big\.png"/);
    expect((await fetch(`${server.url}/Other`)).status).toBe(200);
    expect(await builderPid(server)).not.toBe(killed.at(-1));
  });
});
