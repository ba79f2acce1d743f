// Standards: a crash at any instant loses nothing. A delete moves a note into .trash/ and
// records it in the bin's manifest; a restore moves it back. SIGKILLed between the two steps,
// a delete once left a note in the bin that no entry named (never listed, not restorable,
// and erased unlisted by Empty trash), and a restore an entry whose file was gone (listed,
// and 404 at every try). Now an entry is written before its delete's move, and an entry
// whose file is gone is dropped.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const ROUNDS = 12;
const NOTES = 600;

/** Every file in the bin, as a vault path, but the manifest and temp files. */
async function binFiles(vault: string): Promise<string[]> {
  const bin = path.join(vault, '.trash');
  const out: string[] = [];
  for (const entry of await fs.readdir(bin, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!entry.isFile() || entry.name.startsWith('.')) continue;
    out.push(path.relative(vault, path.join(entry.parentPath ?? (entry as any).path, entry.name)).split(path.sep).join('/'));
  }
  return out;
}

describe('the bin after SIGKILLs mid-delete and mid-restore', () => {
  it(`${ROUNDS} rounds: every file in the bin is named by an entry, and every entry listed can be restored`, async () => {
    const base = await tempDir('vs-trash-crash-');
    const vault = path.join(base, 'vault');
    const data = path.join(base, 'data');
    await fs.mkdir(path.join(vault, 'n'), { recursive: true });
    for (let i = 0; i < NOTES; i++) await fs.writeFile(path.join(vault, 'n', `${i}.md`), `note ${i}\n`);
    let next = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const server = await startServer({ vault, data });
      const cookie = await server.login();
      let stop = false;
      const call = (method: string, route: string, body?: unknown) =>
        fetch(server.url + route, { method, headers: { cookie, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const deleting = (async () => {
        while (!stop && next < NOTES) {
          try {
            await call('DELETE', `/api/note?path=${encodeURIComponent(`n/${next++}.md`)}`);
          } catch {
            return;
          }
        }
      })();
      const restoring = (async () => {
        while (!stop) {
          try {
            const { entries } = (await (await call('GET', '/api/trash')).json()) as { entries: { id: string }[] };
            if (entries.length > 0) await call('POST', '/api/trash/restore', { id: entries[entries.length - 1]!.id });
          } catch {
            return;
          }
        }
      })();
      await new Promise((r) => setTimeout(r, 40 + Math.random() * 300));
      await server.kill();
      stop = true;
      await Promise.all([deleting, restoring]);

      const manifest = JSON.parse(await fs.readFile(path.join(vault, '.trash', '.service-trash.json'), 'utf8').catch(() => '{"entries":[]}')) as { entries: { trashPath: string }[] };
      const named = new Set(manifest.entries.map((e) => e.trashPath));
      for (const file of await binFiles(vault)) expect(named.has(file), `${file} is in the bin, named by no entry (round ${round})`).toBe(true);
    }
    // Every entry a server lists has its file, and restores.
    const server = await startServer({ vault, data });
    try {
      const listed = (await server.admin('GET', '/api/trash')).body.entries as { id: string; path: string }[];
      for (const entry of listed) {
        const restored = await server.admin('POST', '/api/trash/restore', { id: entry.id });
        // What the server said, should it refuse (a 409 naming "pid 0" here was a lock file left
        // empty by a server killed as it made it: shared/lock-file.ts TORN_GRACE_MS).
        expect(restored.status, `${entry.path}: ${restored.text}`).toBe(200);
      }
      expect((await binFiles(vault)).length).toBe(0);
      // No note was lost: each is in the vault (under its name, or one beside it).
      const notes = (await fs.readdir(path.join(vault, 'n'))).filter((n) => n.endsWith('.md'));
      const texts = new Set(await Promise.all(notes.map((n) => fs.readFile(path.join(vault, 'n', n), 'utf8'))));
      for (let i = 0; i < NOTES; i++) expect(texts.has(`note ${i}\n`), `note ${i}`).toBe(true);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
