// A render's outputs become files (site/write/write-pages.ts): each lands in its folder, made
// when the write finds none, whether the folder is new, made by an earlier page, or
// removed since; a path leaving the folder is refused; any other failure is the build's to report.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pageWriter } from '../../site/write/write-pages.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const write = (dir: string, files: Record<string, string>, finish?: (file: string, body: string) => string | null) => {
  const sink = pageWriter(dir, finish);
  for (const [file, body] of Object.entries(files)) sink(file, body);
};

describe('writing a render\'s outputs', () => {
  it('makes the folders the files need, new, known or removed since', async () => {
    const dir = await tempDir('vs-pages-');
    write(dir, { 'a/b/One.html': 'one', 'a/b/Two.html': 'two', 'Top.html': 'top' });
    expect(await fs.readFile(path.join(dir, 'a/b/Two.html'), 'utf8')).toBe('two');
    await fs.rm(path.join(dir, 'a'), { recursive: true });
    write(dir, { 'a/b/Three.html': 'three', 'c/Four.html': 'four' });
    expect(await fs.readFile(path.join(dir, 'a/b/Three.html'), 'utf8')).toBe('three');
    expect(await fs.readFile(path.join(dir, 'c/Four.html'), 'utf8')).toBe('four');
    expect(await fs.readFile(path.join(dir, 'Top.html'), 'utf8')).toBe('top');
    await expect(fs.stat(path.join(dir, 'a/b/One.html'))).rejects.toThrow();
  });

  it('passes on a failure that is not a missing folder (a file where the folder should be)', async () => {
    const dir = await tempDir('vs-pages-');
    await fs.writeFile(path.join(dir, 'x'), 'a file');
    expect(() => write(dir, { 'x/Page.html': 'page' })).toThrow(/ENOTDIR|EEXIST/);
  });

  it('writes each page as `finish` makes it, and none it answers null for', async () => {
    const dir = await tempDir('vs-pages-');
    write(dir, { 'Kept.html': 'kept', 'Dropped.html': 'dropped' }, (file, body) => (file === 'Dropped.html' ? null : `<${body}>`));
    expect(await fs.readFile(path.join(dir, 'Kept.html'), 'utf8')).toBe('<kept>');
    await expect(fs.stat(path.join(dir, 'Dropped.html'))).rejects.toThrow();
  });

  it('refuses a path that would leave the folder, writing nothing', async () => {
    const root = await tempDir('vs-pages-');
    const dir = path.join(root, 'site');
    await fs.mkdir(dir);
    for (const bad of ['../Escaped.html', '/etc/Escaped.html', 'a/../../Escaped.html', '']) {
      expect(() => write(dir, { [bad]: 'x' }), bad).toThrow(/bad output path/);
    }
    expect(await fs.readdir(root)).toEqual(['site']);
    expect(await fs.readdir(dir)).toEqual([]);
  });
});
