// spec 2.2: comments.db is safe under SIGKILL. The server is killed at random
// moments while visitors post and the admin approves; after each restart every comment
// the server answered 202 for is there, the database passes SQLite's integrity check, and
// the server goes on taking comments.
import Database from 'better-sqlite3';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';
import { newVisitor } from '../helpers/visitor.ts';

afterAll(cleanupTempDirs);

const ROUNDS = 6;

describe('comments.db under SIGKILL', () => {
  it(`after ${ROUNDS} kills mid-post every answered comment is kept and the database is whole`, async () => {
    const base = await tempDir('vs-comments-crash-');
    const vault = path.join(base, 'vault');
    const data = path.join(base, 'data');
    await fs.mkdir(path.join(vault, 'Posts'), { recursive: true });
    await fs.writeFile(path.join(vault, 'Posts/Hello.md'), '---\ntitle: Hello\npublish: true\ndate: 2026-01-01\n---\nHello.\n');
    const answered = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const server = await startServer({ vault, data, env: { COMMENTS: 'on' } });
      await waitFor(async () => (await fetch(`${server.url}/Posts/Hello`)).status === 200, 30_000);
      const cookie = await server.login();
      let stop = false;
      // Six visitors post as fast as they may (3 a minute each), the admin approves what comes in.
      const posters = Array.from({ length: 6 }, async () => {
        const v = newVisitor(server.url);
        for (let i = 0; i < 3 && !stop; i++) {
          try {
            const res = await v.postJson('/api/comments', { path: 'Posts/Hello.md', name: `Round ${round}`, body: `Comment ${round}.${i} ${'x'.repeat(500)}` });
            if (res.status === 202) answered.add(res.body.id);
          } catch {
            return; // the server is gone
          }
        }
      });
      const approver = (async () => {
        while (!stop) {
          try {
            const items = (await server.api('GET', '/api/comments/queue', undefined, cookie)).body?.items ?? [];
            for (const item of items.slice(0, 3)) await server.api('POST', '/api/comments/moderate', { id: item.id, action: 'approve' }, cookie);
          } catch {
            return;
          }
        }
      })();
      // Killed at a random moment once this round has had at least one answer.
      const before = answered.size;
      await waitFor(() => answered.size > before, 20_000, 5);
      await new Promise((r) => setTimeout(r, Math.random() * 150));
      await server.kill();
      stop = true;
      await Promise.all([...posters, approver]);

      const db = new Database(path.join(data, 'comments.db'));
      try {
        expect(db.pragma('integrity_check', { simple: true }), `round ${round}`).toBe('ok');
        const ids = new Set((db.prepare('SELECT id FROM comments').all() as { id: string }[]).map((r) => r.id));
        for (const id of answered) expect(ids.has(id), `comment ${id} answered 202 before round ${round}'s kill`).toBe(true);
      } finally {
        db.close();
      }
    }
    expect(answered.size).toBeGreaterThan(ROUNDS);
    // And the server starts again and takes comments on the same file.
    const server = await startServer({ vault, data, env: { COMMENTS: 'on' } });
    try {
      await waitFor(async () => (await fetch(`${server.url}/Posts/Hello`)).status === 200, 30_000);
      expect((await newVisitor(server.url).postJson('/api/comments', { path: 'Posts/Hello.md', name: 'After', body: 'Still here.' })).status).toBe(202);
      const queue = (await server.admin('GET', '/api/comments/queue')).body.items.length;
      const approved = (await server.api('GET', '/api/comments?path=Posts%2FHello.md')).body.comments.length;
      // A comment may be stored and its answer cut by the kill: more, never fewer.
      expect(queue + approved).toBeGreaterThanOrEqual(answered.size + 1);
    } finally {
      await server.stop();
    }
  }, 180_000);
});
