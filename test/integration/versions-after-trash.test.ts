// A trashed note keeps its own versions when another note takes its path (a reviewer's
// find): versions are kept by path, and renaming the newer note took every version at the
// path along, the trashed note's too; restored, the older note came back with none.
import { expect, it } from 'vitest';
import { serverForFile } from '../helpers/server.ts';

const server = serverForFile();
const q = encodeURIComponent;

async function keptTexts(p: string): Promise<string[]> {
  const { versions } = (await server.admin('GET', `/api/versions?path=${q(p)}`)).body;
  return Promise.all(versions.map(async (v: { at: string }) => (await server.admin('GET', `/api/versions/one?path=${q(p)}&at=${v.at}`)).body.content));
}
const put = async (p: string, content: string) => expect((await server.admin('PUT', `/api/note?path=${q(p)}`, { content })).status).toBeLessThan(300);

it('renaming the note that took a trashed note’s path moves only its own versions; the trashed one gets its own back', async () => {
  await put('Untitled.md', 'old one');
  await put('Untitled.md', 'old two');
  expect(await keptTexts('Untitled.md')).toEqual(['old one']);
  const trashed = await server.admin('DELETE', '/api/note?path=Untitled.md');
  expect(trashed.status).toBe(200);

  await put('Untitled.md', 'new one');
  await put('Untitled.md', 'new two');
  expect((await server.admin('POST', '/api/note/rename', { path: 'Untitled.md', to: 'Shopping list.md' })).status).toBe(200);
  expect(await keptTexts('Shopping list.md')).toEqual(['new one']);

  const restored = await server.admin('POST', '/api/trash/restore', { id: trashed.body.id });
  expect(restored.body.path).toBe('Untitled.md');
  expect(await keptTexts('Untitled.md')).toEqual(['old one']);
});
