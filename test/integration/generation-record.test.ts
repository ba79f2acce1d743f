// The restart path reads the last generation's record from the data directory,
// which is input too: what it names is served, swapped into and deleted from the site
// folder. A record naming `../../canary` once had the server serve a file outside the data
// directory to visitors and delete it (and /etc/passwd, in a reviewer's first try); one
// wrong type stopped every start; a link in place of a folder of the site took the pages
// written into it elsewhere.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { afterAll, describe, expect, it } from 'vitest';
import { startBlog } from '../fixtures/blog/helpers.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

const ENV = { PUBLIC_LAYOUT: 'blog', SETTINGS_MIRROR_SECONDS: '3600' };
const running: TestServer[] = [];
afterAll(async () => {
  for (const s of running) await s.stop();
  await cleanupTempDirs();
});

/** A blog built once and stopped: its vault, data directory and remembered generation. */
async function builtAndStopped() {
  const first = await startBlog({ env: ENV });
  await first.waitForPage('/Posts/First-post', (p) => p.status === 200);
  const record = path.join(first.data, 'public-site', 'generation.v8');
  await waitFor(() => fs.stat(record).then(() => true, () => false), 15_000);
  await first.stop();
  return { vault: first.vault, data: first.data, record };
}

async function restart(vault: string, data: string): Promise<TestServer> {
  const server = await startServer({ vault, data, env: ENV });
  running.push(server);
  await waitFor(() => /public site (built|brought up to date)/.test(server.output()), 30_000);
  return server;
}

const status = async (server: TestServer, route: string) => (await fetch(server.url + route, { redirect: 'manual' })).status;

describe("a generation's record naming files outside its folder", () => {
  it('is no generation: nothing outside is served or deleted, and the site is built again', async () => {
    const { vault, data, record } = await builtAndStopped();
    const outside = path.dirname(data);
    for (const name of ['canary-a.txt', 'canary-b.txt']) await fs.writeFile(path.join(outside, name), `precious ${name}\n`);
    const state = deserialize(await fs.readFile(record)) as { pages: [string, string, string, string][] };
    state.pages.push(['/evil', '../../canary-a.txt', 'txt', 'x']);
    for (const page of state.pages) if (page[0] === '/robots.txt') page[1] = '../../canary-b.txt';
    await fs.writeFile(record, serialize(state));
    const server = await restart(vault, data);
    expect(server.output()).not.toMatch(/serving the last site generation/);
    expect(await status(server, '/evil')).toBe(404);
    expect(await status(server, '/robots.txt')).toBe(200);
    for (const name of ['canary-a.txt', 'canary-b.txt']) expect(await fs.readFile(path.join(outside, name), 'utf8')).toBe(`precious ${name}\n`);
  }, 90_000);

  it('one of the wrong type is no generation either: the server starts and builds the site', async () => {
    const { vault, data, record } = await builtAndStopped();
    const state = deserialize(await fs.readFile(record)) as { pages: unknown };
    state.pages = [[1, 2, 3, 4], null];
    await fs.writeFile(record, serialize(state));
    const server = await restart(vault, data);
    expect(await status(server, '/Posts/First-post')).toBe(200);
  }, 90_000);
});

describe('a link in place of a folder of the live site', () => {
  it('is never written through: the file it leads to stays as it was', async () => {
    const { vault, data } = await builtAndStopped();
    const gen = (await fs.readdir(path.join(data, 'public-site'))).find((n) => n.startsWith('gen-'))!;
    const posts = path.join(data, 'public-site', gen, 'Posts');
    const outside = path.join(path.dirname(data), 'outside');
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, 'First-post.html'), 'mine\n');
    await fs.rm(posts, { recursive: true });
    await fs.symlink(outside, posts);
    // Edited while the server was down: the catch-up pass renders the page again.
    const note = path.join(vault, 'Posts', 'First post.md');
    await fs.writeFile(note, (await fs.readFile(note, 'utf8')).replace('The first post opens', 'EDITED-WHILE-DOWN The first post opens'));
    const server = await startServer({ vault, data, env: ENV });
    running.push(server);
    // The edit reaches the site (through a whole new generation), and the file outside is untouched.
    await waitFor(async () => (await (await fetch(server.url + '/Posts/First-post')).text()).includes('EDITED-WHILE-DOWN'), 45_000);
    expect(await fs.readFile(path.join(outside, 'First-post.html'), 'utf8')).toBe('mine\n');
    expect(await fs.readdir(outside)).toEqual(['First-post.html']);
  }, 90_000);
});
