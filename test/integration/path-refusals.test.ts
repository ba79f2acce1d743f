// Bad paths get a clear 4xx and change nothing (CONTRACT §3, §11): a rename never
// replaces another entry (a case-only rename on a case-sensitive disk included); a link
// never opens .git, .trash or .service; and what the disk itself refuses (a file where a
// folder should be, a link loop, a name too long) is answered as such, never as a 500.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverForFile } from '../helpers/server.ts';
import { writeFiles } from '../helpers/tmp.ts';

const server = serverForFile();

const q = encodeURIComponent;
const inVault = (p: string) => path.join(server.vault, p);
const read = (p: string) => fs.readFile(inVault(p), 'utf8');
const exists = (p: string) => fs.lstat(inVault(p)).then(() => true, () => false);
const put = (p: string, content: string) => server.admin('PUT', `/api/note?path=${q(p)}`, { content });
const rename = (from: string, to: string) => server.admin('POST', '/api/note/rename', { path: from, to });
const trashCount = async () => (await server.admin('GET', '/api/trash')).body.entries.length as number;
const answer = (res: { status: number; body: { code?: string } }) => ({ status: res.status, code: res.body?.code });

describe('a rename never replaces another entry', () => {
  beforeAll(async () => {
    await writeFiles(server.vault, {
      'Case/a.md': 'lower a\n',
      'Case/A.md': 'upper A\n',
      'Case/b.md': 'lower b\n',
      'Case/B.md/inside.md': 'a folder named B.md\n',
      'Case/c.md': 'lower c\n',
      'Fold/one.md': 'one\n',
      'fold/two.md': 'two\n',
      'Hard/h.md': 'hard\n',
    });
    await fs.link(inVault('Hard/h.md'), inVault('Hard/H.md'));
  });

  it('a case-only rename onto another note (case-sensitive disk) answers 409 exists; both texts stay', async () => {
    const trashed = await trashCount();
    expect(answer(await rename('Case/a.md', 'Case/A.md'))).toEqual({ status: 409, code: 'exists' });
    expect(await read('Case/a.md')).toBe('lower a\n');
    expect(await read('Case/A.md')).toBe('upper A\n');
    expect(await trashCount()).toBe(trashed);
  });

  it('a case-only rename of a folder onto another, non-empty folder answers 409', async () => {
    expect(answer(await rename('Fold', 'fold'))).toEqual({ status: 409, code: 'exists' });
    expect(await read('Fold/one.md')).toBe('one\n');
    expect(await read('fold/two.md')).toBe('two\n');
  });

  it('a case-only rename of a file onto a folder answers 409', async () => {
    expect(answer(await rename('Case/b.md', 'Case/B.md'))).toEqual({ status: 409, code: 'exists' });
    expect(await read('Case/b.md')).toBe('lower b\n');
    expect(await read('Case/B.md/inside.md')).toBe('a folder named B.md\n');
  });

  it('a second hard link to the same file is another name, not the same entry', async () => {
    expect(answer(await rename('Hard/h.md', 'Hard/H.md'))).toEqual({ status: 409, code: 'exists' });
    expect(await exists('Hard/h.md')).toBe(true);
  });

  it('a case-only rename to a free name still moves the note', async () => {
    const res = await rename('Case/c.md', 'Case/C.md');
    expect(res.status).toBe(200);
    expect(await read('Case/C.md')).toBe('lower c\n');
    expect(await exists('Case/c.md')).toBe(false);
  });
});

describe('a change names a note by its own path, never through a link to another place in the vault', () => {
  beforeAll(async () => {
    await writeFiles(server.vault, { 'Linked/B.md': 'the note\n', 'Linked/C.md': 'another\n' });
    await fs.symlink('Linked', inVault('flink'));
    await fs.symlink('Linked/C.md', inVault('c-link.md'));
  });

  it('a save, a rename and a delete through a folder or a file link answer 400 and change nothing', async () => {
    const trashed = await trashCount();
    const before = (await server.admin('GET', `/api/note?path=${q('Linked/B.md')}`)).body;
    // Two spellings of one note would take two locks: a stale save let through.
    expect(answer(await server.admin('PUT', `/api/note?path=${q('flink/B.md')}`, { content: 'through the link\n', baseMtimeMs: before.mtimeMs }))).toEqual({ status: 400, code: 'bad_path' });
    expect(answer(await put('flink/New.md', 'new through the link\n'))).toEqual({ status: 400, code: 'bad_path' });
    expect(answer(await put('c-link.md', 'through a file link\n'))).toEqual({ status: 400, code: 'bad_path' });
    expect(answer(await rename('flink/B.md', 'Moved.md'))).toEqual({ status: 400, code: 'bad_path' });
    expect(answer(await rename('Linked/B.md', 'flink/D.md'))).toEqual({ status: 400, code: 'bad_path' });
    expect(answer(await server.admin('DELETE', `/api/note?path=${q('flink/B.md')}`))).toEqual({ status: 400, code: 'bad_path' });
    expect(await read('Linked/B.md')).toBe('the note\n');
    expect(await read('Linked/C.md')).toBe('another\n');
    for (const p of ['Linked/New.md', 'Moved.md', 'Linked/D.md']) expect(await exists(p), p).toBe(false);
    expect(await trashCount()).toBe(trashed);
  });

  it('by its own path the same note saves as ever, and reading through the link still works', async () => {
    const before = (await server.admin('GET', `/api/note?path=${q('Linked/B.md')}`)).body;
    expect((await server.admin('PUT', `/api/note?path=${q('Linked/B.md')}`, { content: 'saved\n', baseMtimeMs: before.mtimeMs })).status).toBe(200);
    expect((await server.admin('GET', `/api/note?path=${q('flink/B.md')}`)).body.content).toBe('saved\n');
  });
});

describe('a new name never differs from one beside it only in case or accents form (macOS and Windows hold one of the two)', () => {
  const NFC = 'Caf\u00e9.md';
  const NFD = 'Cafe\u0301.md';
  beforeAll(async () => {
    await writeFiles(server.vault, { [`Clash/${NFC}`]: 'the first\n', 'Clash/Other.md': 'other\n' });
  });

  it('a new note, a note in a new folder, a rename and an upload answer 409 exists and write nothing', async () => {
    for (const name of [`Clash/${NFD}`, 'Clash/CAF\u00c9.md', 'clash/x.md', 'CLASH/Sub/y.md']) {
      expect(answer(await put(name, 'second\n')), name).toEqual({ status: 409, code: 'exists' });
    }
    expect(answer(await rename('Clash/Other.md', 'Clash/caf\u00e9.md'))).toEqual({ status: 409, code: 'exists' });
    const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    await writeFiles(server.vault, { 'Clash/Pic.png': 'p' });
    expect(answer(await server.admin('PUT', `/api/attachment?path=${q('Clash/pic.png')}`, { dataBase64: png }))).toEqual({ status: 409, code: 'exists' });
    expect((await fs.readdir(inVault('Clash'))).sort()).toEqual([NFC, 'Other.md', 'Pic.png'].sort());
    expect(await exists('clash')).toBe(false);
    expect(await exists('CLASH')).toBe(false);
  });

  it('a note renamed to its own name in another case moves; an existing note keeps saving; other names are free', async () => {
    expect((await rename('Clash/Other.md', 'Clash/OTHER.md')).status).toBe(200);
    expect(await read('Clash/OTHER.md')).toBe('other\n');
    expect((await put(`Clash/${NFC}`, 'saved again\n')).status).toBe(200);
    expect((await put('Clash/cafe.md', 'no accent: another name\n')).status).toBe(200);
  });
});

describe('a link never opens a reserved folder', () => {
  beforeAll(async () => {
    await writeFiles(server.vault, { '.service/secret.json': '{"secret":1}', '.git/config': '[core]\n', '.trash/old.png': 'png' });
    await fs.symlink('.service', inVault('svc'));
    await fs.symlink('.git', inVault('g'));
    await fs.symlink('.trash', inVault('t'));
    await writeFiles(server.vault, { 'Deep/keep.md': 'keep\n' });
    await fs.symlink('../.service', inVault('Deep/up'));
  });

  for (const link of ['svc', 'g', 't', 'Deep/up']) {
    it(`${link}/…: a write, a read, a rename and a delete are refused with 400 and nothing lands in the reserved folder`, async () => {
      expect(answer(await put(`${link}/evil.md`, 'evil\n'))).toEqual({ status: 400, code: 'bad_path' });
      const reserved = (await fs.readlink(inVault(link))).replace(/^\.\.\//, '');
      expect(await exists(`${reserved}/evil.md`)).toBe(false);
      expect((await server.admin('GET', `/api/file?path=${q(`${link}/secret.json`)}`)).status).toBe(400);
      expect((await server.admin('GET', `/api/note?path=${q(`${link}/x.md`)}`)).status).toBe(400);
      expect(answer(await rename('Deep/keep.md', `${link}/keep.md`))).toEqual({ status: 400, code: 'bad_path' });
      expect(await read('Deep/keep.md')).toBe('keep\n');
      expect((await server.admin('DELETE', `/api/note?path=${q(`${link}/old.png`)}`)).status).toBe(400);
    });
  }

  it('the secret behind the link is never answered', async () => {
    const res = await server.admin('GET', `/api/file?path=${q('svc/secret.json')}`);
    expect(res.text).not.toContain('"secret":1');
  });
});

describe('what the disk refuses is answered as bad input, nothing changed', () => {
  beforeAll(async () => {
    await writeFiles(server.vault, { 'CON.md': 'a file, not a folder\n', 'Some.md': 'some\n' });
    await fs.symlink('loop', inVault('loop'));
  });

  it('a note under a file: read 404, state null, write 409; the file is untouched', async () => {
    expect(answer(await server.admin('GET', `/api/note?path=${q('CON.md/x.md')}`))).toEqual({ status: 404, code: 'not_found' });
    const state = await server.admin('GET', `/api/note/state?path=${q('CON.md/x.md')}&path=Some.md`);
    expect(state.status).toBe(200);
    expect(state.body.states[0]).toEqual({ path: 'CON.md/x.md', mtimeMs: null, readOnly: false });
    const res = await put('CON.md/x.md', 'x\n');
    expect(answer(res)).toEqual({ status: 409, code: 'exists' });
    expect(res.body.error).not.toContain(server.vault);
    expect(await read('CON.md')).toBe('a file, not a folder\n');
  });

  it('a rename under a file answers 409 and the note stays', async () => {
    expect(answer(await rename('Some.md', 'CON.md/Some.md'))).toEqual({ status: 409, code: 'exists' });
    expect(await read('Some.md')).toBe('some\n');
  });

  it('an attachment under a file answers 409', async () => {
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');
    const res = await server.admin('PUT', `/api/attachment?path=${q('CON.md/z.png')}`, { dataBase64: png });
    expect(answer(res)).toEqual({ status: 409, code: 'exists' });
  });

  it('a path through a link loop answers 400 link_loop for a read, a write and a state', async () => {
    expect(answer(await server.admin('GET', `/api/note?path=${q('loop/x.md')}`))).toEqual({ status: 400, code: 'link_loop' });
    expect(answer(await put('loop/x.md', 'x\n'))).toEqual({ status: 400, code: 'link_loop' });
    expect(answer(await server.admin('GET', `/api/note/state?path=${q('loop/x.md')}`))).toEqual({ status: 400, code: 'link_loop' });
    expect((await server.admin('GET', '/api/tree')).status).toBe(200);
  });

  it('a note with a 255-byte name can be deleted twice: the name beside it in the bin fits the disk', async () => {
    const name = 'é'.repeat(126) + '.md';
    for (const text of ['first\n', 'second\n']) {
      expect((await put(name, text)).status).toBe(200);
      const res = await server.admin('DELETE', `/api/note?path=${q(name)}`);
      expect(res.status).toBe(200);
      expect(Buffer.byteLength(path.basename(res.body.trashPath))).toBeLessThanOrEqual(255);
      expect(await fs.readFile(inVault(res.body.trashPath), 'utf8')).toBe(text);
    }
  });
});

describe('a name being made must travel (Obsidian and Windows refuse < > : " | ? *, a trailing dot or space, device names)', () => {
  it('a new note, a rename and an upload under such a name answer 400 bad_name and make nothing; an existing one stays editable', async () => {
    for (const name of ['Portable/a|b.md', 'Portable/What?.md', 'Portable/Re: plans.md', 'Portable/CON.md', 'Portable/nul.md', 'Portable/Lpt1.tex']) {
      expect(answer(await put(name, 'text\n')), name).toEqual({ status: 400, code: 'bad_name' });
      expect(await exists(name), name).toBe(false);
    }
    expect((await put('Portable/Fine name.md', 'fine\n')).status).toBe(200);
    expect(answer(await rename('Portable/Fine name.md', 'Portable/Fine|name.md'))).toEqual({ status: 400, code: 'bad_name' });
    expect(await read('Portable/Fine name.md')).toBe('fine\n');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex').toString('base64');
    expect(answer(await server.admin('PUT', `/api/attachment?path=${q('Portable/img*1.png')}`, { dataBase64: png }))).toEqual({ status: 400, code: 'bad_name' });
    // The bytes must be the image the name says (a reviewer stored HTML as x.png).
    const html = Buffer.from('<!doctype html><script>alert(1)</script>').toString('base64');
    expect(answer(await server.admin('PUT', `/api/attachment?path=${q('Portable/x.png')}`, { dataBase64: html }))).toEqual({ status: 400, code: 'not_an_image' });
    expect(await exists('Portable/x.png')).toBe(false);
    // Made elsewhere (another device, a shell): still opened, saved and renamed to a name that travels.
    await writeFiles(server.vault, { 'Portable/Old|name.md': 'old\n' });
    const loaded = (await server.admin('GET', `/api/note?path=${q('Portable/Old|name.md')}`)).body;
    expect((await server.admin('PUT', `/api/note?path=${q('Portable/Old|name.md')}`, { content: 'edited\n', baseMtimeMs: loaded.mtimeMs })).status).toBe(200);
    expect((await rename('Portable/Old|name.md', 'Portable/Old name.md')).status).toBe(200);
    expect(await read('Portable/Old name.md')).toBe('edited\n');
  });

  it('a name a link cannot name (# ^ [ ]), an invisible or reordering control, and folders made on the way are judged too (a reviewer’s finds)', async () => {
    expect((await put('Portable/Linked.md', 'linked\n')).status).toBe(200);
    for (const to of ['Portable/R#n^x.md', 'Portable/[draft].md', 'Portable/C1\u0085.md', 'Portable/\u202eevil.md', 'x|y/CON/z.md', 'dir./z.md', 'Portable/new#folder/z.md']) {
      expect(answer(await rename('Portable/Linked.md', to)), to).toEqual({ status: 400, code: 'bad_name' });
      expect(answer(await put(to, 'text\n')), to).toEqual({ status: 400, code: 'bad_name' });
    }
    expect(await read('Portable/Linked.md')).toBe('linked\n');
    expect(await exists('x|y')).toBe(false);
    expect(await exists('dir.')).toBe(false);
    // A folder that is there already, however it is named, takes new notes as before.
    await writeFiles(server.vault, { 'Made elsewhere#1/old.md': 'old\n' });
    expect((await put('Made elsewhere#1/new.md', 'new\n')).status).toBe(200);
  });
});
