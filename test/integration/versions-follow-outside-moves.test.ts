// spec 9: a note's versions move with it. A move made outside the app (Obsidian, `mv`, a git
// pull) reaches the server as a delete and a new file; the versions follow when the pairing is
// certain (one note gone, one come with its very bytes, in its folder or under its name), and
// stay where they are when it is not. Each server on a shared vault carries its own.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { forFile, serverForFile, startServer, waitFor, type TestServer } from '../helpers/server.ts';

const server = serverForFile();
// A second server on the same vault, with its own data directory.
const other = forFile(() => startServer({ vault: server.vault }));
const q = encodeURIComponent;
const file = (p: string) => path.join(server.vault, p);

async function put(s: TestServer, p: string, content: string): Promise<void> {
  expect((await s.admin('PUT', `/api/note?path=${q(p)}`, { content })).status).toBeLessThan(300);
}

/** Two saves through the API: the first text is kept as a version. */
async function savedTwice(p: string, first: string, second: string, s: TestServer = server): Promise<void> {
  await put(s, p, first);
  await put(s, p, second);
  expect(await texts(p, s)).toEqual([first]);
}

async function texts(p: string, s: TestServer = server): Promise<string[]> {
  const { versions } = (await s.admin('GET', `/api/versions?path=${q(p)}`)).body as { versions: { at: string }[] };
  const out: string[] = [];
  for (const v of versions) out.push((await s.admin('GET', `/api/versions/one?path=${q(p)}&at=${v.at}`)).body.content);
  return out;
}

async function move(from: string, to: string): Promise<void> {
  await fs.mkdir(path.dirname(file(to)), { recursive: true });
  await fs.rename(file(from), file(to));
}

const followed = (p: string, s: TestServer = server) => waitFor(async () => (await texts(p, s)).length > 0);

describe('versions follow a note moved outside the app (spec 9)', () => {
  it('a note renamed in its folder takes its versions along', async () => {
    await savedTwice('Renamed/Draft.md', 'draft one\n', 'draft two\n');
    await move('Renamed/Draft.md', 'Renamed/Essay.md');
    await followed('Renamed/Essay.md');
    expect(await texts('Renamed/Essay.md')).toEqual(['draft one\n']);
    expect(await texts('Renamed/Draft.md')).toEqual([]);
  });

  it('a note moved to another folder under its name, and a whole folder moved, take theirs', async () => {
    await savedTwice('Inbox/Idea.md', 'idea one\n', 'idea two\n');
    await savedTwice('Trip/Day one.md', 'day one a\n', 'day one b\n');
    await savedTwice('Trip/Day two.md', 'day two a\n', 'day two b\n');
    await move('Inbox/Idea.md', 'Projects/Idea.md');
    await move('Trip', 'Travel/Trip 2026');
    await followed('Projects/Idea.md');
    await followed('Travel/Trip 2026/Day one.md');
    await followed('Travel/Trip 2026/Day two.md');
    expect(await texts('Projects/Idea.md')).toEqual(['idea one\n']);
    expect(await texts('Travel/Trip 2026/Day one.md')).toEqual(['day one a\n']);
    expect(await texts('Travel/Trip 2026/Day two.md')).toEqual(['day two a\n']);
  });

  it('a move as a pull makes it (the old file removed, a new file written with its bytes) takes them too', async () => {
    await savedTwice('Pulled/Before.md', 'pulled one\n', 'pulled two\n');
    const bytes = await fs.readFile(file('Pulled/Before.md'));
    await fs.rm(file('Pulled/Before.md'));
    await fs.writeFile(file('Pulled/After.md'), bytes);
    await followed('Pulled/After.md');
    expect(await texts('Pulled/After.md')).toEqual(['pulled one\n']);
  });

  it('nothing follows when the pairing is not certain', async () => {
    // Two identical notes vanish, one appears: it could be either.
    await savedTwice('Twins/A.md', 'twin one\n', 'twin two\n');
    await savedTwice('Twins/B.md', 'twin one\n', 'twin two\n');
    // One note vanishes, two copies of it appear.
    await savedTwice('Copied/Source.md', 'copied one\n', 'copied two\n');
    // One note vanishes, one with its bytes appears elsewhere under another name.
    await savedTwice('Far/Here.md', 'far one\n', 'far two\n');
    // A note put in the bin through the app, its text written again beside it at once: a new note.
    await savedTwice('Binned/Note.md', 'binned one\n', 'binned two\n');
    // The sign the server has seen all of it: a certain move made last.
    await savedTwice('Control/Old.md', 'control one\n', 'control two\n');

    await move('Twins/A.md', 'Twins/C.md');
    await fs.rm(file('Twins/B.md'));
    await fs.copyFile(file('Copied/Source.md'), file('Copied/Copy 1.md'));
    await move('Copied/Source.md', 'Copied/Copy 2.md');
    await move('Far/Here.md', 'Elsewhere/There.md');
    expect((await server.admin('DELETE', `/api/note?path=${q('Binned/Note.md')}`)).status).toBe(200);
    await fs.writeFile(file('Binned/Again.md'), 'binned two\n');
    await move('Control/Old.md', 'Control/New.md');
    await followed('Control/New.md');

    for (const p of ['Twins/C.md', 'Copied/Copy 1.md', 'Copied/Copy 2.md', 'Elsewhere/There.md', 'Binned/Again.md']) expect(await texts(p)).toEqual([]);
    // Left where they were, as before: nothing is lost.
    expect(await texts('Twins/A.md')).toEqual(['twin one\n']);
    expect(await texts('Twins/B.md')).toEqual(['twin one\n']);
    expect(await texts('Copied/Source.md')).toEqual(['copied one\n']);
    expect(await texts('Far/Here.md')).toEqual(['far one\n']);
  });

  it('a note saved in place by unlink and write keeps its versions where they are', async () => {
    await savedTwice('Unlinked/Note.md', 'in place one\n', 'in place two\n');
    await savedTwice('Unlinked/Control.md', 'unlinked control one\n', 'unlinked control two\n');
    await fs.rm(file('Unlinked/Note.md'));
    await fs.writeFile(file('Unlinked/Note.md'), 'in place two\n');
    await move('Unlinked/Control.md', 'Unlinked/Control moved.md');
    await followed('Unlinked/Control moved.md');
    expect(await texts('Unlinked/Note.md')).toEqual(['in place one\n']);
  });
});

describe('two servers on one vault: each carries its own versions', () => {
  it('a move outside, and a rename through the other server, take each server’s versions along', async () => {
    await savedTwice('Shared/Mine.md', 'first server one\n', 'first server two\n');
    await put(other, 'Shared/Mine.md', 'second server a\n');
    await put(other, 'Shared/Mine.md', 'second server b\n');
    const first = await texts('Shared/Mine.md');
    const second = await texts('Shared/Mine.md', other);
    // Its own history: the first server's text it replaced (its own next save fell in the merge window).
    expect(second).toEqual(['first server two\n']);
    await move('Shared/Mine.md', 'Shared/Ours.md');
    await followed('Shared/Ours.md');
    await followed('Shared/Ours.md', other);
    expect(await texts('Shared/Ours.md')).toEqual(first);
    expect(await texts('Shared/Ours.md', other)).toEqual(second);

    // Renamed through the first server: the second sees a delete and a new file, as from Obsidian.
    expect((await server.admin('POST', '/api/note/rename', { path: 'Shared/Ours.md', to: 'Shared/Theirs.md' })).status).toBe(200);
    await followed('Shared/Theirs.md', other);
    expect(await texts('Shared/Theirs.md', other)).toEqual(second);
    expect(await texts('Shared/Theirs.md')).toEqual(first);

    // And moved outside once more: the renaming server knows what the note holds at its new path too.
    await move('Shared/Theirs.md', 'Shared/Final.md');
    await followed('Shared/Final.md');
    await followed('Shared/Final.md', other);
    expect(await texts('Shared/Final.md')).toEqual(first);
    expect(await texts('Shared/Final.md', other)).toEqual(second);
  });
});
