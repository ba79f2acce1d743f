// spec 2.2, 2.7, 8, 9 and CONTRACT §4: the local version store over HTTP.
import { execFileSync } from 'node:child_process';
import { chmodSync, promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { versionFolderName } from '../../admin/versions/version-store.ts';
import { startServer, waitFor, serverForFile } from '../helpers/server.ts';
import { openEvents } from '../helpers/events.ts';

const server = serverForFile();

const put = (p: string, content: string) => server.admin('PUT', `/api/note?path=${encodeURIComponent(p)}`, { content });
const versionsOf = async (p: string) => (await server.admin('GET', `/api/versions?path=${encodeURIComponent(p)}`)).body;

describe('every write keeps the previous text first', () => {
  it('nothing is kept for a new note or an unchanged write', async () => {
    await put('A.md', 'one');
    await put('A.md', 'one');
    expect(await versionsOf('A.md')).toEqual({ enabled: true, versions: [] });
  });

  it('an overwrite keeps the prior text as an `Earlier save` with its times and size', async () => {
    const before = (await server.admin('GET', '/api/note?path=A.md')).body;
    await put('A.md', 'two');
    const { versions } = await versionsOf('A.md');
    expect(versions).toHaveLength(1);
    const [v] = versions;
    expect(v.reason).toBe('Earlier save');
    expect(v.at).toMatch(/^\d+$/);
    expect(v.size).toBe(3);
    expect(Date.parse(v.savedAt)).toBe(Math.floor(before.mtimeMs));
    expect(Date.parse(v.replacedAt)).toBe(Number(v.at));
    const one = await server.admin('GET', `/api/versions/one?path=A.md&at=${v.at}`);
    expect(one.body).toEqual({ path: 'A.md', at: v.at, content: 'one' });
  });

  it('two editor saves closer than 5 minutes keep only the older version', async () => {
    // Editor saves carry the mtime of the text they were made from (this server's own save).
    const first = await server.admin('PUT', '/api/note?path=A.md', { content: 'three', baseMtimeMs: (await server.admin('GET', '/api/note?path=A.md')).body.mtimeMs });
    await server.admin('PUT', '/api/note?path=A.md', { content: 'four', baseMtimeMs: first.body.mtimeMs });
    const { versions } = await versionsOf('A.md');
    expect(versions).toHaveLength(1);
    expect((await server.admin('GET', `/api/versions/one?path=A.md&at=${versions[0].at}`)).body.content).toBe('one');
  });

  it('stores versions/<sha1 of path>/<at>.md and an index.json naming the path, at mode 0600', async () => {
    const folder = path.join(server.data, 'versions', versionFolderName('A.md'));
    // index.json lands just after the save answers (the version file itself is durable first).
    const index = await waitFor(async () =>
      JSON.parse(await fs.readFile(path.join(folder, 'index.json'), 'utf8').catch(() => 'null')),
    );
    expect(index.path).toBe('A.md');
    expect(index.versions).toHaveLength(1);
    const file = path.join(folder, `${index.versions[0].at}.md`);
    expect(await fs.readFile(file, 'utf8')).toBe('one');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect((await fs.stat(path.join(folder, 'index.json'))).mode & 0o777).toBe(0o600);
  });

  it('a note over 2 MB is not versioned', async () => {
    const big = 'x'.repeat(2 * 1024 * 1024 + 10);
    await put('Big.md', big);
    await put('Big.md', 'small now');
    expect((await versionsOf('Big.md')).versions).toEqual([]);
  });
});

describe('restore (POST /api/versions/restore)', () => {
  it('writes the version back, keeps the replaced text as `Before a restore` even inside the merge window, and emits changed', async () => {
    const events = await openEvents(server.url, await server.login());
    try {
      const { versions } = await versionsOf('A.md');
      const res = await server.admin('POST', '/api/versions/restore', { path: 'A.md', at: versions[0].at });
      expect(res.status).toBe(200);
      expect(res.body.path).toBe('A.md');
      expect(res.body.mtimeMs).toBe((await fs.stat(path.join(server.vault, 'A.md'))).mtimeMs);
      expect(await fs.readFile(path.join(server.vault, 'A.md'), 'utf8')).toBe('one');
      const after = (await versionsOf('A.md')).versions;
      expect(after).toHaveLength(2);
      expect(after[0].reason).toBe('Before a restore');
      expect(Number(after[0].at)).toBeGreaterThan(Number(after[1].at));
      expect((await server.admin('GET', `/api/versions/one?path=A.md&at=${after[0].at}`)).body.content).toBe('four');
      await events.waitFor((e) => e.event === 'changed' && e.data.path === 'A.md');
    } finally {
      events.close();
    }
  });

  it('answers 404 for an unknown version and 400 for a malformed at', async () => {
    expect((await server.admin('POST', '/api/versions/restore', { path: 'A.md', at: '123' })).status).toBe(404);
    expect((await server.admin('POST', '/api/versions/restore', { path: 'A.md', at: 'latest' })).status).toBe(400);
    expect((await server.admin('GET', '/api/versions/one?path=A.md&at=../x')).status).toBe(400);
    expect((await server.admin('GET', '/api/versions/one?path=A.md&at=1')).status).toBe(404);
  });
});

describe("a commit's text restored from History, and the editor's text set aside for the disk's", () => {
  it('PUT /api/note with restore: true keeps the replaced text as `Before a restore`, inside the merge window too', async () => {
    await put('Restored.md', 'Restored one');
    await put('Restored.md', 'Restored two');
    const res = await server.admin('PUT', '/api/note?path=Restored.md', { content: 'Restored again', restore: true });
    expect(res.status).toBe(200);
    const { versions } = await versionsOf('Restored.md');
    expect(versions.map((v: { reason: string }) => v.reason)).toEqual(['Before a restore', 'Earlier save']);
    expect((await server.admin('GET', `/api/versions/one?path=Restored.md&at=${versions[0].at}`)).body.content).toBe('Restored two');
    expect((await server.admin('PUT', '/api/note?path=Restored.md', { content: 'x', restore: 'yes' })).status).toBe(400);
  });

  it('POST /api/versions/keep keeps the given text as `Before a restore` (the disk\'s text restored over it), and leaves the note as it is', async () => {
    await put('Kept.md', 'K on disk');
    const res = await server.admin('POST', '/api/versions/keep', { path: 'Kept.md', content: 'K typed here' });
    expect(res.status).toBe(200);
    expect(res.body.kept).toBe(true);
    const { versions } = await versionsOf('Kept.md');
    expect(versions.map((v: { reason: string }) => v.reason)).toEqual(['Before a restore']);
    expect((await server.admin('GET', `/api/versions/one?path=Kept.md&at=${versions[0].at}`)).body.content).toBe('K typed here');
    expect((await server.admin('GET', '/api/note?path=Kept.md')).body.content).toBe('K on disk');
    // Bad input changes nothing: no note there, no text, a path out of the vault, no session.
    expect((await server.admin('POST', '/api/versions/keep', { path: 'Nope.md', content: 'x' })).status).toBe(404);
    expect((await server.admin('POST', '/api/versions/keep', { path: 'Kept.md', content: 42 })).status).toBe(400);
    expect((await server.admin('POST', '/api/versions/keep', { path: '../Kept.md', content: 'x' })).status).toBe(400);
    expect((await fetch(`${server.url}/api/versions/keep`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: 'Kept.md', content: 'x' }) })).status).toBe(401);
    expect((await versionsOf('Kept.md')).versions).toHaveLength(1);
  });
});

describe('Keep note versions off', () => {
  it('the setting turns the store off at the next write and the API says enabled: false', async () => {
    await put('B.md', 'b1');
    await fs.writeFile(path.join(server.data, 'settings.json'), JSON.stringify({ versions: { keep: false } }));
    await put('B.md', 'b2');
    expect(await versionsOf('B.md')).toEqual({ enabled: false, versions: [] });
    await fs.writeFile(path.join(server.data, 'settings.json'), JSON.stringify({ versions: { keep: true } }));
    await put('B.md', 'b3');
    expect((await versionsOf('B.md')).versions).toHaveLength(1);
    await fs.rm(path.join(server.data, 'settings.json'));
  });

  it('NOTE_VERSIONS=off is the instance default', async () => {
    const off = await startServer({ env: { NOTE_VERSIONS: 'off' } });
    try {
      await off.admin('PUT', '/api/note?path=C.md', { content: 'c1' });
      await off.admin('PUT', '/api/note?path=C.md', { content: 'c2' });
      expect((await off.admin('GET', '/api/versions?path=C.md')).body).toEqual({ enabled: false, versions: [] });
    } finally {
      await off.stop();
    }
  });
});

describe('a failure to keep a version never fails the save', () => {
  it('logs the failure and writes the note anyway', async () => {
    const broken = await startServer();
    try {
      await broken.admin('PUT', '/api/note?path=D.md', { content: 'd1' });
      // The version store's folder cannot be created: a plain file sits where it goes.
      await fs.rm(path.join(broken.data, 'versions'), { recursive: true, force: true });
      await fs.writeFile(path.join(broken.data, 'versions'), 'not a folder');
      const res = await broken.admin('PUT', '/api/note?path=D.md', { content: 'd2' });
      expect(res.status).toBe(200);
      expect(await fs.readFile(path.join(broken.vault, 'D.md'), 'utf8')).toBe('d2');
      expect(broken.output()).toMatch(/could not keep a version of D\.md/);
    } finally {
      await broken.stop();
    }
  });
});

describe('a restore never replaces a text it did not keep (spec 4.2: the replaced text is itself kept)', () => {
  const restoreOldest = async (s: { admin: typeof server.admin }, p: string) => {
    const { versions } = (await s.admin('GET', `/api/versions?path=${encodeURIComponent(p)}`)).body;
    return s.admin('POST', '/api/versions/restore', { path: p, at: versions[versions.length - 1].at });
  };

  it('with Keep note versions off, and for a note over the 2 MB a version may hold, the replaced text is kept all the same', async () => {
    await put('R.md', 'r old');
    await put('R.md', 'r precious current');
    await fs.writeFile(path.join(server.data, 'settings.json'), JSON.stringify({ versions: { keep: false } }));
    try {
      expect((await restoreOldest(server, 'R.md')).status).toBe(200);
      expect(await fs.readFile(path.join(server.vault, 'R.md'), 'utf8')).toBe('r old');
      const { versions } = await versionsOf('R.md');
      expect(versions[0].reason).toBe('Before a restore');
      expect((await server.admin('GET', `/api/versions/one?path=R.md&at=${versions[0].at}`)).body.content).toBe('r precious current');
    } finally {
      await fs.rm(path.join(server.data, 'settings.json'));
    }
    await put('Big.md', 'small old');
    await put('Big.md', 'small newer');
    const huge = 'x'.repeat(2_300_000);
    await put('Big.md', huge);
    expect((await restoreOldest(server, 'Big.md')).status).toBe(200);
    const { versions } = await versionsOf('Big.md');
    expect(versions[0]).toMatchObject({ reason: 'Before a restore', size: huge.length });
  });

  // The note's version folder made unwritable, its versions still readable: by its mode when
  // the tests do not run as root, by the immutable attribute as root (where the file system takes it).
  const lockFolder = (folder: string): (() => void) | null => {
    if (process.getuid?.() !== 0) {
      chmodSync(folder, 0o500);
      return () => chmodSync(folder, 0o700);
    }
    try {
      execFileSync('chattr', ['+i', folder], { stdio: 'ignore' });
      return () => execFileSync('chattr', ['-i', folder], { stdio: 'ignore' });
    } catch {
      return null;
    }
  };

  it('when the replaced text cannot be kept, the restore is refused and the note is as it was', async (ctx) => {
    await put('E.md', 'e1');
    await put('E.md', 'e2 current');
    const { versions } = await versionsOf('E.md');
    const unlock = lockFolder(path.join(server.data, 'versions', versionFolderName('E.md')));
    if (!unlock) return ctx.skip();
    try {
      const res = await server.admin('POST', '/api/versions/restore', { path: 'E.md', at: versions[0].at });
      expect(res.status).toBe(507);
      expect(res.body.code).toBe('not_kept');
      expect(await fs.readFile(path.join(server.vault, 'E.md'), 'utf8')).toBe('e2 current');
    } finally {
      unlock();
    }
  });
});
