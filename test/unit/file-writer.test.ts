// A full build's pages written by a thread of their own (site/write/file-writer.ts): every
// file handed over is written, its folder made; a file written twice ends with the later
// text even when the queue is full and this thread writes files itself; a failure is the
// build's, told when the writer is closed.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FileWriter } from '../../site/write/file-writer.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const read = (file: string) => fs.readFile(file, 'utf8');
/** Latin-1 text on even pages, Arabic and a character beyond the BMP on odd ones (V8 holds the two kinds apart). */
const text = (i: number) => `page ${i} ${'é'.repeat(i)}${i % 2 ? ' مرحبا 🌿' : ''}`;

describe('the build\'s file writer', () => {
  it('writes every file handed over, making the folders they need', async () => {
    const dir = await tempDir('vs-writer-');
    const writer = new FileWriter();
    for (let i = 0; i < 300; i++) writer.write(path.join(dir, `F${i % 7}`, `n${i}.html`), text(i));
    await writer.close();
    for (const i of [0, 1, 150, 299]) expect(await read(path.join(dir, `F${i % 7}`, `n${i}.html`))).toBe(text(i));
    expect((await fs.readdir(dir, { recursive: true })).filter((n) => n.endsWith('.html'))).toHaveLength(300);
  });

  it('shares the work when the writer is behind, and a file written again ends with its later text', async () => {
    const dir = await tempDir('vs-writer-');
    // A queue of one: most files are written here, each rewrite of one handed over waits for it.
    const writer = new FileWriter(1);
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 50; i++) writer.write(path.join(dir, `n${i}.html`), `round ${round} of ${i}`);
    }
    await writer.close();
    for (let i = 0; i < 50; i++) expect(await read(path.join(dir, `n${i}.html`))).toBe(`round 2 of ${i}`);
  });

  it('fails the build when a file cannot be written (a file where its folder should be), when closed', async () => {
    const dir = await tempDir('vs-writer-');
    await fs.writeFile(path.join(dir, 'x'), 'a file');
    const writer = new FileWriter();
    writer.write(path.join(dir, 'ok.html'), 'ok');
    writer.write(path.join(dir, 'x', 'Page.html'), 'page');
    await expect(writer.close()).rejects.toThrow(/could not be written: .*(ENOTDIR|EEXIST)/);
    expect(await read(path.join(dir, 'ok.html'))).toBe('ok');
    expect(await read(path.join(dir, 'x'))).toBe('a file');
  });
});
