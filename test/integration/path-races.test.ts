// Every mutation of a path holds that path's lock. Many rounds of a checked
// save racing a rename, a delete, a folder move and a restore from the trash, against
// the real server: each round ends with one outcome applied and the other refused
// (409) or applied after it; never a duplicate, never a deleted note come back.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverForFile } from '../helpers/server.ts';

const ROUNDS = 40;

const server = serverForFile({ env: { NOTE_VERSIONS: 'on' } });
beforeAll(async () => {
  await server.login();
});

const exists = (p: string) => fs.stat(path.join(server.vault, p)).then(() => true, () => false);
const read = (p: string) => fs.readFile(path.join(server.vault, p), 'utf8');

async function create(p: string, content: string): Promise<number> {
  const res = await server.admin('PUT', `/api/note?path=${encodeURIComponent(p)}`, { content });
  expect(res.status).toBe(200);
  return res.body.mtimeMs;
}

const save = (p: string, content: string, baseMtimeMs: number) =>
  server.admin('PUT', `/api/note?path=${encodeURIComponent(p)}`, { content, baseMtimeMs });

describe('a checked save racing a rename', () => {
  it(`${ROUNDS} rounds: never a duplicate; the edit is in the renamed note exactly when the save was applied`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const from = `Race/A${i}.md`;
      const to = `Race/B${i}.md`;
      const m = await create(from, `v0 ${i}\n`);
      const [saved, renamed] = await Promise.all([save(from, `v1 ${i}\n`, m), server.admin('POST', '/api/note/rename', { path: from, to })]);
      expect(renamed.status).toBe(200);
      expect([200, 409]).toContain(saved.status);
      expect({ round: i, duplicate: await exists(from) }).toEqual({ round: i, duplicate: false });
      expect({ round: i, text: await read(to) }).toEqual({ round: i, text: saved.status === 200 ? `v1 ${i}\n` : `v0 ${i}\n` });
    }
  });
});

describe('a checked save racing a move of its folder', () => {
  it(`${ROUNDS} rounds: the note ends up only in the moved folder`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const m = await create(`Dir${i}/N.md`, `v0 ${i}\n`);
      const [saved, moved] = await Promise.all([save(`Dir${i}/N.md`, `v1 ${i}\n`, m), server.admin('POST', '/api/note/rename', { path: `Dir${i}`, to: `Moved${i}` })]);
      expect(moved.status).toBe(200);
      expect([200, 409]).toContain(saved.status);
      expect({ round: i, resurrected: await exists(`Dir${i}`) }).toEqual({ round: i, resurrected: false });
      expect(await read(`Moved${i}/N.md`)).toBe(saved.status === 200 ? `v1 ${i}\n` : `v0 ${i}\n`);
    }
  });
});

describe('a checked save racing a delete', () => {
  it(`${ROUNDS} rounds: a deleted note never comes back; the trash holds the last applied text`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const p = `Gone/C${i}.md`;
      const m = await create(p, `v0 ${i}\n`);
      const [saved, deleted] = await Promise.all([save(p, `v1 ${i}\n`, m), server.admin('DELETE', `/api/note?path=${encodeURIComponent(p)}`)]);
      expect(deleted.status).toBe(200);
      expect([200, 409]).toContain(saved.status);
      expect({ round: i, resurrected: await exists(p) }).toEqual({ round: i, resurrected: false });
      expect(await read(deleted.body.trashPath)).toBe(saved.status === 200 ? `v1 ${i}\n` : `v0 ${i}\n`);
    }
  });
});

describe('a restore from the trash racing a save that creates the same note', () => {
  it(`${ROUNDS} rounds: no text is lost (beside it, or kept as the version the save replaced)`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const p = `Back/D${i}.md`;
      await create(p, `old ${i}\n`);
      const deleted = await server.admin('DELETE', `/api/note?path=${encodeURIComponent(p)}`);
      const [restored, created] = await Promise.all([
        server.admin('POST', '/api/trash/restore', { id: deleted.body.id }),
        server.admin('PUT', `/api/note?path=${encodeURIComponent(p)}`, { content: `new ${i}\n` }),
      ]);
      expect(restored.status).toBe(200);
      expect(created.status).toBe(200);
      // The save (no baseMtimeMs: last writer wins) is what the note holds either way.
      expect({ round: i, text: await read(p) }).toEqual({ round: i, text: `new ${i}\n` });
      if (restored.body.path !== p) {
        // The save came first: the restore took a name beside it.
        expect(await read(restored.body.path)).toBe(`old ${i}\n`);
      } else {
        // The restore came first: the save replaced it, and kept it as a version.
        const versions = await server.admin('GET', `/api/versions?path=${encodeURIComponent(p)}`);
        const texts = await Promise.all(
          versions.body.versions.map(async (v: { at: string }) => (await server.admin('GET', `/api/versions/one?path=${encodeURIComponent(p)}&at=${v.at}`)).body.content),
        );
        expect({ round: i, texts }).toEqual({ round: i, texts: expect.arrayContaining([`old ${i}\n`]) });
      }
    }
  });
});

describe('a link rewrite racing a save of the linking note', () => {
  it(`${ROUNDS} rounds: the rewritten link is never lost, nor an applied edit`, async () => {
    for (let i = 0; i < ROUNDS; i++) {
      const target = `Links/T${i}.md`;
      const linker = `Links/L${i}.md`;
      await create(target, 'target\n');
      const m = await create(linker, `see [[T${i}]]\n`);
      const [saved, renamed] = await Promise.all([
        save(linker, `see [[T${i}]] and more\n`, m),
        server.admin('POST', '/api/note/rename', { path: target, to: `Links/U${i}.md` }),
      ]);
      expect(renamed.status).toBe(200);
      expect([200, 409]).toContain(saved.status);
      const expected = saved.status === 200 ? `see [[U${i}]] and more\n` : `see [[U${i}]]\n`;
      expect({ round: i, text: await read(linker) }).toEqual({ round: i, text: expected });
    }
  });
});
