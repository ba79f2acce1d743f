// CONTRACT §1: `npm run build` writes a static snapshot of the public site to
// SITE_OUT for any static host, exits 0, and warns when SITE_URL is unset.
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_BUILD, childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';
import { FIXTURE_VAULT } from '../fixtures/blog/helpers.ts';

afterAll(cleanupTempDirs);

const OBSIDIAN_VAULT = path.join(PROJECT_DIR, 'test/fixtures/obsidian/vault');

async function build(env: Record<string, string>, vault = FIXTURE_VAULT) {
  const root = await tempDir('vs-snapshot-');
  const out = path.join(root, 'site');
  const res = spawnSync(process.execPath, [...CLI_BUILD], {
    cwd: PROJECT_DIR,
    env: childEnv({ VAULT: vault, SERVICE_DATA: path.join(root, 'data'), SITE_OUT: out, PUBLIC_LAYOUT: 'blog', ...env }),
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { ...res, out };
}

async function allFiles(dir: string): Promise<string[]> {
  return ((await fs.readdir(dir, { recursive: true })) as string[]).sort();
}

describe('npm run build', () => {
  it('writes every public page, the feed, the sitemap, robots.txt and a 404 page, with SITE_URL baked in', async () => {
    const { status, stderr, out } = await build({ SITE_URL: 'https://static.example' });
    expect(status, stderr).toBe(0);
    const files = await allFiles(out);
    for (const f of ['index.html', '404.html', 'feed.xml', 'sitemap.xml', 'robots.txt', 'Posts/First-post.html', 'About.html', 'topic/alpha.html', 'topic/alpha/feed.xml', 'search.html', 'search.json']) expect(files).toContain(f);
    // CONTRACT §9: the snapshot searches too: the manifest names files that are there.
    const manifest = JSON.parse(await fs.readFile(path.join(out, 'search.json'), 'utf8')) as { lengths: string; shards: [string, string][]; meta: string[] };
    for (const file of [manifest.lengths, ...manifest.shards.map((s) => s[1]), ...manifest.meta]) expect(files).toContain(file);
    expect(files.some((f) => /Draft|Template|Broken|Trashed|Leak|_service|_batch/.test(f))).toBe(false);
    const article = await fs.readFile(path.join(out, 'Posts/First-post.html'), 'utf8');
    expect(article).toContain('<link rel="canonical" href="https://static.example/Posts/First-post">');
    // The topic row is inlined; no server marker or Edit link is left behind.
    expect(article).toContain('<nav class="s-topics"');
    expect(article).not.toMatch(/<!--service:|__SERVICE_BASE_URL/);
    expect(await fs.readFile(path.join(out, 'robots.txt'), 'utf8')).toContain('Sitemap: https://static.example/sitemap.xml');
    expect(stderr).not.toContain('SITE_URL is not set');
  });

  it('without SITE_URL it warns that absolute URLs will be relative to "/", and still succeeds', async () => {
    const { status, stderr, out } = await build({});
    expect(status).toBe(0);
    expect(stderr).toContain('SITE_URL is not set');
    const article = await fs.readFile(path.join(out, 'Posts/First-post.html'), 'utf8');
    expect(article).toContain('<link rel="canonical" href="/Posts/First-post">');
  });

  it('copies a PDF a page embeds, which its page frames under its own policy; a PDF only an unpublished note shows stays out', async () => {
    const { status, stderr, out } = await build({ SITE_URL: 'https://static.example' }, OBSIDIAN_VAULT);
    expect(status, stderr).toBe(0);
    const files = await allFiles(out);
    expect(files).toContain(path.join('Files', 'manual.pdf'));
    expect(files).not.toContain(path.join('Files', 'unshown.pdf'));
    const page = await fs.readFile(path.join(out, 'Rows/Pdf-embeds.html'), 'utf8');
    expect(page).toContain('<iframe class="s-pdf-frame" src="/Files/manual.pdf#page=3"');
    expect(page).toMatch(/<meta http-equiv="Content-Security-Policy" content="[^"]*frame-src &#39;self&#39; https:|<meta http-equiv="Content-Security-Policy" content="[^"]*frame-src 'self' https:/);
  });

  it('refuses to publish a PUBLIC=false site', async () => {
    const { status, stderr, out } = await build({ PUBLIC: 'false' });
    expect(status).toBe(1);
    expect(stderr).toContain('PUBLIC=false');
    await expect(fs.stat(out)).rejects.toThrow();
  });
});
