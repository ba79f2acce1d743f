// Restarts are instant. A restarted server serves the last good site
// generation from the data directory at once (same vault, code and settings),
// while its build process brings it up to date in one incremental pass; a vault
// edited while the server was down is then reflected. But a note unpublished or removed
// while the server was down shows in that generation: then it waits for the catch-up
// pass, and the note's address is never answered but as a missing one (CONTRACT §6).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupTempDirs } from '../helpers/tmp.ts';
import { isBuilderCommand, startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { startBlog } from '../fixtures/blog/helpers.ts';

const ENV = { PUBLIC_LAYOUT: 'blog', SETTINGS_MIRROR_SECONDS: '3600' };
let vault: string;
let data: string;
const running: TestServer[] = [];

const page = async (server: TestServer, route: string) => {
  const res = await fetch(server.url + route, { redirect: 'manual' });
  return { status: res.status, text: await res.text() };
};

/** The server's build process, once it exists (pid of its child running site/build/builder-process). */
async function builderOf(pid: number): Promise<number> {
  return waitFor(
    async () => {
      for (const entry of await fs.readdir('/proc')) {
        if (!/^\d+$/.test(entry)) continue;
        const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
        if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
        if (isBuilderCommand(await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => ''))) return Number(entry);
      }
      return 0;
    },
    20_000,
    2,
  );
}

beforeAll(async () => {
  const first = await startBlog({ env: ENV });
  running.push(first);
  vault = first.vault;
  data = first.data;
  await first.waitForPage('/Posts/First-post', (p) => p.status === 200);
  // The generation and the notes' records are remembered just after the build's answer: wait for them.
  for (const file of ['public-site/generation.v8', 'note-records/records.v8']) await waitFor(() => fs.stat(path.join(data, file)).then(() => true, () => false));
  await first.stop();
  // Edited while the server is down: a changed post, a new one.
  const first_ = path.join(vault, 'Posts', 'First post.md');
  await fs.writeFile(first_, (await fs.readFile(first_, 'utf8')).replace('The first post opens', 'WHILE-DOWN-EDIT The first post opens'));
  await fs.writeFile(path.join(vault, 'Posts', 'Born offline.md'), '---\ntitle: Born offline\npublish: true\ndate: 2026-05-01\n---\nBORN-OFFLINE-TEXT\n');
});

afterAll(async () => {
  for (const s of running) await s.stop();
  await cleanupTempDirs();
});

describe('a restart on a data directory holding the last build', () => {
  it('serves the old generation before the rebuild finishes, and the right one after', async () => {
    const server = await startServer({ vault, data, env: ENV });
    running.push(server);
    // Hold the build process so the old generation is all there is to serve.
    const builder = await builderOf(server.proc.pid!);
    process.kill(builder, 'SIGSTOP');
    try {
      const old = await page(server, '/Posts/First-post');
      expect(server.output()).not.toContain('brought up to date:');
      expect(old.status).toBe(200);
      expect(old.text).not.toContain('WHILE-DOWN-EDIT');
      expect(server.output()).toContain('serving the last site generation');
      expect((await page(server, '/Posts/Second')).status).toBe(200);
    } finally {
      process.kill(builder, 'SIGCONT');
    }
    await waitFor(async () => (await page(server, '/Posts/First-post')).text.includes('WHILE-DOWN-EDIT'), 30_000);
    await waitFor(() => server.output().includes('brought up to date:'));
    // One incremental pass: only what changed was rendered, not a full build.
    expect(server.output()).not.toMatch(/public site built/);
  });

  it('a vault edited while the server was down is reflected: new and changed notes', async () => {
    const server = running.at(-1)!;
    expect((await page(server, '/Posts/Born-offline')).text).toContain('BORN-OFFLINE-TEXT');
    const home = await page(server, '/');
    expect(home.text).toContain('Born offline');
    expect(home.text).toContain('WHILE-DOWN-EDIT');
    const rendered = Number(/brought up to date: (\d+) outputs changed/.exec(server.output())![1]);
    expect(rendered).toBeGreaterThan(0);
    // The notes' records were kept: only the two notes changed while it was down were read again.
    expect(server.output()).toMatch(/brought up to date: .*\(2 of \d+ notes read again\)/);
    const gen = (await fs.readdir(path.join(data, 'public-site'))).find((n) => n.startsWith('gen-'))!;
    const all = ((await fs.readdir(path.join(data, 'public-site', gen), { recursive: true })) as string[]).filter((f) => f.endsWith('.html'));
    expect(rendered).toBeLessThan(all.length);
    await server.stop();
  });

  it('a note unpublished while the server was down is never served: the old generation waits for the catch-up pass', async () => {
    await waitFor(() => fs.stat(path.join(data, 'public-site', 'generation.v8')).then(() => true, () => false));
    const second = path.join(vault, 'Posts', 'Second.md');
    await fs.writeFile(second, (await fs.readFile(second, 'utf8')).replace('publish: true', 'publish: false'));
    const server = await startServer({ vault, data, env: ENV });
    running.push(server);
    const builder = await builderOf(server.proc.pid!);
    process.kill(builder, 'SIGSTOP');
    let answer: Promise<{ status: number; text: string }>;
    try {
      await waitFor(() => server.output().includes('1 published note was unpublished or removed while the server was down'));
      // Asked while only the old generation (which has the note) could answer it.
      answer = page(server, '/Posts/Second');
      expect(server.output()).not.toContain('brought up to date:');
    } finally {
      process.kill(builder, 'SIGCONT');
    }
    const missing = await page(server, '/Posts/No-such-note');
    const held = await answer;
    expect(held.status).toBe(404);
    expect(held.text).toBe(missing.text);
    expect(server.output()).toContain('brought up to date:');
    expect((await page(server, '/')).text).not.toContain('>Second<');
    await server.stop();
  });

  it('a generation built with other settings is not served: the site is built anew', async () => {
    const server = await startServer({ vault, data, env: { ...ENV, SITE_NAME: 'Renamed while down' } });
    running.push(server);
    const home = await waitFor(async () => {
      const p = await page(server, '/');
      return p.status === 200 ? p : null;
    }, 30_000);
    expect(home!.text).toContain("Renamed while down");
    expect(server.output()).toMatch(/public site built/);
    expect(server.output()).not.toContain('serving the last site generation');
  });

  it('a vault styled by its publish.css restarts from its last generation too', async () => {
    // Its pages' signatures hold the stylesheet; the record's key once compared them with the frame's alone, and no restart was instant.
    const styled = await startBlog({ env: ENV, files: { 'publish.css': 'body { --vault-publish-css: 1; }\n' } });
    running.push(styled);
    await styled.waitForPage('/Posts/First-post', (p) => p.status === 200 && p.text.includes('/publish.css'));
    const remembered = await waitFor(() => fs.stat(path.join(styled.data, 'public-site', 'generation.v8')).then(() => true, () => false), 10_000).catch(() => false);
    expect(remembered, 'the generation is remembered').toBe(true);
    await styled.stop();
    const server = await startServer({ vault: styled.vault, data: styled.data, env: ENV });
    running.push(server);
    await waitFor(() => /serving the last site generation|public site built/.test(server.output()), 30_000);
    expect(server.output()).toContain('serving the last site generation');
    expect((await page(server, '/Posts/First-post')).text).toContain('<link rel="stylesheet" href="/publish.css">');
  });
});
