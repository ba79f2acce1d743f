// CONTRACT §3 and spec 3.6 / 4.4: tree, read, write with the opt-in stale check,
// state, and path validation, against the real server.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverForFile } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

let outside: string;

const server = serverForFile();
beforeAll(async () => {
  outside = await tempDir('vs-outside-');
  await writeFiles(outside, { 'secret.md': 'outside the vault' });
  await writeFiles(server.vault, {
    'Home.md': '# Home\n',
    'Folder/Inner.md': 'inner',
    'Folder/picture.png': 'png',
    '.git/config': '[core]',
    '.trash/old.md': 'old',
    '.service/settings.json': '{}',
  });
  await fs.symlink(outside, path.join(server.vault, 'escape'));
  await fs.symlink(path.join(outside, 'secret.md'), path.join(server.vault, 'escape-note.md'));
});

const read = (p: string) => fs.readFile(path.join(server.vault, p), 'utf8');
const q = (p: string) => encodeURIComponent(p);

describe('GET /api/tree', () => {
  it('lists folders, notes and attachments with mtimes, never .git, .trash or .service', async () => {
    const res = await server.admin('GET', '/api/tree');
    expect(res.status).toBe(200);
    const byPath = new Map(res.body.entries.map((e: any) => [e.path, e]));
    expect(byPath.get('Home.md')).toMatchObject({ kind: 'note' });
    expect(byPath.get('Folder')).toMatchObject({ kind: 'folder' });
    expect(byPath.get('Folder/Inner.md')).toMatchObject({ kind: 'note' });
    expect(byPath.get('Folder/picture.png')).toMatchObject({ kind: 'attachment' });
    expect(typeof (byPath.get('Home.md') as any).mtimeMs).toBe('number');
    for (const p of byPath.keys()) expect(p as string).not.toMatch(/^\.(git|trash|service)/);
  });
});

describe('GET /api/note', () => {
  it('answers path, content, mtimeMs, the hash of the bytes read (the base of a save) and whether the file may be written', async () => {
    const res = await server.admin('GET', '/api/note?path=Home.md');
    expect(res.status).toBe(200);
    const stat = await fs.stat(path.join(server.vault, 'Home.md'));
    expect(res.body).toEqual({ path: 'Home.md', content: '# Home\n', mtimeMs: stat.mtimeMs, hash: createHash('sha1').update('# Home\n').digest('hex'), readOnly: false });
  });

  it('answers 404 for a missing note', async () => {
    expect((await server.admin('GET', '/api/note?path=Nope.md')).status).toBe(404);
  });
});

describe('PUT /api/note (spec 3.6, 4.4)', () => {
  it('creates a note and its folders', async () => {
    const res = await server.admin('PUT', `/api/note?path=${q('New/Deep/Note.md')}`, { content: 'fresh' });
    expect(res.status).toBe(200);
    expect(res.body.path).toBe('New/Deep/Note.md');
    expect(await read('New/Deep/Note.md')).toBe('fresh');
    expect(res.body.mtimeMs).toBe((await fs.stat(path.join(server.vault, 'New/Deep/Note.md'))).mtimeMs);
  });

  it('a save carrying the current mtime is written and moves the mtime forward', async () => {
    const loaded = await server.admin('GET', '/api/note?path=Home.md');
    const res = await server.admin('PUT', '/api/note?path=Home.md', { content: 'v2', baseMtimeMs: loaded.body.mtimeMs });
    expect(res.status).toBe(200);
    expect(res.body.mtimeMs).toBeGreaterThan(loaded.body.mtimeMs);
    expect(await read('Home.md')).toBe('v2');
  });

  it('a save based on a stale copy is refused with 409 stale and nothing is written', async () => {
    const loaded = await server.admin('GET', '/api/note?path=Home.md');
    // Someone else writes the file meanwhile.
    await new Promise((r) => setTimeout(r, 5));
    await fs.writeFile(path.join(server.vault, 'Home.md'), 'their text');
    const diskMtime = (await fs.stat(path.join(server.vault, 'Home.md'))).mtimeMs;
    const res = await server.admin('PUT', '/api/note?path=Home.md', { content: 'my text', baseMtimeMs: loaded.body.mtimeMs });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'stale', mtimeMs: diskMtime });
    expect(typeof res.body.error).toBe('string');
    expect(await read('Home.md')).toBe('their text');
  });

  it('a save with a base mtime for a note deleted on disk is refused', async () => {
    await writeFiles(server.vault, { 'Gone.md': 'x' });
    const loaded = await server.admin('GET', '/api/note?path=Gone.md');
    await fs.rm(path.join(server.vault, 'Gone.md'));
    const res = await server.admin('PUT', '/api/note?path=Gone.md', { content: 'y', baseMtimeMs: loaded.body.mtimeMs });
    expect(res.status).toBe(409);
    expect(res.body.mtimeMs).toBeNull();
    await expect(fs.stat(path.join(server.vault, 'Gone.md'))).rejects.toThrow();
  });

  it('without baseMtimeMs the last writer wins', async () => {
    await fs.writeFile(path.join(server.vault, 'Home.md'), 'disk');
    const res = await server.admin('PUT', '/api/note?path=Home.md', { content: 'script' });
    expect(res.status).toBe(200);
    expect(await read('Home.md')).toBe('script');
  });

  it('refuses a body without string content, a bad baseMtimeMs, and a non-note path', async () => {
    expect((await server.admin('PUT', '/api/note?path=Home.md', { content: 5 })).status).toBe(400);
    expect((await server.admin('PUT', '/api/note?path=Home.md', { content: 'x', baseMtimeMs: 'yesterday' })).status).toBe(400);
    const res = await server.admin('PUT', '/api/note?path=script.sh', { content: 'x' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('not_a_note');
    expect(await read('Home.md')).toBe('script');
  });

  it('refuses malformed frontmatter with 400 bad_frontmatter and writes nothing', async () => {
    const res = await server.admin('PUT', '/api/note?path=Home.md', { content: '---\ntitle: [unclosed\n---\nbody' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('bad_frontmatter');
    expect(await read('Home.md')).toBe('script');
    expect((await server.admin('PUT', '/api/note?path=Home.md', { content: '---\ntitle: fine\n---\nbody' })).status).toBe(200);
    await server.admin('PUT', '/api/note?path=Home.md', { content: 'script' });
  });

  it('refuses a huge body with 413 and writes nothing', async () => {
    const cookie = await server.login();
    const res = await fetch(`${server.url}/api/note?path=Huge.md`, {
      method: 'PUT',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'x'.repeat(17 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    await expect(fs.stat(path.join(server.vault, 'Huge.md'))).rejects.toThrow();
  });

  it('a note whose file is read-only on disk is refused with 409 read_only and left as it is, as Obsidian refuses it; made writable, it saves', async () => {
    await writeFiles(server.vault, { 'Locked.md': 'Kept as written.\n' });
    const file = path.join(server.vault, 'Locked.md');
    await fs.chmod(file, 0o444);
    const refused = await server.admin('PUT', '/api/note?path=Locked.md', { content: 'Replaced.\n' });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('read_only');
    expect(await read('Locked.md')).toBe('Kept as written.\n');
    expect((await fs.stat(file)).mode & 0o777).toBe(0o444);
    // Its own text again is no write at all: answered as any unchanged save is.
    expect((await server.admin('PUT', '/api/note?path=Locked.md', { content: 'Kept as written.\n' })).status).toBe(200);
    await fs.chmod(file, 0o644);
    expect((await server.admin('PUT', '/api/note?path=Locked.md', { content: 'Replaced.\n' })).status).toBe(200);
    expect(await read('Locked.md')).toBe('Replaced.\n');
  });
});

describe('GET /api/note/state', () => {
  it('answers each path with its mtime and whether it may be written, or null when absent', async () => {
    const res = await server.admin('GET', '/api/note/state?path=Home.md&path=Missing.md');
    expect(res.status).toBe(200);
    const mtime = (await fs.stat(path.join(server.vault, 'Home.md'))).mtimeMs;
    expect(res.body).toEqual({ states: [{ path: 'Home.md', mtimeMs: mtime, readOnly: false }, { path: 'Missing.md', mtimeMs: null, readOnly: false }] });
  });
});

describe('path validation (CONTRACT §3): 400 and nothing changes', () => {
  const hostile = [
    '/etc/passwd',
    '../outside.md',
    'Folder/../../outside.md',
    'a/./b.md',
    'bad\u0000name.md',
    'bad\nname.md',
    'tab\tname.md',
    '.git/config.md',
    '.trash/old.md',
    '.service/settings.md',
    '.GIT/HEAD.md',
    'C:/windows.md',
    'back\\slash.md',
    'escape/secret.md',
    'escape/new.md',
    'escape-note.md',
  ];

  it.each(hostile)('refuses %j on read, write, delete and rename', async (p) => {
    const before = await fs.readFile(path.join(outside, 'secret.md'), 'utf8');
    const answers = [
      await server.admin('GET', `/api/note?path=${q(p)}`),
      await server.admin('PUT', `/api/note?path=${q(p)}`, { content: 'pwned' }),
      await server.admin('DELETE', `/api/note?path=${q(p)}`),
      await server.admin('POST', '/api/note/rename', { path: 'Folder/Inner.md', to: p }),
      await server.admin('POST', '/api/note/rename', { path: p, to: 'Stolen.md' }),
      await server.admin('GET', `/api/note/state?path=${q(p)}`),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('bad_path');
    }
    expect(await fs.readFile(path.join(outside, 'secret.md'), 'utf8')).toBe(before);
    await expect(fs.stat(path.join(outside, 'new.md'))).rejects.toThrow();
    expect(await read('Folder/Inner.md')).toBe('inner');
    expect(await read('.git/config')).toBe('[core]');
  });

  it('refuses a path the vault never lists (one entry rule with the walker): nothing is written', async () => {
    // The positive signal first: a save beside them lands and is listed.
    expect((await server.admin('PUT', `/api/note?path=${q('Notes/Listed.md')}`, { content: 'listed' })).status).toBe(200);
    const listed = (await server.admin('GET', '/api/tree')).body.entries.map((e: any) => e.path);
    expect(listed).toContain('Notes/Listed.md');
    const data = Buffer.from('png').toString('base64');
    for (const p of ['Notes/.~vs-a.md', 'Sub/.obsidian/x.md', 'node_modules/x.md', 'Sub/node_modules/y.md', 'Notes/.hidden.md']) {
      const answers = [
        await server.admin('PUT', `/api/note?path=${q(p)}`, { content: 'lost' }),
        await server.admin('PUT', `/api/attachment?path=${q(p.replace(/\.md$/, '.png'))}`, { dataBase64: data }),
        await server.admin('POST', '/api/note/rename', { path: 'Notes/Listed.md', to: p }),
      ];
      for (const res of answers) expect({ p, status: res.status, code: res.body.code }).toEqual({ p, status: 400, code: 'bad_path' });
      await expect(fs.stat(path.join(server.vault, p)), p).rejects.toThrow();
      await expect(fs.stat(path.join(server.vault, p.replace(/\.md$/, '.png'))), p).rejects.toThrow();
    }
    expect(await read('Notes/Listed.md')).toBe('listed');
  });

  it('refuses a missing path', async () => {
    expect((await server.admin('GET', '/api/note')).status).toBe(400);
    expect((await server.admin('POST', '/api/note/rename', { path: 'Home.md' })).status).toBe(400);
  });
});
