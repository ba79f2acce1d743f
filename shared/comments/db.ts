// SERVICE_DATA/comments.db (spec 2.2, CONTRACT §8): the comments and mentions left on the
// public site, in SQLite. The admin process opens it to write; the site's build process
// opens it read-only to put approved comments into the pages (WAL lets both work at once).
// SQLite journals its own writes (write-ahead log, fsync on commit): a process killed at
// any instant leaves every committed comment and nothing half-written. Never in the vault.
import type Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dataPath, DATA_FILES } from '../data-path.ts';
import { log } from '../log.ts';

export type CommentsDb = Database.Database;

let driver: typeof Database | null = null;
/** SQLite's native driver, loaded at the first database opened: a build with comments off never loads it. */
function sqlite(): typeof Database {
  driver ??= createRequire(import.meta.url)('better-sqlite3') as typeof Database;
  return driver;
}

/**
 * The schema, one step per version. A step is never edited once released: a change is a
 * new step, applied once and recorded in `schema_migrations`.
 */
const MIGRATIONS: string[] = [
  `CREATE TABLE comments (
     id TEXT PRIMARY KEY,
     note TEXT NOT NULL,
     parent TEXT,
     name TEXT NOT NULL,
     email TEXT,
     website TEXT,
     body TEXT NOT NULL,
     author INTEGER NOT NULL DEFAULT 0,
     status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'spam')),
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX comments_by_note ON comments (note, status, created_at);
   CREATE INDEX comments_by_status ON comments (status, created_at);
   CREATE TABLE mentions (
     id TEXT PRIMARY KEY,
     note TEXT NOT NULL,
     source TEXT NOT NULL,
     target TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('reply', 'like', 'repost', 'mention')),
     author_name TEXT,
     author_url TEXT,
     author_photo TEXT,
     content TEXT,
     published_at INTEGER,
     status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'spam')),
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL,
     UNIQUE (source, target)
   );
   CREATE INDEX mentions_by_note ON mentions (note, status, created_at);
   CREATE INDEX mentions_by_status ON mentions (status, created_at);`,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function commentsDbFile(dataDir: string): string {
  return dataPath(dataDir, DATA_FILES.comments);
}

/** Applies the steps this database has not had yet, each in its own transaction. */
function migrate(db: CommentsDb): void {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const current = (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number | null }).v ?? 0;
  if (current > MIGRATIONS.length) {
    log.warn(`comments.db has schema version ${current}, newer than this server's ${MIGRATIONS.length}; using it as it is`);
    return;
  }
  for (let version = current + 1; version <= MIGRATIONS.length; version++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[version - 1]!);
      db.prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)').run(version, Date.now());
    })();
  }
}

/** The admin's connection: created (mode 0600) and migrated when needed, WAL, fsync on each commit. */
export function openCommentsDb(dataDir: string): CommentsDb {
  const file = commentsDbFile(dataDir);
  // Created empty first so it is the owner's alone (SQLite gives its -wal and -shm the same mode).
  closeSync(openSync(file, 'a', 0o600));
  const Sqlite = sqlite();
  const db = new Sqlite(file);
  db.pragma('journal_mode = WAL');
  // FULL: a commit is on disk before the answer (a comment is never lost to a crash, power included).
  db.pragma('synchronous = FULL');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/**
 * The build process's connection: read-only, and null while there is no database yet
 * (no comment was ever posted) or it has no schema (nothing to show either way).
 */
export function openCommentsReader(dataDir: string): CommentsDb | null {
  const Sqlite = sqlite();
  let db: CommentsDb;
  try {
    db = new Sqlite(commentsDbFile(dataDir), { readonly: true, fileMustExist: true });
  } catch {
    return null;
  }
  try {
    db.pragma('busy_timeout = 5000');
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'mentions'").get()) return db;
  } catch (err) {
    // Not a database (damaged, or another file under its name): the pages go without comments.
    log.warn(`comments.db cannot be read: ${(err as Error).message}`);
  }
  db.close();
  return null;
}
