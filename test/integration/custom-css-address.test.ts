// The designer's custom.css is linked by an address naming its content, and not at all while
// it is empty: a visitor's first paint used to wait on a no-cache request for an empty file on
// every page view. A new stylesheet (an edit, the settings mirror, a change while the server
// was down) is a new address on every page, filled in as pages are served, with nothing rebuilt;
// only the current one is cached for good.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startServer, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const version = (css: string) => createHash('sha256').update(css).digest('hex').slice(0, 12);
const linked = (html: string) => [...html.matchAll(/<link rel="stylesheet" href="(\/custom\.css[^"]*)">/g)].map((m) => m[1]);

it('pages link custom.css by its content, none while it is empty; a change is a new address, also across a restart', async () => {
  const base = await tempDir('vs-custom-css-');
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  await writeFiles(vault, { 'Posts/Hello.md': '---\npublish: true\ntitle: Hello\ndate: 2026-01-10\n---\nHELLOBODY\n' });
  await writeFiles(data, { 'custom.css': '  \n' });
  let server = await startServer({ vault, data, env: { PUBLIC_LAYOUT: 'blog' } });
  const page = async (address: string) => (await fetch(server.url + address)).text();
  try {
    const article = await page('/Posts/Hello');
    expect(article).toContain('HELLOBODY');
    expect(linked(article)).toEqual([]);
    expect(linked(await page('/'))).toEqual([]);

    // The server fills the link in as it serves: the built page's file is not written again.
    const built = async () => {
      const site = path.join(data, 'public-site');
      const gen = (await fs.readdir(site)).find((name) => name.startsWith('gen-'))!;
      return fs.stat(path.join(site, gen, 'Posts/Hello.html')).then((s) => s.mtimeMs);
    };
    const builtAt = await built();
    const first = '.s-blog-powered { display: none; }\n';
    await writeFiles(data, { 'custom.css': first });
    await waitFor(async () => linked(await page('/Posts/Hello')).length > 0, 15_000);
    expect(await built()).toBe(builtAt);
    for (const address of ['/Posts/Hello', '/', '/404-no-such-page']) expect(linked(await page(address)), address).toEqual([`/custom.css?v=${version(first)}`]);
    const current = await fetch(`${server.url}/custom.css?v=${version(first)}`);
    expect(await current.text()).toBe(first);
    expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    // Without the address's version, or with another, it is asked for again each time.
    expect((await fetch(`${server.url}/custom.css`)).headers.get('cache-control')).toBe('no-cache');
    expect((await fetch(`${server.url}/custom.css?v=000000000000`)).headers.get('cache-control')).toBe('no-cache');

    const second = 'body { color: rebeccapurple; }\n';
    await writeFiles(data, { 'custom.css': second });
    await waitFor(async () => linked(await page('/Posts/Hello'))[0] === `/custom.css?v=${version(second)}`, 15_000);
    const old = await fetch(`${server.url}/custom.css?v=${version(first)}`);
    expect(await old.text()).toBe(second);
    expect(old.headers.get('cache-control')).toBe('no-cache');

    // Changed while the server is down: the remembered pages are not served with the old address.
    await server.stop();
    const third = 'h1 { letter-spacing: 0.01em; }\n';
    await writeFiles(data, { 'custom.css': third });
    server = await startServer({ vault, data, env: { PUBLIC_LAYOUT: 'blog' } });
    expect(linked(await page('/Posts/Hello'))).toEqual([`/custom.css?v=${version(third)}`]);
    await fs.rm(path.join(data, 'custom.css'));
    await waitFor(async () => linked(await page('/Posts/Hello')).length === 0, 15_000);
  } finally {
    await server.stop();
  }
});
