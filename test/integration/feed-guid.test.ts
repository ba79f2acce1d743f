// A feed item's guid is fixed at the post's first publication: a rename, through the app or
// outside it, moves the post's link but not its guid, so no feed reader shows it as new. The
// ids are kept in the data directory and in the vault's `.service/`, so a second server agrees.
import { spawnSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startBlog, blogForFile } from '../fixtures/blog/helpers.ts';
import { CLI_BUILD, childEnv, PROJECT_DIR, waitFor } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

const post = (text: string) => `---\npublish: true\ndate: 2025-01-02\n---\n${text}\n`;
const items = (feed: string) => [...feed.matchAll(/<item>[\s\S]*?<link>([^<]*)<\/link>\s*<guid isPermaLink="false">([^<]*)<\/guid>/g)].map((m) => ({ link: m[1]!, guid: m[2]! }));

const blog = blogForFile({
  fixture: false,
  env: { PUBLIC_LAYOUT: 'blog', SITE_URL: 'https://blog.example' },
  files: { 'Posts/First name.md': post('FIRST-POST'), 'Posts/Outside.md': post('OUTSIDE-POST'), 'Posts/Stay.md': post('STAY-POST'), '.service/.keep': '' },
});

describe('feed guids', () => {
  it('a post first published is its first address, marked as no permalink', async () => {
    const feed = (await blog.page('/feed.xml')).text;
    expect(items(feed)).toContainEqual({ link: 'https://blog.example/Posts/First-name', guid: 'https://blog.example/Posts/First-name' });
  });

  it('a rename through the app moves the link, never the guid', async () => {
    const moved = await blog.admin('POST', '/api/note/rename', { path: 'Posts/First name.md', to: 'Posts/Second name.md' });
    expect(moved.status).toBe(200);
    const feed = await blog.waitForPage('/feed.xml', (p) => p.text.includes('/Posts/Second-name'));
    expect(items(feed.text)).toContainEqual({ link: 'https://blog.example/Posts/Second-name', guid: 'https://blog.example/Posts/First-name' });
  });

  it('a rename outside the app (the same text at a new path) keeps the guid too', async () => {
    await fs.rename(path.join(blog.vault, 'Posts/Outside.md'), path.join(blog.vault, 'Posts/Moved outside.md'));
    // The watcher may tell the new path before the old one's going: the move is made once both are in.
    const feed = await blog.waitForPage('/feed.xml', (p) => p.text.includes('/Posts/Moved-outside') && !p.text.includes('<link>https://blog.example/Posts/Outside</link>'));
    expect(items(feed.text)).toContainEqual({ link: 'https://blog.example/Posts/Moved-outside', guid: 'https://blog.example/Posts/Outside' });
  });

  it('a new permalink moves the link, never the guid', async () => {
    await fs.writeFile(path.join(blog.vault, 'Posts/Stay.md'), post('STAY-POST').replace('publish: true\n', 'publish: true\npermalink: /elsewhere\n'));
    const feed = await blog.waitForPage('/feed.xml', (p) => p.text.includes('/elsewhere'));
    expect(items(feed.text)).toContainEqual({ link: 'https://blog.example/elsewhere', guid: 'https://blog.example/Posts/Stay' });
  });

  it('the ids are kept in the data directory and in the vault, and a second server on the vault agrees', async () => {
    const carried = await waitFor(async () => {
      const text = await fs.readFile(path.join(blog.vault, '.service/feed-ids.json'), 'utf8').catch(() => '');
      return text.includes('Posts/Moved outside.md') ? (JSON.parse(text) as { ids: Record<string, [string, number]> }) : null;
    });
    expect(carried!.ids['Posts/Second name.md']![0]).toBe('/Posts/First-name');
    const own = JSON.parse(await fs.readFile(path.join(blog.data, 'feed-ids.json'), 'utf8')) as { ids: Record<string, [string, number]> };
    expect(own.ids['Posts/Moved outside.md']![0]).toBe('/Posts/Outside');
    // Only posts whose address changed have an entry: a vault's ids change only when a post moves.
    expect(Object.keys(own.ids).sort()).toEqual(['Posts/Moved outside.md', 'Posts/Second name.md', 'Posts/Stay.md']);
    // The vault as another machine gets it (a pull, a copy): a data directory of its own.
    const second = await startBlog({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', SITE_URL: 'https://blog.example' }, beforeStart: (vault) => fs.cp(blog.vault, vault, { recursive: true }) });
    try {
      const feed = await second.waitForPage('/feed.xml', (p) => p.text.includes('/Posts/Second-name'), 30_000);
      expect(items(feed.text)).toContainEqual({ link: 'https://blog.example/Posts/Second-name', guid: 'https://blog.example/Posts/First-name' });
    } finally {
      await second.stop();
    }
  });
});

describe('a hostile .service/feed-ids.json', () => {
  it('entries that are not ids are ignored; the feed is built', async () => {
    const hostile = JSON.stringify({ version: 1, ids: { 'Posts/A.md': ['javascript:alert(1)', 1], 'Posts/B.md': ['/x\u0000y', 1], 'Posts/C.md': 'nope' } });
    const server = await startBlog({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', SITE_URL: 'https://blog.example' }, files: { 'Posts/A.md': post('A'), 'Posts/B.md': post('B'), 'Posts/C.md': post('C'), '.service/feed-ids.json': hostile } });
    try {
      const guids = items((await server.page('/feed.xml')).text).map((i) => i.guid).sort();
      expect(guids).toEqual(['https://blog.example/Posts/A', 'https://blog.example/Posts/B', 'https://blog.example/Posts/C']);
    } finally {
      await server.stop();
    }
  });
});

describe('a static snapshot built again with the same data folder', () => {
  it('a post renamed between two builds keeps its guid (each build a process of its own)', async () => {
    const root = await tempDir('vs-guid-snapshot-');
    const vault = path.join(root, 'vault');
    await writeFiles(vault, { 'Posts/Old name.md': post('RENAMED-BETWEEN-BUILDS'), 'Posts/Other.md': post('ANOTHER-POST') });
    const build = () => {
      const res = spawnSync(process.execPath, [...CLI_BUILD], {
        cwd: PROJECT_DIR,
        env: childEnv({ VAULT: vault, SERVICE_DATA: path.join(root, 'data'), SITE_OUT: path.join(root, 'site'), SITE_URL: 'https://static.example', PUBLIC_LAYOUT: 'blog' }),
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(res.status, res.stderr).toBe(0);
      return fs.readFile(path.join(root, 'site', 'feed.xml'), 'utf8');
    };
    expect(items(await build())).toContainEqual({ link: 'https://static.example/Posts/Old-name', guid: 'https://static.example/Posts/Old-name' });
    await fs.rename(path.join(vault, 'Posts/Old name.md'), path.join(vault, 'Posts/New name.md'));
    const feed = items(await build());
    expect(feed).toContainEqual({ link: 'https://static.example/Posts/New-name', guid: 'https://static.example/Posts/Old-name' });
    expect(feed).toContainEqual({ link: 'https://static.example/Posts/Other', guid: 'https://static.example/Posts/Other' });
    // The vault is left as it was: a CI checkout is not written to.
    await expect(fs.stat(path.join(vault, '.service'))).rejects.toThrow();
  });
});
