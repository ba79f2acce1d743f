// CONTRACT §7 on a static host: `/favicon.ico` is the vault root's favicon.ico or
// favicon.png, else the bundled icon. The snapshot wrote none, so every visitor of a
// deployed site met a 404 for it; a note could also take the address for a page, and a
// favicon that is a link out of the vault must not be copied (CONTRACT §11).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PROJECT_DIR } from '../helpers/server.ts';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);


const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');
const post = (extra: string) => `---\npublish: true\ndate: 2026-03-01\n${extra}\n---\nText.\n`;

it('writes the vault’s favicon.png as /favicon.ico; a note claiming that address is not published there', async () => {
  const root = await tempDir('vs-snap-favicon-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, { 'Post.md': post('title: A post'), 'Icon page.md': post('title: Icon page\npermalink: /favicon.ico') });
  await fs.writeFile(path.join(vault, 'favicon.png'), PNG);
  const { res, out } = buildSnapshot(root, vault);
  expect(res.status, res.stderr).toBe(0);
  expect((await fs.readFile(path.join(out, 'favicon.ico'))).equals(PNG)).toBe(true);
  expect(await fs.stat(path.join(out, 'favicon.ico.html')).catch(() => null)).toBeNull();
  expect(res.stderr).toMatch(/Icon page\.md: is not published: its address \/favicon\.ico belongs to the site/);
}, 120_000);

it('writes the bundled icon when the vault’s favicon.ico is a link out of the vault', async () => {
  const root = await tempDir('vs-snap-favicon-link-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, { 'Post.md': post('title: A post') });
  await writeFiles(root, { 'outside/secret.txt': 'OUTSIDE SECRET' });
  await fs.symlink(path.join(root, 'outside/secret.txt'), path.join(vault, 'favicon.ico'));
  const { res, out } = buildSnapshot(root, vault);
  expect(res.status, res.stderr).toBe(0);
  const icon = await fs.readFile(path.join(out, 'favicon.ico'));
  expect(icon.equals(await fs.readFile(path.join(PROJECT_DIR, 'site/assets/favicon.ico')))).toBe(true);
  expect(icon.toString('latin1')).not.toContain('OUTSIDE SECRET');
}, 120_000);

it("a robots.txt or sitemap.xml at the vault's root is not published over the site's own, and the build says so", async () => {
  const root = await tempDir('vs-snap-robots-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, { 'Post.md': post('title: A post'), 'robots.txt': 'User-agent: *\nDisallow: /private\n', 'sitemap.xml': '<urlset/>', 'notes.txt': 'just a file' });
  const { res, out } = buildSnapshot(root, vault);
  expect(res.status, res.stderr).toBe(0);
  expect(await fs.readFile(path.join(out, 'robots.txt'), 'utf8')).toMatch(/^Sitemap: /m);
  expect(res.stderr).toMatch(/robots\.txt: is not published: its address \/robots\.txt belongs to the site, which writes its own/);
  expect(res.stderr).toMatch(/sitemap\.xml: is not published: its address \/sitemap\.xml belongs to the site/);
  expect(res.stderr).not.toMatch(/notes\.txt|favicon/);
}, 120_000);
