// A note's comments and mentions follow it into the bin and back (a reviewer's find): they
// are kept by path, so a new note written at a trashed note's path showed the old one's
// approved comments and mentions, and the old note restored beside it came back without them.
import { expect, it } from 'vitest';
import { blogForFile } from '../fixtures/blog/helpers.ts';
import { newVisitor } from '../helpers/visitor.ts';

const post = (title: string, body: string) => `---\ntitle: ${title}\npublish: true\ndate: 2026-01-05\n---\n${body}\n`;
const blog = blogForFile({ fixture: false, env: { PUBLIC_LAYOUT: 'blog', COMMENTS: 'on' }, settings: { comments: { moderation: 'none' } }, files: { 'Post.md': post('Old post', 'Old body.') } });
const commentsOf = async (path: string) => ((await blog.admin('GET', `/api/comments?path=${encodeURIComponent(path)}`)).body.comments as { name: string }[]).map((c) => c.name);

it('a trashed note takes its comments along; a new note at its path starts with none; a restored one has them back', async () => {
  await blog.waitForPage('/Post', (p) => p.status === 200);
  const sent = await newVisitor(blog.url).postJson('/api/comments', { path: 'Post.md', name: 'Old reader', body: 'On the old post.' });
  expect(sent.status, sent.text).toBe(202);
  expect(await commentsOf('Post.md')).toEqual(['Old reader']);

  const trashed = await blog.admin('DELETE', '/api/note?path=Post.md');
  expect(trashed.status).toBe(200);
  expect((await blog.admin('PUT', '/api/note?path=Post.md', { content: post('New post', 'A different note.') })).status).toBeLessThan(300);
  const fresh = await blog.waitForPage('/Post', (p) => p.text.includes('New post'));
  expect(fresh.text).not.toContain('Old reader');
  expect(await commentsOf('Post.md')).toEqual([]);

  const restored = await blog.admin('POST', '/api/trash/restore', { id: trashed.body.id });
  expect(restored.status).toBe(200);
  expect(restored.body.path).not.toBe('Post.md');
  expect(await commentsOf(restored.body.path)).toEqual(['Old reader']);
  expect(await commentsOf('Post.md')).toEqual([]);
});
