// A new server bundle moves in beside the old one (scripts/server-bundle.ts): a server
// still running from the old bundle can load the chunks it has not loaded yet, and the
// old chunks go once they are a day old.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asciiOnly, moveIn } from '../../scripts/server-bundle.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

describe('moving a new server bundle in', () => {
  it('replaces the entry points, keeps the old chunks a running process may still load, and removes day-old ones', async () => {
    const root = await tempDir('vs-bundle-swap-');
    const dir = path.join(root, 'bundle');
    const work = path.join(root, 'bundle.new-1');
    await writeFiles(dir, { 'cli.js': 'old cli', 'chunk-OLD.js': 'old chunk', 'chunk-STALE.js': 'stale chunk', 'chunk-SAME.js': 'same' });
    const twoDaysAgo = new Date(Date.now() - 48 * 3_600_000);
    await fs.utimes(path.join(dir, 'chunk-STALE.js'), twoDaysAgo, twoDaysAgo);
    await fs.utimes(path.join(dir, 'chunk-SAME.js'), twoDaysAgo, twoDaysAgo);
    await writeFiles(work, { 'cli.js': 'new cli', 'chunk-NEW.js': 'new chunk', 'chunk-SAME.js': 'same' });

    await moveIn(work, dir, new Set(['cli.js']));

    expect((await fs.readdir(dir)).sort()).toEqual(['chunk-NEW.js', 'chunk-OLD.js', 'chunk-SAME.js', 'cli.js']);
    expect(await fs.readFile(path.join(dir, 'cli.js'), 'utf8')).toBe('new cli');
    expect(await fs.readFile(path.join(dir, 'chunk-OLD.js'), 'utf8')).toBe('old chunk');
    await expect(fs.stat(work)).rejects.toThrow();
  });
});

describe('the bundle in ASCII', () => {
  it('escapes every non-ASCII character as \\uXXXX, which a regular expression, a string or a comment reads as the same character', async () => {
    const code = 'const a = /[îï…]+$/u, b = /^[😀]$/u, c = /…/;// é\n';
    const ascii = asciiOnly(code);
    expect(/[^\x00-\x7f]/.test(ascii)).toBe(false);
    const [a, b, c] = new Function(`${ascii}; return [a, b, c];`)() as RegExp[];
    expect(a!.test('xï…')).toBe(true);
    expect(b!.test('😀')).toBe(true);
    expect(c!.test('…')).toBe(true);
    expect(asciiOnly('plain')).toBe('plain');
  });

  it('refuses a non-ASCII character escaped in the source, which an escape would turn into a backslash and text', () => {
    expect(() => asciiOnly('const d = /\\…/;')).toThrow(/cannot rewrite/);
  });
});
