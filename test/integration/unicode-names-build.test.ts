// A static snapshot of a vault from a Mac: a decomposed (NFD) file name is written at its
// composed (NFC) address, the one a reader types and a static host looks up, for notes,
// attachments and canvases alike; two files whose names differ only in that form claim
// one address, and the build says so (the older keeps it) instead of writing one over the other.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { buildSnapshot } from '../helpers/snapshot.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const nfd = (s: string) => s.normalize('NFD');
const nfc = (s: string) => s.normalize('NFC');
const post = (title: string, date: string, body: string) => `---\ntitle: ${title}\npublish: true\ndate: ${date}\n---\n${body}\n`;

it('writes decomposed names at their composed addresses, and names a clash of the two forms', async () => {
  const root = await tempDir('vs-unicode-names-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, {
    [nfd('Notes/Crème brûlée.md')]: post('Dessert', '2026-02-01', `Sweet. ![[${nfc('Thé vert.png')}]]`),
    [nfd('Notes/Thé vert.png')]: 'GREEN-TEA-BYTES',
    [nfd('Café.canvas')]: JSON.stringify({ nodes: [{ id: 'a', type: 'text', text: 'CANVAS-WORDS', x: 0, y: 0, width: 200, height: 100 }], edges: [] }),
    'Index.md': post('Index', '2026-02-03', `See [[${nfc('Crème brûlée')}]] and [[${nfc('Café.canvas')}|the board]].`),
    [nfc('Zoë.md')]: post('Composed', '2026-01-01', 'COMPOSED-ZOE'),
    [nfd('Zoë.md')]: post('Decomposed', '2026-01-02', 'DECOMPOSED-ZOE'),
  });
  const { res, out } = buildSnapshot(root, vault);
  expect(res.status, res.stderr).toBe(0);
  const files = ((await fs.readdir(out, { recursive: true })) as string[]).map((f) => f.normalize('NFC') === f ? f : `NFD:${f.normalize('NFC')}`);
  for (const f of [nfc('Notes/Crème-brûlée.html'), nfc('Notes/Thé vert.png'), nfc('Café.html'), nfc('Zoë.html')]) expect(files).toContain(f);
  expect(files.filter((f) => f.startsWith('NFD:'))).toEqual([]);
  const index = await fs.readFile(path.join(out, 'Index.html'), 'utf8');
  expect(index).toContain(`href="/${encodeURIComponent(nfc('Notes'))}/${encodeURIComponent(nfc('Crème-brûlée'))}"`);
  expect(index).toContain(`href="/${encodeURIComponent(nfc('Café'))}"`);
  expect(await fs.readFile(path.join(out, nfc('Notes/Crème-brûlée.html')), 'utf8')).toContain(`src="/Notes/${encodeURIComponent(nfc('Thé vert.png'))}"`);
  expect(await fs.readFile(path.join(out, nfc('Café.html')), 'utf8')).toContain('CANVAS-WORDS');
  // One address, two notes: the older (by date) keeps it, the other is named.
  expect(await fs.readFile(path.join(out, nfc('Zoë.html')), 'utf8')).toContain('COMPOSED-ZOE');
  expect(res.stderr).toContain(`${nfd('Zoë.md')}: is not published: ${nfc('Zoë.md')} also claims the address /${nfc('Zoë')}`);
}, 120_000);

// A git vault shared by a Mac and Linux holds one folder spelt both ways: the garden's explorer
// showed it twice, both entries leading to one address whose page listed one spelling's notes.
it('a folder spelt both ways (NFC and NFD) is one folder of the garden: one explorer entry, one page listing both', async () => {
  const root = await tempDir('vs-unicode-folders-');
  const vault = path.join(root, 'vault');
  await writeFiles(vault, {
    [`${nfc('편집 및 서식')}/${nfc('태그')}.md`]: post('Tags', '2026-02-01', 'TAG-NOTE'),
    [`${nfd('편집 및 서식')}/${nfc('콜아웃')}.md`]: post('Callouts', '2026-02-02', 'CALLOUT-NOTE'),
    'Index.md': post('Index', '2026-02-03', 'Home.'),
  });
  const { res, out } = buildSnapshot(root, vault, 'default');
  expect(res.status, res.stderr).toBe(0);
  const folder = await fs.readFile(path.join(out, `${nfc('편집-및-서식')}.html`), 'utf8');
  expect(folder).toContain('2 published notes');
  const index = await fs.readFile(path.join(out, 'Index.html'), 'utf8');
  const explorer = index.slice(index.indexOf('s-explorer'));
  expect(explorer.split(`>${nfc('편집 및 서식')}<`).length - 1 + explorer.split(`>${nfd('편집 및 서식')}<`).length - 1).toBe(1);
});
