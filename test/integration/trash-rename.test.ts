// spec 3.3 and CONTRACT §3: delete to .trash/, restore, erase, empty; rename and
// move with versions, creation memory and wikilinks following.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor, serverForFile } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const server = serverForFile();

const q = encodeURIComponent;
const put = (p: string, content: string) => server.admin('PUT', `/api/note?path=${q(p)}`, { content });
const read = (p: string) => fs.readFile(path.join(server.vault, p), 'utf8');
const exists = (p: string) => fs.stat(path.join(server.vault, p)).then(() => true, () => false);
const versionsOf = async (p: string) => (await server.admin('GET', `/api/versions?path=${q(p)}`)).body.versions as any[];
const manifest = async () => JSON.parse(await read('.trash/.service-trash.json'));

async function noteWithVersion(p: string, older: string, newer: string) {
  await put(p, older);
  await put(p, newer);
  expect(await versionsOf(p)).toHaveLength(1);
}

describe('delete moves to .trash/ and records where it came from', () => {
  it('a note goes to .trash/, is listed, keeps its versions', async () => {
    await noteWithVersion('Trash/One.md', 'old one', 'one');
    const res = await server.admin('DELETE', `/api/note?path=${q('Trash/One.md')}`);
    expect(res.status).toBe(200);
    expect(await exists('Trash/One.md')).toBe(false);
    expect(await read('.trash/Trash/One.md')).toBe('one');
    const m = await manifest();
    expect(m.entries).toContainEqual(expect.objectContaining({ id: res.body.id, path: 'Trash/One.md', kind: 'note' }));
    const list = await server.admin('GET', '/api/trash');
    const entry = list.body.entries.find((e: any) => e.id === res.body.id);
    expect(entry).toMatchObject({ path: 'Trash/One.md', kind: 'note' });
    expect(Number.isNaN(Date.parse(entry.deletedAt))).toBe(false);
    // Kept with the entry while it is in the bin (a new note at the path starts its own history), and back with it.
    expect(await versionsOf('Trash/One.md')).toHaveLength(0);
    expect((await server.admin('POST', '/api/trash/restore', { id: res.body.id })).status).toBe(200);
    expect(await versionsOf('Trash/One.md')).toHaveLength(1);
    expect((await server.admin('DELETE', `/api/note?path=${q('Trash/One.md')}`)).status).toBe(200);
  });

  it('deleting a missing path answers 404', async () => {
    expect((await server.admin('DELETE', '/api/note?path=Nothing.md')).status).toBe(404);
  });
});

describe('restore', () => {
  it('puts an entry back where it came from', async () => {
    await put('Trash/Two.md', 'two');
    const { body } = await server.admin('DELETE', `/api/note?path=${q('Trash/Two.md')}`);
    const res = await server.admin('POST', '/api/trash/restore', { id: body.id });
    expect(res.body).toEqual({ path: 'Trash/Two.md' });
    expect(await read('Trash/Two.md')).toBe('two');
    expect((await manifest()).entries.find((e: any) => e.id === body.id)).toBeUndefined();
  });

  it('a taken name gets a name beside it, and the versions follow', async () => {
    await noteWithVersion('Trash/Three.md', 'first three', 'three');
    const { body } = await server.admin('DELETE', `/api/note?path=${q('Trash/Three.md')}`);
    await put('Trash/Three.md', 'a new three');
    const res = await server.admin('POST', '/api/trash/restore', { id: body.id });
    expect(res.body).toEqual({ path: 'Trash/Three 2.md' });
    expect(await read('Trash/Three 2.md')).toBe('three');
    expect(await read('Trash/Three.md')).toBe('a new three');
    const moved = await versionsOf('Trash/Three 2.md');
    expect(moved).toHaveLength(1);
    expect((await server.admin('GET', `/api/versions/one?path=${q('Trash/Three 2.md')}&at=${moved[0].at}`)).body.content).toBe('first three');
  });

  it('restored beside a note that took its name, it takes only its own versions; the live note keeps its history', async () => {
    await noteWithVersion('Trash/Eight.md', 'old eight v1', 'old eight v2');
    const { body } = await server.admin('DELETE', `/api/note?path=${q('Trash/Eight.md')}`);
    await put('Trash/Eight.md', 'new eight v1');
    await put('Trash/Eight.md', 'new eight v2');
    await put('Trash/Eight.md', 'new eight v3');
    const texts = async (p: string) => {
      const out: string[] = [];
      for (const v of await versionsOf(p)) out.push((await server.admin('GET', `/api/versions/one?path=${q(p)}&at=${v.at}`)).body.content);
      return out.sort();
    };
    // The new note's history is its own: the trashed note's waits in the bin with it.
    expect(await texts('Trash/Eight.md')).toEqual(['new eight v1']);
    const res = await server.admin('POST', '/api/trash/restore', { id: body.id });
    expect(res.body).toEqual({ path: 'Trash/Eight 2.md' });
    expect(await texts('Trash/Eight 2.md')).toEqual(['old eight v1']);
    expect(await texts('Trash/Eight.md')).toEqual(['new eight v1']);
  });

  it('a folder goes and comes back whole', async () => {
    await writeFiles(server.vault, { 'Box/a.md': 'a', 'Box/sub/b.md': 'b', 'Box/pic.png': 'p' });
    const { body } = await server.admin('DELETE', '/api/note?path=Box');
    expect((await manifest()).entries.find((e: any) => e.id === body.id).kind).toBe('folder');
    expect(await exists('Box')).toBe(false);
    await server.admin('POST', '/api/trash/restore', { id: body.id });
    expect(await read('Box/sub/b.md')).toBe('b');
    expect(await read('Box/pic.png')).toBe('p');
  });

  it('an unknown id answers 404', async () => {
    expect((await server.admin('POST', '/api/trash/restore', { id: 'nope' })).status).toBe(404);
  });
});

describe('erase and empty', () => {
  it('erasing an entry erases its versions', async () => {
    await noteWithVersion('Trash/Four.md', 'old four', 'four');
    const { body } = await server.admin('DELETE', `/api/note?path=${q('Trash/Four.md')}`);
    expect((await server.admin('DELETE', `/api/trash?id=${q(body.id)}`)).status).toBe(200);
    expect(await exists('.trash/Trash/Four.md')).toBe(false);
    expect(await versionsOf('Trash/Four.md')).toEqual([]);
  });

  it('unless a live note has taken the path: then the history belongs to that note', async () => {
    await noteWithVersion('Trash/Five.md', 'old five', 'five');
    const { body } = await server.admin('DELETE', `/api/note?path=${q('Trash/Five.md')}`);
    await put('Trash/Five.md', 'new five');
    await server.admin('DELETE', `/api/trash?id=${q(body.id)}`);
    expect(await versionsOf('Trash/Five.md')).toHaveLength(1);
  });

  it("erasing one entry leaves another entry's versions of the same path", async () => {
    await noteWithVersion('Trash/Nine.md', 'first nine v1', 'first nine v2');
    const first = (await server.admin('DELETE', `/api/note?path=${q('Trash/Nine.md')}`)).body;
    await put('Trash/Nine.md', 'second nine v1');
    await put('Trash/Nine.md', 'second nine v2');
    const second = (await server.admin('DELETE', `/api/note?path=${q('Trash/Nine.md')}`)).body;
    // Both wait in the bin with their entries.
    expect(await versionsOf('Trash/Nine.md')).toHaveLength(0);
    expect((await server.admin('DELETE', `/api/trash?id=${q(second.id)}`)).status).toBe(200);
    expect((await server.admin('POST', '/api/trash/restore', { id: first.id })).body).toEqual({ path: 'Trash/Nine.md' });
    expect(await read('Trash/Nine.md')).toBe('first nine v2');
    const left = await versionsOf('Trash/Nine.md');
    expect(left).toHaveLength(1);
    expect((await server.admin('GET', `/api/versions/one?path=${q('Trash/Nine.md')}&at=${left[0].at}`)).body.content).toBe('first nine v1');
  });

  it('emptying the bin erases every entry and its versions', async () => {
    await noteWithVersion('Trash/Six.md', 'old six', 'six');
    await server.admin('DELETE', `/api/note?path=${q('Trash/Six.md')}`);
    await put('Trash/Seven.md', 'seven');
    await server.admin('DELETE', `/api/note?path=${q('Trash/Seven.md')}`);
    const res = await server.admin('DELETE', '/api/trash');
    expect(res.status).toBe(200);
    expect((await server.admin('GET', '/api/trash')).body.entries).toEqual([]);
    expect((await fs.readdir(path.join(server.vault, '.trash'))).sort()).toEqual(['.service-trash.json']);
    expect(await versionsOf('Trash/Six.md')).toEqual([]);
  });
});

describe('rename and move (POST /api/note/rename)', () => {
  it('moves a note with its versions and creation memory, and rewrites wikilinks in other notes', async () => {
    await noteWithVersion('Old Name.md', 'first', 'second');
    await writeFiles(server.vault, {
      'Links.md': 'See [[Old Name]], [[Old Name|the old one]], [[Old Name#Part]] and ![[Old Name]]. Not [[Other]].',
      'Deep/Path.md': 'By path: [[Old Name.md]]',
      'Unrelated.md': 'no links here',
    });
    const createdMap = async () => JSON.parse(await fs.readFile(path.join(server.data, 'created.json'), 'utf8').catch(() => '{}'));
    // created.json is written a moment after a new note (debounced).
    const createdBefore = await waitFor(async () => (await createdMap())['Old Name.md']);
    const res = await server.admin('POST', '/api/note/rename', { path: 'Old Name.md', to: 'Moved/New Name.md' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ path: 'Moved/New Name.md', rewritten: ['Deep/Path.md', 'Links.md'] });
    expect(await exists('Old Name.md')).toBe(false);
    expect(await read('Moved/New Name.md')).toBe('second');
    expect(await versionsOf('Old Name.md')).toEqual([]);
    expect(await versionsOf('Moved/New Name.md')).toHaveLength(1);
    expect(await read('Links.md')).toBe(
      'See [[New Name]], [[New Name|the old one]], [[New Name#Part]] and ![[New Name]]. Not [[Other]].',
    );
    // A rewrite never writes `.md` into a wikilink (Obsidian resolves either).
    expect(await read('Deep/Path.md')).toBe('By path: [[New Name]]');
    expect(await read('Unrelated.md')).toBe('no links here');
    const linkVersions = await versionsOf('Links.md');
    expect(linkVersions).toHaveLength(1);
    expect(linkVersions[0].reason).toBe('Before a link rewrite');
    const created = await waitFor(async () => {
      const map = await createdMap();
      return map['Moved/New Name.md'] ? map : null;
    });
    expect(created['Moved/New Name.md']).toBe(createdBefore);
    expect(created['Old Name.md']).toBeUndefined();
  });

  it('moves a folder: every note inside takes its versions, and path links are rewritten', async () => {
    await noteWithVersion('Projects/Plan.md', 'plan v1', 'plan v2');
    await writeFiles(server.vault, { 'Index.md': 'Go to [[Projects/Plan]] or [[Plan]] or [[Projects/Plan.md|plan]].' });
    const res = await server.admin('POST', '/api/note/rename', { path: 'Projects', to: 'Archive/Projects 2025' });
    expect(res.status).toBe(200);
    expect(await read('Archive/Projects 2025/Plan.md')).toBe('plan v2');
    expect(await versionsOf('Archive/Projects 2025/Plan.md')).toHaveLength(1);
    expect(await versionsOf('Projects/Plan.md')).toEqual([]);
    expect(await read('Index.md')).toBe('Go to [[Archive/Projects 2025/Plan]] or [[Plan]] or [[Archive/Projects 2025/Plan|plan]].');
  });

  it('a note keeps its extension: a rename that drops it is refused with 400 and changes nothing (issue 16)', async () => {
    await put('Writing in Markdown.md', 'text');
    await writeFiles(server.vault, { 'Linker.md': 'See [[Writing in Markdown]].' });
    const res = await server.admin('POST', '/api/note/rename', { path: 'Writing in Markdown.md', to: 'Markdown basics' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('keeps_extension');
    expect(await read('Writing in Markdown.md')).toBe('text');
    expect(await read('Linker.md')).toBe('See [[Writing in Markdown]].');
  });

  it('a linking note that is not UTF-8 is left byte for byte; the other links are rewritten', async () => {
    await put('Encoded.md', 'e');
    // A Latin-1 é: read as UTF-8 it becomes U+FFFD, and writing that text back would lose the byte.
    const latin1 = Buffer.concat([Buffer.from('Caf'), Buffer.from([0xe9]), Buffer.from(' links [[Encoded]].\n')]);
    await fs.writeFile(path.join(server.vault, 'Latin.md'), latin1);
    await writeFiles(server.vault, { 'Plain.md': 'Plain [[Encoded]] and a real \uFFFD.\n' });
    const res = await server.admin('POST', '/api/note/rename', { path: 'Encoded.md', to: 'Recoded.md' });
    expect(res.status).toBe(200);
    // The positive signal: a UTF-8 note (one that holds a real U+FFFD too) was rewritten.
    expect(res.body.rewritten).toEqual(['Plain.md']);
    expect(await read('Plain.md')).toBe('Plain [[Recoded]] and a real \uFFFD.\n');
    expect((await fs.readFile(path.join(server.vault, 'Latin.md'))).equals(latin1)).toBe(true);
    expect(server.output()).toMatch(/Latin\.md is not UTF-8 text; its links were left as they are/);
  });

  it('renaming back and forth leaves links as Obsidian writes them, never with .md', async () => {
    await put('Round.md', 'r');
    await writeFiles(server.vault, { 'Trip.md': 'Out [[Round]] and back [[Round#Top|top]].' });
    expect((await server.admin('POST', '/api/note/rename', { path: 'Round.md', to: 'Round trip.md' })).status).toBe(200);
    expect(await read('Trip.md')).toBe('Out [[Round trip]] and back [[Round trip#Top|top]].');
    expect((await server.admin('POST', '/api/note/rename', { path: 'Round trip.md', to: 'Round.md' })).status).toBe(200);
    expect(await read('Trip.md')).toBe('Out [[Round]] and back [[Round#Top|top]].');
  });

  it('refuses to overwrite an existing path (409) or to move a missing one (404)', async () => {
    await put('X.md', 'x');
    await put('Y.md', 'y');
    expect((await server.admin('POST', '/api/note/rename', { path: 'X.md', to: 'Y.md' })).status).toBe(409);
    expect(await read('Y.md')).toBe('y');
    expect((await server.admin('POST', '/api/note/rename', { path: 'Missing.md', to: 'Z.md' })).status).toBe(404);
    expect((await server.admin('POST', '/api/note/rename', { path: 'Archive', to: 'Archive/Inside' })).status).toBe(400);
  });
});
