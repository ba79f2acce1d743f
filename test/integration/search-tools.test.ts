// The server side of the tools: vault search (folded like the public search),
// the notes' titles and aliases, backlinks and headings, all from an index kept current
// by vault events; and images pasted into a note, stored as Obsidian stores them.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { waitFor, serverForFile } from '../helpers/server.ts';
import { tempDir, writeFiles } from '../helpers/tmp.ts';

// A 1×1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64');

let vault: string;

const server = serverForFile(async () => {
  const base = await tempDir();
  vault = path.join(base, 'vault');
  await writeFiles(vault, {
    'Café culture.md': '---\ntitle: Café culture\naliases: [Coffee houses]\ntags: [travel]\npublish: true\n---\n# Café culture\n\nA note on espresso and [[Reading list]].\n\n## Vienna\n\nThe Kaffeehaus of Vienna. #history\n',
    'Reading list.md': '# Reading list\n\nBooks to read.\n',
    'Deep/Notes on reading.md': 'See [[Reading list#Books|the list]] again.\nAnd [the list](../Reading%20list.md).\nThrice: [[Reading list]], [[Reading list|it]] and [[Reading list#Books]].\n',
    'عربي.md': '---\ntitle: مكتبة\n---\nالمكتبة العامة في المدينة.\nكَتَبَ الطالبُ درسَه.\n',
    'Code.md': '```\n#notatag [[Not a link]]\n```\ntext\n',
    'Shelf.md': '---\ntitle: Shelf\naliases: ["[[Parent]]"]\nup: "[[Parent]]"\n---\nNo link in the text.\n',
    'Parent.md': 'The parent.\n',
  });
  return { vault, data: path.join(base, 'data') };
});

const search = async (q: string) => (await server.admin('GET', `/api/search?q=${encodeURIComponent(q)}`)).body;

describe('vault search (GET /api/search)', () => {
  it('finds notes by title first, then by text, and names the matching line', async () => {
    const answer = await search('reading');
    expect(answer.results.map((r: any) => r.path)).toEqual(['Reading list.md', 'Deep/Notes on reading.md', 'Café culture.md']);
    const inText = answer.results.find((r: any) => r.path === 'Café culture.md');
    expect(inText).toMatchObject({ line: 9, text: 'A note on espresso and [[Reading list]].', column: 25, length: 7, textColumn: 25 });
  });

  it('folds case and accents, and Arabic alef forms and diacritics, like the public search', async () => {
    expect((await search('CAFE')).results.map((r: any) => r.path)).toEqual(['Café culture.md']);
    expect((await search('vienna kaffeehaus')).results[0]).toMatchObject({ path: 'Café culture.md', line: 13 });
    // أ in the query, ا in the text; diacritics in the text, none in the query.
    expect((await search('المدينة')).results[0]).toMatchObject({ path: 'عربي.md', line: 4 });
    const diacritics = (await search('كتب الطالب')).results[0];
    expect(diacritics).toMatchObject({ path: 'عربي.md', line: 5, column: 0, text: 'كَتَبَ الطالبُ درسَه.' });
    expect(diacritics.length).toBe('كَتَبَ'.length);
  });

  it('finds notes by tag (frontmatter and inline) and by alias', async () => {
    expect((await search('#travel')).results.map((r: any) => r.path)).toEqual(['Café culture.md']);
    expect((await search('history')).results.map((r: any) => r.path)).toEqual(['Café culture.md']);
    expect((await search('coffee houses')).results.map((r: any) => r.path)).toEqual(['Café culture.md']);
    expect((await search('')).results).toEqual([]);
  });

  it('follows the vault: this server\'s saves, another program\'s writes and deletions', async () => {
    await server.admin('PUT', '/api/note?path=Fresh.md', { content: 'A zebra crossing.\n' });
    await waitFor(async () => (await search('zebra')).results.length === 1);
    await fs.writeFile(path.join(vault, 'Outside.md'), 'Written by another program: quokka.\n');
    await waitFor(async () => (await search('quokka')).results.length === 1);
    await fs.rm(path.join(vault, 'Outside.md'));
    await waitFor(async () => (await search('quokka')).results.length === 0);
  });

  it('reads no note through a folder swapped for a link: a match is never a line from outside the vault', async () => {
    // A folder moved out of the vault and linked back in: its notes leave the vault, and
    // a later write behind the link must not come back through search (a reviewer's find).
    await writeFiles(vault, { 'Journal/Day.md': 'day one\nkilo entry in the vault\n' });
    await waitFor(async () => (await search('kilo')).results.length === 1);
    const outside = await tempDir('vs-search-out-');
    await fs.rename(path.join(vault, 'Journal'), path.join(outside, 'Journal'));
    await fs.symlink(path.join(outside, 'Journal'), path.join(vault, 'Journal'));
    await waitFor(async () => (await search('kilo')).results.length === 0);
    await fs.writeFile(path.join(outside, 'Journal/Day.md'), 'day one\nkilo OUTSIDE-ONLY secret\n');
    await fs.writeFile(path.join(vault, 'Marker.md'), 'kilo marker written after\n');
    await waitFor(async () => (await search('kilo')).results.length === 1);
    expect(JSON.stringify(await search('kilo'))).not.toContain('OUTSIDE');
    await fs.rm(path.join(vault, 'Journal'));
    await fs.rm(path.join(vault, 'Marker.md'));
  });
});

describe('titles, aliases, backlinks and headings', () => {
  it('GET /api/notes lists each note with its title, aliases, tags and publish flag', async () => {
    const { notes } = (await server.admin('GET', '/api/notes')).body;
    expect(notes.find((n: any) => n.path === 'Café culture.md')).toEqual({
      path: 'Café culture.md',
      title: 'Café culture',
      aliases: ['Coffee houses'],
      tags: ['travel', 'history'],
      publish: true,
    });
    expect(notes.find((n: any) => n.path === 'Reading list.md').publish).toBe(false);
    expect(notes.find((n: any) => n.path === 'Code.md').tags).toEqual([]);
  });

  it('GET /api/backlinks lists every line that links the note (once however many times it does), with its line', async () => {
    const { backlinks } = (await server.admin('GET', '/api/backlinks?path=Reading%20list.md')).body;
    expect(backlinks).toEqual([
      { path: 'Café culture.md', title: 'Café culture', line: 9, context: 'A note on espresso and [[Reading list]].' },
      { path: 'Deep/Notes on reading.md', title: 'Notes on reading', line: 1, context: 'See [[Reading list#Books|the list]] again.' },
      { path: 'Deep/Notes on reading.md', title: 'Notes on reading', line: 2, context: 'And [the list](../Reading%20list.md).' },
      { path: 'Deep/Notes on reading.md', title: 'Notes on reading', line: 3, context: 'Thrice: [[Reading list]], [[Reading list|it]] and [[Reading list#Books]].' },
    ]);
  });

  it("GET /api/backlinks lists a link in a property, as Obsidian and the site count it (an alias holds none)", async () => {
    const { backlinks } = (await server.admin('GET', '/api/backlinks?path=Parent.md')).body;
    expect(backlinks).toEqual([{ path: 'Shelf.md', title: 'Shelf', line: 4, context: 'up: "[[Parent]]"' }]);
  });

  it('GET /api/headings gives the outline of a note', async () => {
    const { headings } = (await server.admin('GET', '/api/headings?path=Caf%C3%A9%20culture.md')).body;
    expect(headings).toEqual([
      { level: 1, text: 'Café culture', line: 7 },
      { level: 2, text: 'Vienna', line: 11 },
    ]);
  });

  it('visitors get 401 from every one of them', async () => {
    for (const route of ['/api/search?q=a', '/api/notes', '/api/backlinks?path=A.md', '/api/headings?path=A.md']) {
      expect((await server.api('GET', route)).status).toBe(401);
    }
  });
});

describe('images pasted into a note (POST /api/image)', () => {
  const post = (body: Record<string, unknown>) => server.admin('POST', '/api/image', body);

  it('stores a pasted PNG in Attachments/ as `Pasted image <time>.png`, unique in the vault', async () => {
    const first = await post({ note: 'Reading list.md', dataBase64: PNG.toString('base64') });
    expect(first.status).toBe(200);
    expect(first.body.path).toMatch(/^Attachments\/Pasted image \d{14}\.png$/);
    expect((await fs.readFile(path.join(vault, first.body.path))).equals(PNG)).toBe(true);
    const dropped = await post({ note: 'Reading list.md', name: 'cover.png', dataBase64: PNG.toString('base64') });
    expect(dropped.body).toEqual({ path: 'Attachments/cover.png', name: 'cover.png' });
    const again = await post({ note: 'Reading list.md', name: 'cover.png', dataBase64: PNG.toString('base64') });
    expect(again.body).toEqual({ path: 'Attachments/cover 2.png', name: 'cover 2.png' });
  });

  it('follows .obsidian/app.json attachmentFolderPath (./sub beside the note)', async () => {
    await writeFiles(vault, { '.obsidian/app.json': JSON.stringify({ attachmentFolderPath: './assets' }) });
    const res = await post({ note: 'Deep/Notes on reading.md', name: 'diagram.png', dataBase64: PNG.toString('base64') });
    expect(res.body).toEqual({ path: 'Deep/assets/diagram.png', name: 'diagram.png' });
    await fs.rm(path.join(vault, '.obsidian'), { recursive: true });
  });

  it('10 pastes at once under one name: 10 distinct files, each with its own bytes, no temp file left', async () => {
    const images = Array.from({ length: 10 }, (_, i) => Buffer.concat([PNG, Buffer.from(`image ${i}`)]));
    const answers = await Promise.all(images.map((data) => post({ note: 'Reading list.md', name: 'same.png', dataBase64: data.toString('base64') })));
    for (const res of answers) expect(res.status).toBe(200);
    const paths = answers.map((res) => res.body.path as string);
    expect(new Set(paths).size).toBe(10);
    for (const [i, p] of paths.entries()) expect({ p, bytes: await fs.readFile(path.join(vault, p), 'latin1') }).toEqual({ p, bytes: images[i]!.toString('latin1') });
    expect((await fs.readdir(path.join(vault, 'Attachments'))).filter((f) => f.startsWith('.~vs-'))).toEqual([]);
  });

  it('refuses what is not an image (400) and what is too large (413), writing nothing', async () => {
    const before = (await fs.readdir(path.join(vault, 'Attachments'))).sort();
    const text = await post({ note: null, name: 'notes.png', dataBase64: Buffer.from('just text').toString('base64') });
    expect(text.status).toBe(400);
    expect(text.body.code).toBe('not_an_image');
    const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
    const large = await post({ note: null, name: 'big.png', dataBase64: big.toString('base64') });
    expect(large.status).toBe(413);
    expect(large.body.error).toMatch(/10 MB/);
    expect((await fs.readdir(path.join(vault, 'Attachments'))).sort()).toEqual(before);
  });
});
