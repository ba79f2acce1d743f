// An image is made without ever replacing a file, even one another program
// wrote after the name was chosen; the bytes still go through a temp file first.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileOnce } from '../../admin/ui/server/images.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('createFileOnce', () => {
  it('makes a new file (and its folder) with exactly the bytes, leaving no temp file', async () => {
    const dir = await tempDir('vs-image-once-');
    const target = path.join(dir, 'Attachments', 'a.png');
    expect(await createFileOnce(target, Buffer.from('new bytes'))).toBe(true);
    expect(await fs.readFile(target, 'utf8')).toBe('new bytes');
    expect(await fs.readdir(path.dirname(target))).toEqual(['a.png']);
  });

  it('answers false on a taken name and leaves that file as it was', async () => {
    const dir = await tempDir('vs-image-once-');
    const target = path.join(dir, 'a.png');
    await fs.writeFile(target, 'written by another program');
    expect(await createFileOnce(target, Buffer.from('mine'))).toBe(false);
    expect(await fs.readFile(target, 'utf8')).toBe('written by another program');
    expect(await fs.readdir(dir)).toEqual(['a.png']);
  });
});
