// spec 1, 3.6, 6: several servers on one vault. A stale save is refused across
// processes, and one server's write reaches the other's event stream.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEvents } from '../helpers/events.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

let a: TestServer;
let b: TestServer;
let vault: string;

beforeAll(async () => {
  const base = await tempDir();
  vault = path.join(base, 'vault');
  await fs.mkdir(vault);
  await fs.writeFile(path.join(vault, 'Shared.md'), 'original');
  [a, b] = await Promise.all([
    startServer({ vault, data: path.join(base, 'data-a') }),
    startServer({ vault, data: path.join(base, 'data-b') }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await cleanupTempDirs();
});

describe('two servers on one vault', () => {
  it("A's save based on a copy B has since overwritten is refused with 409 and the disk keeps B's text", async () => {
    const loadedOnA = (await a.admin('GET', '/api/note?path=Shared.md')).body;
    const byB = await b.admin('PUT', '/api/note?path=Shared.md', { content: 'written by B', baseMtimeMs: loadedOnA.mtimeMs });
    expect(byB.status).toBe(200);
    const byA = await a.admin('PUT', '/api/note?path=Shared.md', { content: 'written by A', baseMtimeMs: loadedOnA.mtimeMs });
    expect(byA.status).toBe(409);
    expect(byA.body).toMatchObject({ code: 'stale', mtimeMs: byB.body.mtimeMs });
    expect(await fs.readFile(path.join(vault, 'Shared.md'), 'utf8')).toBe('written by B');
  });

  it('saves racing on both servers with the same base: exactly one is taken each time, the other gets 409', async () => {
    for (let round = 0; round < 12; round++) {
      const note = `Race/r${round}.md`;
      const made = await a.admin('PUT', `/api/note?path=${encodeURIComponent(note)}`, { content: 'base' });
      const base = made.body.mtimeMs as number;
      const [byA, byB] = await Promise.all([
        a.admin('PUT', `/api/note?path=${encodeURIComponent(note)}`, { content: 'from A', baseMtimeMs: base }),
        b.admin('PUT', `/api/note?path=${encodeURIComponent(note)}`, { content: 'from B', baseMtimeMs: base }),
      ]);
      expect([byA.status, byB.status].sort(), `round ${round}`).toEqual([200, 409]);
      const kept = byA.status === 200 ? 'from A' : 'from B';
      expect(await fs.readFile(path.join(vault, note), 'utf8')).toBe(kept);
    }
  });

  it('renames racing onto one new name on both servers: one moves, the other is refused, no note is lost', async () => {
    for (let round = 0; round < 12; round++) {
      await a.admin('PUT', `/api/note?path=${encodeURIComponent(`Ren/x${round}.md`)}`, { content: `X ${round}` });
      await a.admin('PUT', `/api/note?path=${encodeURIComponent(`Ren/y${round}.md`)}`, { content: `Y ${round}` });
      const [byA, byB] = await Promise.all([
        a.admin('POST', '/api/note/rename', { path: `Ren/x${round}.md`, to: `Ren/t${round}.md` }),
        b.admin('POST', '/api/note/rename', { path: `Ren/y${round}.md`, to: `Ren/t${round}.md` }),
      ]);
      expect([byA.status, byB.status].sort(), `round ${round}`).toEqual([200, 409]);
      const left = await fs.readdir(path.join(vault, 'Ren'));
      expect(left.filter((n) => n.endsWith(`${round}.md`)).sort()).toEqual(byA.status === 200 ? [`t${round}.md`, `y${round}.md`] : [`t${round}.md`, `x${round}.md`]);
    }
  });

  it("B's write reaches A's event stream as `changed`", async () => {
    const events = await openEvents(a.url, await a.login());
    try {
      await b.admin('PUT', '/api/note?path=From%20B.md', { content: 'hello from B' });
      const event = await events.waitFor((e) => e.event === 'changed' && e.data.path === 'From B.md');
      expect(event.data).toEqual({ path: 'From B.md' });
    } finally {
      events.close();
    }
  });

  it('an edit made outside any server (an editor, git) reaches the stream too', async () => {
    const events = await openEvents(b.url, await b.login());
    try {
      await fs.writeFile(path.join(vault, 'Outside.md'), 'typed in another editor');
      await events.waitFor((e) => e.event === 'changed' && e.data.path === 'Outside.md');
    } finally {
      events.close();
    }
  });

  it('the event stream is admin-only', async () => {
    const res = await fetch(`${a.url}/api/events`);
    expect(res.status).toBe(401);
  });
});
