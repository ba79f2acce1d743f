// A rename the server was killed in the middle of is finished by its next start (a
// reviewer's find): the note moves first and the links in other notes are rewritten one at
// a time; killed after 9 of 400, the other 391 went on linking to a note that was gone.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  await cleanupTempDirs();
});

const LINKERS = 600;
const linker = (i: number) => `Linkers/Note ${i}.md`;

it('a server killed while rewriting a rename’s links rewrites the rest when it starts again', async () => {
  const base = await tempDir('vs-rename-resume-');
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  const files: Record<string, string> = { 'Target.md': '# Target\n' };
  for (let i = 0; i < LINKERS; i++) files[linker(i)] = `Note ${i} links to [[Target]].\n`;
  await writeFiles(vault, files);
  let server = await startServer({ vault, data, env: { NOTE_VERSIONS: 'off' } });
  servers.push(server);
  const renaming = server.admin('POST', '/api/note/rename', { path: 'Target.md', to: 'Renamed.md' }).catch(() => null);
  const read = (i: number) => fs.readFile(path.join(vault, linker(i)), 'utf8');
  const rewrittenCount = async () => (await Promise.all([...Array(LINKERS).keys()].map(read))).filter((t) => t.includes('[[Renamed]]')).length;
  // Killed once the move has happened and the rewrites are under way (the first note in
  // walk order is among the first rewritten; one read a look, so the kill lands early).
  await waitFor(async () => (await fs.stat(path.join(vault, 'Renamed.md')).then(() => true, () => false)) && (await read(0)).includes('[[Renamed]]'), 20_000, 5);
  await server.kill();
  await renaming;
  const before = await rewrittenCount();
  expect(before, 'the kill should land in the middle of the rewrites').toBeLessThan(LINKERS);

  server = await startServer({ vault, data, env: { NOTE_VERSIONS: 'off' } });
  servers.push(server);
  await waitFor(async () => (await rewrittenCount()) === LINKERS, 30_000, 100);
  expect(await read(0)).toBe('Note 0 links to [[Renamed]].\n');
  expect((await fs.readdir(path.join(data, 'renames-pending')).catch(() => [])).length).toBe(0);
}, 90_000);
