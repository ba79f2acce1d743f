// A batch's outputs become files (site/build/bundles.ts): each lands in its folder, made
// when the write finds none, whether the folder is new, made by an earlier batch, or
// removed since; any other failure is the build's to report.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeBundles } from '../../site/build/bundles.ts';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const batch = (files: Record<string, string>) => Object.entries(files).map(([file, body]) => `<!--service:file:${encodeURIComponent(file)}-->\n${body}`).join('');

describe('writing a batch of outputs', () => {
  it('makes the folders the files need, new, known or removed since', async () => {
    const dir = await tempDir('vs-bundles-');
    expect(writeBundles(dir, [batch({ 'a/b/One.html': 'one', 'a/b/Two.html': 'two', 'Top.html': 'top' })])).toEqual(['a/b/One.html', 'a/b/Two.html', 'Top.html']);
    await fs.rm(path.join(dir, 'a'), { recursive: true });
    writeBundles(dir, [batch({ 'a/b/Three.html': 'three', 'c/Four.html': 'four' })]);
    expect(await fs.readFile(path.join(dir, 'a/b/Three.html'), 'utf8')).toBe('three');
    expect(await fs.readFile(path.join(dir, 'c/Four.html'), 'utf8')).toBe('four');
    expect(await fs.readFile(path.join(dir, 'Top.html'), 'utf8')).toBe('top');
    await expect(fs.stat(path.join(dir, 'a/b/One.html'))).rejects.toThrow();
  });

  it('passes on a failure that is not a missing folder (a file where the folder should be)', async () => {
    const dir = await tempDir('vs-bundles-');
    await fs.writeFile(path.join(dir, 'x'), 'a file');
    expect(() => writeBundles(dir, [batch({ 'x/Page.html': 'page' })])).toThrow(/ENOTDIR|EEXIST/);
  });
});
