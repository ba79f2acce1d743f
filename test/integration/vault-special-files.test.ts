// CONTRACT §15: a vault path that is not a regular file (a FIFO, a socket) answers 4xx to
// every read and write, at once. A FIFO at a note's path once held the save's read open
// forever, and after four of them every file request of the server waited too (libuv's four
// threads). A note over the size the server reads answers 413, not 500.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ApiAnswer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

/** More pipes than libuv has threads: a save waiting on each once held them all. */
const PIPES = ['Pipe.md', 'Pipe 2.md', 'Sub/Pipe 3.md', 'Pipe 4.md', 'Pipe 5.md'];
let server: TestServer;
let socket: net.Server;

beforeAll(async () => {
  const vault = path.join(await tempDir('vs-special-'), 'v');
  await fs.mkdir(vault);
  await fs.writeFile(path.join(vault, 'Good.md'), 'a note\n');
  await fs.mkdir(path.join(vault, 'Sub'));
  server = await startServer({ vault });
  for (const name of PIPES) execFileSync('mkfifo', [path.join(vault, name)]);
  socket = net.createServer();
  await new Promise<void>((resolve) => socket.listen(path.join(vault, 'Sock.md'), resolve));
  // 17 MB, sparse: over the 16 MB a note may be.
  await fs.writeFile(path.join(vault, 'Big.md'), '');
  await fs.truncate(path.join(vault, 'Big.md'), 17 * 1024 * 1024);
});

afterAll(async () => {
  socket?.close();
  await server?.stop();
  await cleanupTempDirs();
});

/** The answer, or a failure when it takes longer than `ms` (a request waiting on a pipe never answers). */
async function promptly(request: Promise<ApiAnswer>, what: string, ms = 3000): Promise<ApiAnswer> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)));
  try {
    return await Promise.race([request, late]);
  } finally {
    clearTimeout(timer);
  }
}

describe('a FIFO or a socket at a note\'s path', () => {
  it('answers 4xx at once to every read and write, however often asked', async () => {
    // A positive first: the server answers a real note.
    expect((await promptly(server.admin('GET', '/api/note?path=Good.md'), 'GET Good.md')).status).toBe(200);
    // All at once: a request waiting on a pipe holds one of libuv's four threads.
    const asked: Promise<void>[] = [];
    for (let round = 0; round < 2; round++) {
      for (const name of [...PIPES, 'Sock.md'].map(encodeURIComponent)) {
        asked.push(
          (async () => {
            const read = await promptly(server.admin('GET', `/api/note?path=${name}`), `GET ${name}`);
            expect(read.status, `GET ${name}`).toBeGreaterThanOrEqual(400);
            expect(read.status, `GET ${name}`).toBeLessThan(500);
          })(),
          (async () => {
            const write = await promptly(server.admin('PUT', `/api/note?path=${name}`, { content: 'over it' }), `PUT ${name}`);
            expect(write.status, `PUT ${name}`).toBe(400);
            expect(write.body.code).toBe('not_a_file');
          })(),
          (async () => {
            const file = await promptly(server.admin('GET', `/api/file?path=${name}`), `GET /api/file ${name}`);
            expect(file.status, `file ${name}`).toBeGreaterThanOrEqual(400);
            expect(file.status, `file ${name}`).toBeLessThan(500);
          })(),
        );
      }
    }
    const failed = (await Promise.allSettled(asked)).filter((r) => r.status === 'rejected');
    expect(failed.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);
    // Nothing was written over them.
    for (const name of PIPES) expect((await fs.lstat(path.join(server.vault, name))).isFIFO()).toBe(true);
    expect((await fs.lstat(path.join(server.vault, 'Sock.md'))).isSocket()).toBe(true);
  });

  it('leaves every other file request answering', async () => {
    expect((await promptly(server.admin('GET', '/api/tree'), 'tree')).status).toBe(200);
    expect((await promptly(server.admin('GET', '/api/note?path=Good.md'), 'GET Good.md')).body.content).toBe('a note\n');
    expect((await promptly(server.admin('PUT', '/api/note?path=Good.md', { content: 'saved again\n' }), 'PUT Good.md')).status).toBe(200);
    expect(await fs.readFile(path.join(server.vault, 'Good.md'), 'utf8')).toBe('saved again\n');
  });
});

describe('a note over the size the server reads', () => {
  it('answers 413 to a read and a write, and is left as it was', async () => {
    const read = await promptly(server.admin('GET', '/api/note?path=Big.md'), 'GET Big.md');
    expect(read.status).toBe(413);
    expect(read.body.code).toBe('too_large');
    expect((await promptly(server.admin('PUT', '/api/note?path=Big.md', { content: 'small' }), 'PUT Big.md')).status).toBe(413);
    expect((await fs.stat(path.join(server.vault, 'Big.md'))).size).toBe(17 * 1024 * 1024);
  });
});

describe("a FIFO or a link at the bin's record (.trash/.service-trash.json)", () => {
  it('the bin is read as unreadable at once, a delete is refused at once, and nothing outside the vault is read', async () => {
    const record = path.join(server.vault, '.trash', '.service-trash.json');
    // A positive first: a delete puts a note in the bin and the bin lists it.
    expect((await promptly(server.admin('PUT', '/api/note?path=Binned.md', { content: 'to the bin\n' }), 'PUT Binned.md')).status).toBe(200);
    expect((await promptly(server.admin('DELETE', '/api/note?path=Binned.md'), 'DELETE Binned.md')).status).toBe(200);
    expect((await promptly(server.admin('GET', '/api/trash'), 'GET /api/trash')).body.entries).toHaveLength(1);
    const kept = await fs.readFile(record);
    await fs.rm(record);
    execFileSync('mkfifo', [record]);
    expect((await promptly(server.admin('PUT', '/api/note?path=Stays.md', { content: 'stays\n' }), 'PUT Stays.md')).status).toBe(200);
    for (let round = 0; round < 5; round++) {
      expect((await promptly(server.admin('GET', '/api/trash'), 'GET /api/trash')).body.entries).toEqual([]);
      const refused = await promptly(server.admin('DELETE', '/api/note?path=Stays.md'), 'DELETE Stays.md');
      expect(refused.status).toBe(409);
      expect(refused.body.code).toBe('bad_trash');
    }
    expect(await fs.readFile(path.join(server.vault, 'Stays.md'), 'utf8')).toBe('stays\n');
    expect((await fs.lstat(record)).isFIFO()).toBe(true);
    // A link to a file outside the vault: never followed, so nothing of it reaches a log or an answer.
    const outside = path.join(path.dirname(server.vault), 'outside-secret.json');
    await fs.writeFile(outside, 'SECRET-OUTSIDE-THE-VAULT, not JSON');
    await fs.rm(record);
    await fs.symlink(outside, record);
    const listed = await promptly(server.admin('GET', '/api/trash'), 'GET /api/trash');
    expect(listed.body.entries).toEqual([]);
    expect((await promptly(server.admin('DELETE', '/api/note?path=Stays.md'), 'DELETE Stays.md')).body.code).toBe('bad_trash');
    expect(JSON.stringify(listed.body)).not.toContain('SECRET');
    expect(server.output()).not.toContain('SECRET');
    // Put back, the record is read again as it was.
    await fs.rm(record);
    await fs.writeFile(record, kept);
    expect((await promptly(server.admin('GET', '/api/trash'), 'GET /api/trash')).body.entries).toHaveLength(1);
  });
});
