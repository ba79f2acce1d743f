// Fills comments.db with pending comments (and a few mentions) before a server starts, the
// way many visitors' posts would leave it, in one transaction: 10,000 take well under a second.
import { openCommentsDb } from '../../shared/comments/db.ts';
import { newId } from '../../admin/comments/store.ts';

/** `count` pending comments on `note`, two to each second back from `newest` (ties the order must break), and `mentions` pending mentions among them, some at a comment's very moment. */
export function fillPendingComments(dataDir: string, note: string, count: number, mentions = 0, newest = Date.now()): void {
  const db = openCommentsDb(dataDir);
  try {
    const comment = db.prepare(
      `INSERT INTO comments (id, note, parent, name, email, website, body, author, status, created_at, updated_at)
       VALUES (?, ?, NULL, ?, ?, NULL, ?, 0, 'pending', ?, ?)`,
    );
    const mention = db.prepare(
      `INSERT INTO mentions (id, note, source, target, kind, author_name, author_url, author_photo, content, published_at, status, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'mention', ?, NULL, NULL, ?, NULL, 'pending', ?, ?)`,
    );
    db.transaction(() => {
      for (let i = 0; i < count; i++) {
        const at = newest - Math.floor(i / 2) * 1000;
        comment.run(newId(), note, `Visitor ${i}`, `v${i}@example.com`, `Comment number ${i}, waiting for moderation.`, at, at);
      }
      for (let i = 0; i < mentions; i++) {
        const at = newest - i * 97_000;
        mention.run(newId(), note, `https://site${i}.example/post`, 'https://blog.example/Posts/Target', `Author ${i}`, `Mention ${i}`, at, at);
      }
    })();
  } finally {
    db.close();
  }
}
