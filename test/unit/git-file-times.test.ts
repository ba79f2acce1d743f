// spec D.2: what git's history says of each file, names of any script included
// (git quotes non-ASCII names unless asked not to: 1% of real notes have one).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { gitFileTimes } from '../../shared/model/git-created.ts';
import { git } from '../fixtures/blog/helpers.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

it('first addition and last change of every file, non-ASCII and spaced names as they are', async () => {
  const vault = await tempDir('vs-git-times-');
  git(vault, ['init', '-q', '-b', 'main']);
  await writeFiles(vault, { 'Café ☕.md': 'a', 'Notes/x y.md': 'b', 'Gone.md': 'c' });
  git(vault, ['add', '-A']);
  git(vault, ['commit', '-q', '-m', 'one'], 1_600_000_000);
  await fs.appendFile(path.join(vault, 'Café ☕.md'), 'more');
  git(vault, ['rm', '-q', 'Gone.md']);
  git(vault, ['commit', '-q', '-am', 'two'], 1_700_000_000);
  const times = await gitFileTimes(vault);
  expect(Object.fromEntries(times.added)).toEqual({ 'Café ☕.md': 1_600_000_000_000, 'Notes/x y.md': 1_600_000_000_000, 'Gone.md': 1_600_000_000_000 });
  expect(times.changed.get('Café ☕.md')).toBe(1_700_000_000_000);
  expect(times.changed.get('Notes/x y.md')).toBe(1_600_000_000_000);
});
