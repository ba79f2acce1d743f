// spec 9: a note's versions move with it, and a move made while the server was down (Obsidian
// open, the server stopped) is no exception. No watcher saw it: at the next start a note with
// versions is gone, and its versions follow the one note new since the server last ran, in its
// folder or under its name, holding exactly what the server last wrote there. Never a note the
// server had met before it stopped, never when another note gone there could be the one.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
const q = encodeURIComponent;

async function texts(s: TestServer, p: string): Promise<string[]> {
  const { versions } = (await s.admin('GET', `/api/versions?path=${q(p)}`)).body as { versions: { at: string }[] };
  const out: string[] = [];
  for (const v of versions) out.push((await s.admin('GET', `/api/versions/one?path=${q(p)}&at=${v.at}`)).body.content);
  return out;
}

/** Two saves through the API: the first text is kept as a version. */
async function savedTwice(s: TestServer, p: string, first: string, second: string): Promise<void> {
  for (const content of [first, second]) expect((await s.admin('PUT', `/api/note?path=${q(p)}`, { content })).status).toBeLessThan(300);
  expect(await texts(s, p)).toEqual([first]);
}

describe('versions follow a note moved while the server was down (spec 9)', () => {
  it('renamed in its folder, moved under its name, a folder moved: each takes its versions at the next start; an uncertain pairing takes none', async () => {
    const before = await startServer();
    const file = (p: string) => path.join(before.vault, p);
    const move = async (from: string, to: string) => {
      await fs.mkdir(path.dirname(file(to)), { recursive: true });
      await fs.rename(file(from), file(to));
    };
    // A copy the server meets before it stops is no note new since: it never takes versions.
    await fs.mkdir(file('Old'), { recursive: true });
    await fs.writeFile(file('Old/Kept copy.md'), 'kept two\n');
    await savedTwice(before, 'Renamed/Draft.md', 'draft one\n', 'draft two\n');
    await savedTwice(before, 'Inbox/Idea.md', 'idea one\n', 'idea two\n');
    await savedTwice(before, 'Trip/Day one.md', 'day one a\n', 'day one b\n');
    await savedTwice(before, 'Twins/A.md', 'twin one\n', 'twin two\n');
    await savedTwice(before, 'Twins/B.md', 'twin one\n', 'twin two\n');
    await savedTwice(before, 'Copied/Source.md', 'copied one\n', 'copied two\n');
    await savedTwice(before, 'Edited/Note.md', 'edited one\n', 'edited two\n');
    await savedTwice(before, 'Old/Kept.md', 'kept one\n', 'kept two\n');
    const created = path.join(before.data, 'created.json');
    await waitFor(async () => 'Old/Kept copy.md' in JSON.parse(await fs.readFile(created, 'utf8').catch(() => '{}')));
    await before.stop();

    await move('Renamed/Draft.md', 'Renamed/Essay.md');
    await move('Inbox/Idea.md', 'Projects/Idea.md');
    await move('Trip', 'Travel/Trip 2026');
    // Two identical notes gone, one come: it could be either.
    await fs.rm(file('Twins/A.md'));
    await move('Twins/B.md', 'Twins/C.md');
    // One note gone, two copies of it come.
    await fs.copyFile(file('Copied/Source.md'), file('Copied/Copy one.md'));
    await move('Copied/Source.md', 'Copied/Copy two.md');
    // Moved and edited: its bytes are not the ones the server wrote.
    await move('Edited/Note.md', 'Edited/Renamed.md');
    await fs.appendFile(file('Edited/Renamed.md'), 'and an edit\n');
    await fs.rm(file('Old/Kept.md'));

    const after = await startServer({ vault: before.vault, data: before.data });
    try {
      // The start's pass says when it is done.
      await waitFor(() => /versions followed 3 of 8 notes with versions gone while the server was down/.test(after.output()));
      expect(await texts(after, 'Renamed/Essay.md')).toEqual(['draft one\n']);
      expect(await texts(after, 'Projects/Idea.md')).toEqual(['idea one\n']);
      expect(await texts(after, 'Travel/Trip 2026/Day one.md')).toEqual(['day one a\n']);
      for (const gone of ['Renamed/Draft.md', 'Inbox/Idea.md', 'Trip/Day one.md']) expect(await texts(after, gone), gone).toEqual([]);
      // The uncertain ones stay where they were kept.
      for (const unpaired of ['Twins/C.md', 'Copied/Copy one.md', 'Copied/Copy two.md', 'Edited/Renamed.md', 'Old/Kept copy.md']) {
        expect(await texts(after, unpaired), unpaired).toEqual([]);
      }
      expect(await texts(after, 'Twins/B.md')).toEqual(['twin one\n']);
      expect(await texts(after, 'Copied/Source.md')).toEqual(['copied one\n']);
      expect(await texts(after, 'Edited/Note.md')).toEqual(['edited one\n']);
      expect(await texts(after, 'Old/Kept.md')).toEqual(['kept one\n']);
      expect(after.output()).toMatch(/the versions of Renamed\/Draft\.md followed it to Renamed\/Essay\.md, where it was moved while the server was down/);
    } finally {
      await after.stop();
    }
  }, 60_000);
});
