// A rename onto another disk mounted inside the vault (bad input gets a clear 4xx
// and changes nothing): the kernel refuses to move across mounts (EXDEV), which used to
// answer 500 and leave the folders made for the move behind. A bind mount of a folder onto
// itself is such a mount; it needs root and a kernel that allows it (test/helpers/mounts.ts).
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountWorks } from '../helpers/mounts.ts';
import { serverForFile } from '../helpers/server.ts';

const server = serverForFile();
const exists = (p: string) => fs.stat(path.join(server.vault, p)).then(() => true, () => false);
const rename = (from: string, to: string) => server.admin('POST', '/api/note/rename', { path: from, to });

describe.runIf(mountWorks())('a rename onto another disk inside the vault', () => {
  let mounted = '';

  beforeAll(async () => {
    const put = (p: string, content: string) => server.admin('PUT', `/api/note?path=${encodeURIComponent(p)}`, { content });
    expect((await put('Notes/A.md', 'the text of A\n')).status).toBe(200);
    expect((await put('Mounted/Inside.md', 'inside\n')).status).toBe(200);
    mounted = path.join(server.vault, 'Mounted');
    execFileSync('mount', ['--bind', mounted, mounted]);
  });

  afterAll(() => {
    // Lazily: the server may still be reading a file there after the last rename (its watcher's
    // echo), and a plain umount of a busy mount fails the file. Detached now, freed when that read ends.
    if (mounted) execFileSync('umount', ['--lazy', mounted]);
  });

  it('answers 409 other_disk for a note, and the note stays where it was', async () => {
    const res = await rename('Notes/A.md', 'Mounted/A.md');
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'other_disk' });
    expect(res.body.error).not.toContain(server.vault);
    expect(await fs.readFile(path.join(server.vault, 'Notes/A.md'), 'utf8')).toBe('the text of A\n');
    expect(await exists('Mounted/A.md')).toBe(false);
  });

  it('leaves no folder behind that it made for the move', async () => {
    const res = await rename('Notes/A.md', 'Mounted/New/Deeper/A.md');
    expect({ status: res.status, code: res.body.code }).toEqual({ status: 409, code: 'other_disk' });
    expect(await exists('Mounted/New')).toBe(false);
    expect(await exists('Notes/A.md')).toBe(true);
  });

  it('refuses a folder the same way, and a move within that disk still works', async () => {
    const folder = await rename('Notes', 'Mounted/Notes');
    expect({ status: folder.status, code: folder.body.code }).toEqual({ status: 409, code: 'other_disk' });
    expect(await exists('Notes/A.md')).toBe(true);
    const within = await rename('Mounted/Inside.md', 'Mounted/Moved.md');
    expect(within.status).toBe(200);
    expect(await fs.readFile(path.join(server.vault, 'Mounted/Moved.md'), 'utf8')).toBe('inside\n');
  });
});
