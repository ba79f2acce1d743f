// spec 2.3 and 3.5: the managed .gitignore rules, checked with git's own check-ignore.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureGitignore, ignoreRuleFor } from '../../admin/git/gitignore.ts';
import { git } from '../helpers/git-remotes.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

function ignored(vault: string, rel: string): boolean {
  try {
    git(vault, 'check-ignore', '-q', '--no-index', '--', rel);
    return true;
  } catch {
    return false;
  }
}

describe('managed .gitignore rules', () => {
  it('refuses a pipe in the place of .gitignore at once, and leaves it there', async () => {
    const vault = await tempDir();
    execFileSync('mkfifo', [path.join(vault, '.gitignore')]);
    await expect(ensureGitignore(vault, null)).rejects.toMatchObject({ code: 'not_a_file' });
    expect((await fs.lstat(path.join(vault, '.gitignore'))).isFIFO()).toBe(true);
  });


  it('creates .gitignore with .trash/, Obsidian workspace files and the in-vault data directory', async () => {
    const vault = await tempDir();
    git(vault, 'init', '-q');
    expect(await ensureGitignore(vault, 'data')).toEqual(['.trash/', '.obsidian/workspace*.json', '/data/']);
    await writeFiles(vault, { 'data/settings.json': '{}', '.trash/x.md': 'x', '.obsidian/workspace-mobile.json': '{}', 'Folder/data/note.md': 'n' });
    expect(ignored(vault, 'data/settings.json')).toBe(true);
    expect(ignored(vault, '.trash/x.md')).toBe(true);
    expect(ignored(vault, '.obsidian/workspace-mobile.json')).toBe(true);
    // Anchored: a folder of the same name deeper in the vault is an ordinary folder.
    expect(ignored(vault, 'Folder/data/note.md')).toBe(false);
  });

  it('extends an existing file, keeping its rules and adding only what is missing, once', async () => {
    const vault = await tempDir();
    git(vault, 'init', '-q');
    await fs.writeFile(path.join(vault, '.gitignore'), '*.bak\n.trash\n');
    expect(await ensureGitignore(vault, null)).toEqual(['.obsidian/workspace*.json']);
    expect(await ensureGitignore(vault, null)).toEqual([]);
    expect(await fs.readFile(path.join(vault, '.gitignore'), 'utf8')).toBe('*.bak\n.trash\n.obsidian/workspace*.json\n');
  });

  it('escapes a data directory name that holds pattern characters', async () => {
    const vault = await tempDir();
    git(vault, 'init', '-q');
    const name = 'my data [1]/#private*';
    expect(ignoreRuleFor(name)).toBe('/my data \\[1\\]/\\#private\\*/');
    await ensureGitignore(vault, name);
    await writeFiles(vault, { [`${name}/settings.json`]: '{}', 'my data 1/#privateX/a.md': 'a' });
    expect(ignored(vault, `${name}/settings.json`)).toBe(true);
    expect(ignored(vault, 'my data 1/#privateX/a.md')).toBe(false);
  });
});
