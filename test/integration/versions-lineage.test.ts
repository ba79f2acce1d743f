// spec 8, 9: the 5-minute merge window only thins a run of this
// server's own saves of one text lineage. Text that reached the disk any other way
// (another process, another server, Keep my version over it) is always kept first.
// And versions keep bytes, not text: a non-UTF-8 note comes back byte for byte.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

let a: TestServer;
let b: TestServer;
let vault: string;

beforeAll(async () => {
  const base = await tempDir();
  vault = path.join(base, 'vault');
  await fs.mkdir(vault);
  [a, b] = await Promise.all([
    startServer({ vault, data: path.join(base, 'data-a') }),
    startServer({ vault, data: path.join(base, 'data-b') }),
  ]);
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await cleanupTempDirs();
});

const q = (p: string) => encodeURIComponent(p);
const load = async (s: TestServer, p: string) => (await s.admin('GET', `/api/note?path=${q(p)}`)).body as { content: string; mtimeMs: number };
/** An editor save: carries the mtime of the text it was made from. */
async function editorSave(s: TestServer, p: string, content: string, baseMtimeMs: number) {
  const res = await s.admin('PUT', `/api/note?path=${q(p)}`, { content, baseMtimeMs });
  expect(res.status).toBe(200);
  return res.body.mtimeMs as number;
}
/** Every text the version store of `s` holds for `p`, newest first. */
async function keptTexts(s: TestServer, p: string): Promise<string[]> {
  const { versions } = (await s.admin('GET', `/api/versions?path=${q(p)}`)).body;
  return Promise.all(versions.map(async (v: { at: string }) => (await s.admin('GET', `/api/versions/one?path=${q(p)}&at=${v.at}`)).body.content));
}

describe('the merge window thins only this server\'s own run of saves', () => {
  it('a run of editor saves within 5 minutes keeps only the text before the run', async () => {
    await a.admin('PUT', '/api/note?path=Run.md', { content: 'start' });
    let m = (await load(a, 'Run.md')).mtimeMs;
    m = await editorSave(a, 'Run.md', 'start, typing', m);
    m = await editorSave(a, 'Run.md', 'start, typing more', m);
    await editorSave(a, 'Run.md', 'start, typing even more', m);
    expect(await keptTexts(a, 'Run.md')).toEqual(['start']);
  });

  it('text another process wrote to disk, then overwritten within the window, is still recoverable from versions', async () => {
    await a.admin('PUT', '/api/note?path=Shell.md', { content: 'mine 1' });
    let m = (await load(a, 'Shell.md')).mtimeMs;
    m = await editorSave(a, 'Shell.md', 'mine 2', m);
    // A shell, a script, a sync client: not this server.
    await fs.writeFile(path.join(vault, 'Shell.md'), 'THEIRS, written by another process');
    const disk = await load(a, 'Shell.md');
    // The editor reloads it (or Keep my version writes over it): inside the window either way.
    await editorSave(a, 'Shell.md', 'mine 3, after theirs', disk.mtimeMs);
    expect(await keptTexts(a, 'Shell.md')).toEqual(['THEIRS, written by another process', 'mine 1']);
  });

  it('text written outside the app, then two quick editor saves: one new version, the outside text', async () => {
    await fs.writeFile(path.join(vault, 'Outside.md'), 'written outside the app');
    let m = (await load(a, 'Outside.md')).mtimeMs;
    m = await editorSave(a, 'Outside.md', 'first save', m);
    await editorSave(a, 'Outside.md', 'second save', m);
    expect(await keptTexts(a, 'Outside.md')).toEqual(['written outside the app']);
  });

  it('text written outside the app, then two quick script writes: the outside text alone is kept', async () => {
    await fs.writeFile(path.join(vault, 'OutsideScript.md'), 'written outside the app');
    await a.admin('PUT', '/api/note?path=OutsideScript.md', { content: 'script 1' });
    await a.admin('PUT', '/api/note?path=OutsideScript.md', { content: 'script 2' });
    expect(await keptTexts(a, 'OutsideScript.md')).toEqual(['written outside the app']);
  });

  it('Keep my version (overwrite) keeps the text it writes over, even when this server wrote it for another window', async () => {
    await a.admin('PUT', '/api/note?path=Tabs.md', { content: 'base' });
    const loaded = await load(a, 'Tabs.md');
    // Window 1 saves first; window 2, still on `base`, gets 409 and chooses Keep my version.
    await editorSave(a, 'Tabs.md', 'window 1 text', loaded.mtimeMs);
    const stale = await a.admin('PUT', '/api/note?path=Tabs.md', { content: 'window 2 text', baseMtimeMs: loaded.mtimeMs });
    expect(stale.status).toBe(409);
    const kept = await a.admin('PUT', '/api/note?path=Tabs.md', { content: 'window 2 text', baseMtimeMs: stale.body.mtimeMs, overwrite: true });
    expect(kept.status).toBe(200);
    expect(await keptTexts(a, 'Tabs.md')).toEqual(['window 1 text', 'base']);
  });

  it("another server's save is foreign: each server keeps the other's text it replaces", async () => {
    await a.admin('PUT', '/api/note?path=Shared.md', { content: 'from A' });
    let m = (await load(a, 'Shared.md')).mtimeMs;
    m = await editorSave(a, 'Shared.md', 'from A, edited', m);
    m = await editorSave(b, 'Shared.md', 'from B', m);
    await editorSave(a, 'Shared.md', 'from A again', m);
    expect(await keptTexts(b, 'Shared.md')).toEqual(['from A, edited']);
    expect(await keptTexts(a, 'Shared.md')).toEqual(['from B', 'from A']);
  });

  it('script writes without a base mtime are this server\'s own saves too: the window thins them', async () => {
    await a.admin('PUT', '/api/note?path=Script.md', { content: 's1' });
    await a.admin('PUT', '/api/note?path=Script.md', { content: 's2' });
    await a.admin('PUT', '/api/note?path=Script.md', { content: 's3' });
    expect(await keptTexts(a, 'Script.md')).toEqual(['s1']);
  });
});

describe('versions keep bytes, not text', () => {
  it('a non-UTF-8 note replaced by a save comes back byte for byte from its version, and a restore writes those bytes', async () => {
    // UTF-16LE with a byte order mark, and a stray Latin-1 byte: neither is UTF-8.
    const original = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Hé, ', 'utf16le'), Buffer.from([0xe9, 0x00, 0x80])]);
    await fs.writeFile(path.join(vault, 'Bytes.md'), original);
    expect((await a.admin('PUT', '/api/note?path=Bytes.md', { content: 'replaced with UTF-8' })).status).toBe(200);
    const { versions } = (await a.admin('GET', '/api/versions?path=Bytes.md')).body;
    expect(versions).toHaveLength(1);
    expect(versions[0].size).toBe(original.length);
    const restore = await a.admin('POST', '/api/versions/restore', { path: 'Bytes.md', at: versions[0].at });
    expect(restore.status).toBe(200);
    expect((await fs.readFile(path.join(vault, 'Bytes.md'))).equals(original)).toBe(true);
    // The restore kept the UTF-8 text it replaced, as any write does.
    expect((await keptTexts(a, 'Bytes.md'))[0]).toBe('replaced with UTF-8');
  });
});
