// Comments written in the same millisecond keep the order they were written in (their ids
// are random, so ordering by id would shuffle them): on the article, in the admin's thread
// and, newest first, in the queue.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { openCommentsDb } from '../../shared/comments/db.ts';
import { approvedDiscussions } from '../../shared/comments/read.ts';
import { CommentStore } from '../../admin/comments/store.ts';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

it('same-millisecond comments keep their order of writing everywhere they are listed', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'vs-order-'));
  dirs.push(dir);
  const db = openCommentsDb(dir);
  const store = new CommentStore(db);
  const at = Date.UTC(2026, 0, 1);
  const names = Array.from({ length: 12 }, (_, i) => `Reader ${i}`);
  for (const name of names) store.addComment({ note: 'Post.md', parent: null, name, email: null, website: null, body: 'Same moment.', status: 'approved', author: false }, at);
  expect(store.commentsOf('Post.md', true).map((c) => c.name)).toEqual(names);
  expect(approvedDiscussions(db, ['Post.md']).get('Post.md')!.comments.map((c) => c.name)).toEqual(names);
  for (const name of names) store.addComment({ note: 'Post.md', parent: null, name: 'Later ' + name, email: null, website: null, body: 'Waiting.', status: 'pending', author: false }, at + 1);
  expect(store.pendingPage(null, null, 50).items.map((i) => (i.row as { name: string }).name)).toEqual(names.map((n) => 'Later ' + n).reverse());
  db.close();
});
