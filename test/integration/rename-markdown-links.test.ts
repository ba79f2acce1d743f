// A rename or move rewrites every form of link to the note, as Obsidian does: wikilinks, and
// Markdown links written with the note's path, its name, or a path relative to the linking
// note (kept relative, `.md` kept, anchors and titles as written). A reviewer moved a note
// and found `[Md link](Posts/Linker.md)` left pointing at nothing.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fileLinkMapper, folderLinkMapper } from '../../admin/vault/rename.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { rewriteNoteLinks } from '../../shared/markdown-links.ts';
import { startServer, waitFor, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

const servers: TestServer[] = [];
afterAll(async () => {
  for (const s of servers) await s.stop();
  await cleanupTempDirs();
});

describe('the Markdown links a rename rewrites', () => {
  const map = fileLinkMapper('Posts/Linker note.md' as VaultPath, 'Topics/Linker note.md' as VaultPath, new Set());
  const rewrite = (text: string, at = 'Elsewhere/Note.md') => rewriteNoteLinks(text, at, map);

  it('a path from the vault root, a name, a path relative to the note: each written as it was, to the new place', () => {
    expect(rewrite('[a](Posts/Linker%20note.md) [b](Linker%20note.md#Part "the title") [c](../Posts/Linker%20note.md#^blk)')).toBe(
      '[a](Topics/Linker%20note.md) [b](Linker%20note.md#Part "the title") [c](../Topics/Linker%20note.md#^blk)',
    );
    expect(rewrite('[d](./Linker%20note.md) and [e](Posts/Linker%20note)', 'Posts/Beside.md')).toBe('[d](../Topics/Linker%20note.md) and [e](Topics/Linker%20note)');
  });

  it('leaves other links alone: other notes, web addresses, anchors, paths out of the vault, images of other files', () => {
    const text = '[x](Posts/Other.md) [w](https://example.org/Posts/Linker%20note.md) [h](#Linker) [o](../../Posts/Linker%20note.md) ![i](pic.png) `[c](Posts/Other.md)`';
    expect(rewrite(text)).toBe(text);
  });

  it('a note or folder a Mac named with combining accents (NFD) is the one the links typed in NFC name', () => {
    const file = fileLinkMapper('Caf\u0065\u0301.md' as VaultPath, 'Bistro.md' as VaultPath, new Set());
    expect(rewriteNoteLinks('[[Caf\u00e9]] [[caf\u00e9|the place]] [md](Caf%C3%A9.md) ![[Caf\u00e9#x]]', 'Linker.md', file)).toBe('[[Bistro]] [[Bistro|the place]] [md](Bistro.md) ![[Bistro#x]]');
    const folder = folderLinkMapper('Re\u0301sume\u0301s' as VaultPath, 'CVs' as VaultPath);
    expect(rewriteNoteLinks('[[R\u00e9sum\u00e9s/2024]] [[Re\u0301sume\u0301s/2023]]', 'Linker.md', folder)).toBe('[[CVs/2024]] [[CVs/2023]]');
  });
});

describe('a rename through the admin', () => {
  it('of a note a Mac named with a combining accent rewrites the links typed to it, as Backlinks lists them', async () => {
    const base = await tempDir('vs-rename-md-');
    const vault = path.join(base, 'vault');
    const linker = 'See [[Caf\u00e9]], [[Caf\u00e9|the place]] and [md](Caf%C3%A9.md).\n';
    await writeFiles(vault, { 'Cafe\u0301.md': 'The cafe.\n', 'Linker.md': linker });
    const server = await startServer({ vault, data: path.join(base, 'data') });
    servers.push(server);
    const backlinks = await server.admin<{ backlinks: { path: string }[] }>('GET', `/api/backlinks?path=${encodeURIComponent('Cafe\u0301.md')}`);
    expect(backlinks.body.backlinks.map((b) => b.path)).toEqual(['Linker.md']);
    const res = await server.admin('POST', '/api/note/rename', { path: 'Cafe\u0301.md', to: 'Bistro.md' });
    expect(res.body).toEqual({ path: 'Bistro.md', rewritten: ['Linker.md'] });
    expect(await fs.readFile(path.join(vault, 'Linker.md'), 'utf8')).toBe('See [[Bistro]], [[Bistro|the place]] and [md](Bistro.md).\n');
  });

  it('rewrites Markdown links in other notes, on disk', async () => {
    const base = await tempDir('vs-rename-md-');
    const vault = path.join(base, 'vault');
    await writeFiles(vault, {
      'Posts/Linker.md': '# Linker\n',
      'Pathlinks.md': 'See [the linker](Posts/Linker.md) and [[Posts/Linker]].\n',
      'Posts/Near.md': 'Near: [it](./Linker.md#Top).\n',
    });
    const server = await startServer({ vault, data: path.join(base, 'data') });
    servers.push(server);
    const res = await server.admin('POST', '/api/note/rename', { path: 'Posts/Linker.md', to: 'Topics/Linker.md' });
    expect(res.status).toBe(200);
    expect([...res.body.rewritten].sort()).toEqual(['Pathlinks.md', 'Posts/Near.md']);
    expect(await fs.readFile(path.join(vault, 'Pathlinks.md'), 'utf8')).toBe('See [the linker](Topics/Linker.md) and [[Topics/Linker]].\n');
    expect(await fs.readFile(path.join(vault, 'Posts/Near.md'), 'utf8')).toBe('Near: [it](../Topics/Linker.md#Top).\n');
  });

  it('a note moved, or in a moved folder, keeps what its relative links name: each is written again from its new folder', async () => {
    const base = await tempDir('vs-rename-md-');
    const vault = path.join(base, 'vault');
    await writeFiles(vault, {
      'Other.md': 'Other.\n',
      'Inbox/Mover.md': '[up](../Other.md) ![pic](./pic.png) [self](Mover.md#Top) [abs](Other.md) [out](../../x.md)\n',
      'Inbox/pic.png': 'png',
      'Box/Inner.md': '[sib](./Sib.md) [up](../Other.md#Part)\n',
      'Box/Sib.md': 'Sib.\n',
    });
    const server = await startServer({ vault, data: path.join(base, 'data') });
    servers.push(server);
    expect((await server.admin('POST', '/api/note/rename', { path: 'Inbox/Mover.md', to: 'Archive/Deep/Mover.md' })).status).toBe(200);
    expect(await fs.readFile(path.join(vault, 'Archive/Deep/Mover.md'), 'utf8')).toBe(
      '[up](../../Other.md) ![pic](../../Inbox/pic.png) [self](Mover.md#Top) [abs](Other.md) [out](../../x.md)\n',
    );
    expect((await server.admin('POST', '/api/note/rename', { path: 'Box', to: 'Shelf/Box' })).status).toBe(200);
    expect(await fs.readFile(path.join(vault, 'Shelf/Box/Inner.md'), 'utf8')).toBe('[sib](./Sib.md) [up](../../Other.md#Part)\n');
  });

  it("the reviewer's Linker.md: code is left as written, a destination in <> and a reference definition follow the note; Site health and Backlinks agree", async () => {
    const base = await tempDir('vs-rename-md-');
    const vault = path.join(base, 'vault');
    const post = (body: string) => `---\npublish: true\n---\n${body}`;
    const linker = (to: string, angle: string, def: string) =>
      post(`Inline code: \`[[Target]]\`\n\n\`\`\`\n[[Target]]\n\`\`\`\n\n[angle](<${angle}>)\n\nSee [ref][ref] and [[${to}]].\n\n[ref]: ${def}\n`);
    await writeFiles(vault, {
      'Target.md': post('The target.\n'),
      'Linker.md': linker('Target', 'Target.md', 'Target.md'),
      // Links to the new name: its warning goes once a build after the rename has landed.
      'Canary.md': post('[[Target Two]]\n'),
    });
    const server = await startServer({ vault, data: path.join(base, 'data') });
    servers.push(server);
    type Warnings = { warnings: { path: string; kind: string; message: string }[] };
    const warnings = async () => (await server.admin<Warnings>('GET', '/api/site/warnings')).body.warnings;
    await waitFor(async () => (await warnings()).some((w) => w.path === 'Canary.md'), 30_000);
    const res = await server.admin('POST', '/api/note/rename', { path: 'Target.md', to: 'Sub Dir/Target Two.md' });
    expect(res.status).toBe(200);
    expect(await fs.readFile(path.join(vault, 'Linker.md'), 'utf8')).toBe(linker('Target Two', 'Target Two.md', 'Target%20Two.md'));
    await waitFor(async () => !(await warnings()).some((w) => w.path === 'Canary.md'), 30_000);
    expect((await warnings()).filter((w) => w.path === 'Linker.md')).toEqual([]);
    // The admin's Backlinks: the lines that link, not the code's.
    const { backlinks } = (await server.admin('GET', '/api/backlinks?path=Sub%20Dir/Target%20Two.md')).body;
    expect(backlinks.map((b: { path: string; line: number }) => `${b.path}:${b.line}`)).toEqual(['Canary.md:4', 'Linker.md:10', 'Linker.md:12', 'Linker.md:14']);
  });
});

