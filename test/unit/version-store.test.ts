// spec 8 limits of the version store, on the real filesystem with a controlled clock.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VersionStore, versionFolderName } from '../../admin/versions/version-store.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

// Each store's debounced index write lands before its folder is removed.
const opened: VersionStore[] = [];
class TestStore extends VersionStore {
  constructor(...args: ConstructorParameters<typeof VersionStore>) {
    super(...args);
    opened.push(this);
  }
}
afterAll(async () => {
  await Promise.all(opened.map((store) => store.flush()));
  await cleanupTempDirs();
});

const MIN = 60_000;

function clock(start = Date.UTC(2026, 0, 1)) {
  let t = start;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

const SAVED = Date.UTC(2025, 0, 1);
const keep = (store: VersionStore, p: string, text: string, reason: any = 'Earlier save') =>
  store.keep(p, { data: Buffer.from(text), savedAtMs: SAVED, reason });

/** An editor save by this server: the text it replaces was this server's own write at `mtime`. */
async function ownSave(store: VersionStore, p: string, replaced: string, mtime: number) {
  store.recordWrite(p, Buffer.from(replaced), mtime);
  return store.keep(p, { data: Buffer.from(replaced), savedAtMs: mtime, reason: 'Earlier save' });
}

describe('merge window: it thins only a run of this server\'s own saves of one lineage', () => {
  it('an own save less than 5 minutes after the last kept version keeps nothing new; after 5 minutes it does', async () => {
    const c = clock();
    const store = new TestStore(await tempDir(), {}, c.now);
    expect(await keep(store, 'n.md', 'v1')).toBe('kept');
    c.advance(4 * MIN + 59_000);
    expect(await ownSave(store, 'n.md', 'v2', 1000)).toBe('merged');
    c.advance(2_000);
    expect(await ownSave(store, 'n.md', 'v3', 2000)).toBe('kept');
    expect((await store.list('n.md')).map((v) => v.size)).toEqual([2, 2]);
  });

  it('text this server did not write (another writer, a sync, a shell) is kept inside the window', async () => {
    const c = clock();
    const store = new TestStore(await tempDir(), {}, c.now);
    await keep(store, 'n.md', 'v1');
    store.recordWrite('n.md', Buffer.from('mine'), 1000);
    c.advance(MIN);
    // Different bytes than this server wrote, or the same bytes written again later.
    expect(await store.keep('n.md', { data: Buffer.from('theirs'), savedAtMs: 1500, reason: 'Earlier save' })).toBe('kept');
    expect(await store.keep('n.md', { data: Buffer.from('mine'), savedAtMs: 1700, reason: 'Earlier save' })).toBe('kept');
    expect((await store.list('n.md')).map((v) => v.size)).toEqual([4, 6, 2]);
  });

  it('Keep my version (a write over a text the writer was never shown) always keeps it', async () => {
    const c = clock();
    const store = new TestStore(await tempDir(), {}, c.now);
    await keep(store, 'n.md', 'v1');
    store.recordWrite('n.md', Buffer.from('from another tab'), 1000);
    c.advance(MIN);
    expect(await store.keep('n.md', { data: Buffer.from('from another tab'), savedAtMs: 1000, reason: 'Earlier save', overwrite: true })).toBe('kept');
  });

  it('the window follows the last kept version of any origin: an outside text, then two quick own saves keep one version', async () => {
    const c = clock();
    const store = new TestStore(await tempDir(), {}, c.now);
    // The outside text is kept (this server never wrote it); the first save's text is this server's own.
    expect(await store.keep('n.md', { data: Buffer.from('outside'), savedAtMs: 500, reason: 'Earlier save' })).toBe('kept');
    c.advance(1000);
    expect(await ownSave(store, 'n.md', 'first save', 1000)).toBe('merged');
    expect((await store.list('n.md')).map((v) => v.size)).toEqual([7]);
  });

  it('what this server last wrote is remembered across a restart', async () => {
    const c = clock();
    const dir = await tempDir();
    const store = new TestStore(dir, {}, c.now);
    await keep(store, 'n.md', 'v1');
    store.recordWrite('n.md', Buffer.from('v2'), 1000);
    await store.flush();
    const restarted = new TestStore(dir, {}, c.now);
    c.advance(MIN);
    expect(await restarted.keep('n.md', { data: Buffer.from('v2'), savedAtMs: 1000, reason: 'Earlier save' })).toBe('merged');
    expect(await restarted.keep('n.md', { data: Buffer.from('v9'), savedAtMs: 1000, reason: 'Earlier save' })).toBe('kept');
  });

  it('the remembered write moves with a renamed note', async () => {
    const c = clock();
    const store = new TestStore(await tempDir(), {}, c.now);
    await keep(store, 'a.md', 'v1');
    store.recordWrite('a.md', Buffer.from('v2'), 1000);
    await store.move('a.md', 'b.md');
    c.advance(MIN);
    expect(await store.keep('b.md', { data: Buffer.from('v2'), savedAtMs: 1000, reason: 'Earlier save' })).toBe('merged');
  });

  it('a restore and a link rewrite are exempt: the replaced text is always kept, this server\'s own included', async () => {
    const c = clock();
    const store = new TestStore(await tempDir(), {}, c.now);
    await keep(store, 'n.md', 'v1');
    store.recordWrite('n.md', Buffer.from('v2'), 1000);
    expect(await store.keep('n.md', { data: Buffer.from('v2'), savedAtMs: 1000, reason: 'Before a restore' })).toBe('kept');
    store.recordWrite('n.md', Buffer.from('v3'), 2000);
    expect(await store.keep('n.md', { data: Buffer.from('v3'), savedAtMs: 2000, reason: 'Before a link rewrite' })).toBe('kept');
    expect((await store.list('n.md')).map((v) => v.reason)).toEqual(['Before a link rewrite', 'Before a restore', 'Earlier save']);
  });

  it('version times are strictly increasing per note even within one millisecond', async () => {
    const c = clock();
    const store = new TestStore(await tempDir(), {}, c.now);
    for (let i = 0; i < 3; i++) await keep(store, 'n.md', `v${i}`, 'Before a restore');
    const ats = (await store.list('n.md')).map((v) => Number(v.at)).reverse();
    expect(ats[1]).toBeGreaterThan(ats[0]!);
    expect(ats[2]).toBeGreaterThan(ats[1]!);
  });
});

describe('what is worth keeping', () => {
  it('an empty text is not kept (no `0 B` version after a new note\'s first save)', async () => {
    const store = new TestStore(await tempDir());
    expect(await keep(store, 'n.md', '')).toBe('empty');
    expect(await store.list('n.md')).toEqual([]);
  });

  it('a temp file left by a crash mid-write is swept at load, never listed', async () => {
    const dir = await tempDir();
    const store = new TestStore(dir);
    await keep(store, 'n.md', 'whole');
    await store.flush();
    const folder = path.join(dir, 'versions', versionFolderName('n.md'));
    await fs.writeFile(path.join(folder, '.~vs-abc123.tmp'), 'tor');
    const reloaded = new TestStore(dir);
    expect((await reloaded.list('n.md')).map((v) => v.size)).toEqual([5]);
    expect((await fs.readdir(folder)).some((f) => f.endsWith('.tmp'))).toBe(false);
  });
});

describe('at most 40 versions per note', () => {
  it('drops the oldest and deletes its file', async () => {
    const c = clock();
    const dir = await tempDir();
    const store = new TestStore(dir, {}, c.now);
    for (let i = 0; i < 42; i++) {
      await keep(store, 'n.md', `text ${i}`);
      c.advance(6 * MIN);
    }
    const versions = await store.list('n.md');
    expect(versions).toHaveLength(40);
    expect(await store.read('n.md', versions[39]!.at)).toBe('text 2');
    await store.flush();
    const files = (await fs.readdir(path.join(dir, 'versions', versionFolderName('n.md')))).filter((f) => f.endsWith('.md'));
    expect(files).toHaveLength(40);
  });
});

describe('whole store under its cap', () => {
  it('evicts the oldest version anywhere, and the running total survives a reload', async () => {
    const c = clock();
    const dir = await tempDir();
    const store = new TestStore(dir, { maxStoreBytes: 1000 }, c.now);
    await keep(store, 'old.md', 'o'.repeat(400));
    c.advance(MIN);
    await keep(store, 'mid.md', 'm'.repeat(400));
    c.advance(MIN);
    expect(store.storeBytes).toBe(800);
    await keep(store, 'new.md', 'n'.repeat(400));
    expect(store.storeBytes).toBe(800);
    expect(await store.list('old.md')).toEqual([]);
    await expect(fs.stat(path.join(dir, 'versions', versionFolderName('old.md')))).rejects.toThrow();
    expect(await store.list('mid.md')).toHaveLength(1);

    const reloaded = new TestStore(dir, { maxStoreBytes: 1000 }, c.now);
    await reloaded.load();
    expect(reloaded.storeBytes).toBe(800);
  });
});

describe('move and erase', () => {
  it('move carries the versions to the new path, merging with any already there', async () => {
    const c = clock();
    const dir = await tempDir();
    const store = new TestStore(dir, {}, c.now);
    await keep(store, 'a.md', 'from a');
    c.advance(MIN);
    await keep(store, 'b.md', 'from b');
    await store.move('a.md', 'b.md');
    await store.flush();
    expect(await store.list('a.md')).toEqual([]);
    const moved = await store.list('b.md');
    expect(moved).toHaveLength(2);
    expect(await store.read('b.md', moved[1]!.at)).toBe('from a');
    const index = JSON.parse(await fs.readFile(path.join(dir, 'versions', versionFolderName('b.md'), 'index.json'), 'utf8'));
    expect(index.path).toBe('b.md');
  });

  it('erase removes the folder and its bytes from the total', async () => {
    const store = new TestStore(await tempDir());
    await keep(store, 'a.md', 'abc');
    await store.erase('a.md');
    expect(await store.list('a.md')).toEqual([]);
    expect(store.storeBytes).toBe(0);
  });
});

describe('several notes in turn', () => {
  it('move merges into a folder that has versions (times kept apart), takes the folder when it has none, and survives a reload', async () => {
    const c = clock();
    const dir = await tempDir();
    const store = new TestStore(dir, {}, c.now);
    for (const text of ['first', 'second', 'third']) {
      await keep(store, 'a.md', text);
      c.advance(MIN);
    }
    await keep(store, 'b.md', 'b own');
    await store.move('a.md', 'b.md');
    const texts = async (s: VersionStore, p: string) => Promise.all((await s.list(p)).map((v) => s.read(p, v.at)));
    expect((await texts(store, 'b.md')).sort()).toEqual(['b own', 'first', 'second', 'third']);
    expect(await store.list('a.md')).toEqual([]);
    await store.move('b.md', 'c.md');
    expect(await store.list('b.md')).toEqual([]);
    await store.flush();
    const reloaded = new TestStore(dir, {}, c.now);
    expect((await texts(reloaded, 'c.md')).sort()).toEqual(['b own', 'first', 'second', 'third']);
    expect(reloaded.storeBytes).toBe(store.storeBytes);
    await reloaded.erase('c.md');
    expect(reloaded.storeBytes).toBe(0);
    await expect(fs.stat(path.join(dir, 'versions', versionFolderName('c.md')))).rejects.toThrow();
  });
});

describe('a move cut short by a crash loses nothing', () => {
  it('every version is listed under the old path or the new one, whichever step the crash came after', async () => {
    const c = clock();
    const dir = await tempDir();
    const store = new TestStore(dir, {}, c.now);
    for (const [p, text] of [['a.md', 'a one'], ['a.md', 'a two'], ['b.md', 'b own'], ['c.md', 'c own']] as const) {
      await keep(store, p, text);
      c.advance(MIN);
    }
    await store.flush();
    const folder = (p: string) => path.join(dir, 'versions', versionFolderName(p));
    // A merge stopped between its renames: one of a's files is in b's folder, neither index rewritten.
    const [first] = await store.list('a.md');
    await fs.rename(path.join(folder('a.md'), `${first!.at}.md`), path.join(folder('b.md'), `${first!.at}.md`));
    // A move onto a path without versions stopped after its one folder rename, before the index.
    await fs.rename(folder('c.md'), folder('d.md'));
    const reloaded = new TestStore(dir, {}, c.now);
    const texts = async (p: string) => Promise.all((await reloaded.list(p)).map((v) => reloaded.read(p, v.at)));
    expect(await texts('a.md')).toEqual(['a one']);
    expect((await texts('b.md')).sort()).toEqual(['a two', 'b own']);
    expect(await texts('d.md')).toEqual(['c own']);
    expect(reloaded.storeBytes).toBe(store.storeBytes);
  });
});

describe('a garbled index.json is input too', () => {
  it('sizes come from the version files: one index claiming 1e15 bytes evicts nothing, and the total is true', async () => {
    const c = clock();
    const dir = await tempDir();
    const store = new TestStore(dir, {}, c.now);
    await keep(store, 'a.md', 'a older');
    c.advance(MIN);
    await keep(store, 'b.md', 'b older');
    await store.flush();
    const file = path.join(dir, 'versions', versionFolderName('a.md'), 'index.json');
    const index = JSON.parse(await fs.readFile(file, 'utf8'));
    index.versions[0].size = 1e15;
    index.versions.push(null, { at: 'x' }, { ...index.versions[0] });
    await fs.writeFile(file, JSON.stringify(index));
    const reloaded = new TestStore(dir, {}, c.now);
    await reloaded.load();
    expect(reloaded.storeBytes).toBe('a older'.length + 'b older'.length);
    c.advance(MIN);
    await keep(reloaded, 'c.md', 'c older');
    for (const [p, text] of [['a.md', 'a older'], ['b.md', 'b older'], ['c.md', 'c older']] as const) {
      const listed = await reloaded.list(p);
      expect(listed, p).toHaveLength(1);
      expect(await reloaded.read(p, listed[0]!.at)).toBe(text);
    }
  });
});

describe('the version file is the durable record', () => {
  it('a version file whose index.json never landed (a crash between the two) is listed again at load', async () => {
    const c = clock();
    const dir = await tempDir();
    const store = new TestStore(dir, {}, c.now);
    await keep(store, 'n.md', 'listed');
    await store.flush();
    const folder = path.join(dir, 'versions', versionFolderName('n.md'));
    // As if the process died after the file and its folder were fsynced, before the index.
    const orphanAt = String(c.now() + 10 * MIN);
    await fs.writeFile(path.join(folder, `${orphanAt}.md`), 'unlisted text');
    const reloaded = new TestStore(dir, {}, c.now);
    const versions = await reloaded.list('n.md');
    expect(versions.map((v) => v.at)[0]).toBe(orphanAt);
    expect(versions[0]).toMatchObject({ size: 13, reason: 'Earlier save' });
    expect(await reloaded.read('n.md', orphanAt)).toBe('unlisted text');
    const index = JSON.parse(await fs.readFile(path.join(folder, 'index.json'), 'utf8'));
    expect(index.versions).toHaveLength(2);
  });

  it('an index entry whose file is gone is dropped at load', async () => {
    const dir = await tempDir();
    const store = new TestStore(dir);
    await keep(store, 'n.md', 'text');
    await store.flush();
    const folder = path.join(dir, 'versions', versionFolderName('n.md'));
    const [file] = (await fs.readdir(folder)).filter((f) => f.endsWith('.md'));
    await fs.rm(path.join(folder, file!));
    expect(await new TestStore(dir).list('n.md')).toEqual([]);
  });
});

describe('a version’s place is input too (a data directory a pull or another program can write)', () => {
  async function threeKept() {
    const c = clock();
    const dir = await tempDir();
    const store = new TestStore(dir, {}, c.now);
    for (const text of ['one', 'two', 'three']) {
      await keep(store, 'n.md', text);
      c.advance(MIN);
    }
    await store.flush();
    const folder = path.join(dir, 'versions', versionFolderName('n.md'));
    const ats = (await store.list('n.md')).map((v) => v.at);
    return { c, dir, store, folder, ats };
  }

  it('a version swapped for a link or a FIFO is never read (nothing outside, no hang), and the note’s other versions stay listed', async () => {
    const { c, dir, store, folder, ats } = await threeKept();
    const outside = path.join(dir, 'outside.txt');
    await fs.writeFile(outside, 'a secret elsewhere');
    await fs.rm(path.join(folder, `${ats[0]}.md`));
    await fs.symlink(outside, path.join(folder, `${ats[0]}.md`));
    await fs.rm(path.join(folder, `${ats[1]}.md`));
    const { execFileSync } = await import('node:child_process');
    execFileSync('mkfifo', [path.join(folder, `${ats[1]}.md`)]);
    // Swapped under a running store: its index still lists them.
    expect(await store.read('n.md', ats[0]!)).toBeNull();
    expect(await store.read('n.md', ats[1]!)).toBeNull();
    expect(await store.read('n.md', ats[2]!)).toBe('one');
    // Loaded again: the two are left out, alone; the note's history is not dropped whole.
    const reloaded = new TestStore(dir, {}, c.now);
    expect((await reloaded.list('n.md')).map((v) => v.at)).toEqual([ats[2]]);
    expect(await reloaded.read('n.md', ats[2]!)).toBe('one');
  });

  it('a version file named past the last time a Date holds is left out, not the folder', async () => {
    const { c, dir, folder, ats } = await threeKept();
    await fs.writeFile(path.join(folder, '9999999999999999.md'), 'far future');
    const reloaded = new TestStore(dir, {}, c.now);
    expect((await reloaded.list('n.md')).map((v) => v.at)).toEqual(ats);
  });
});
