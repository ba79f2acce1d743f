// A folder of the vault that is a git repository of its own (or a submodule's checkout)
// is recorded by the vault's repository as a gitlink only: its notes never reach the
// backup. The pass and the status say so plainly (CONTRACT §14), with real git.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { git } from '../helpers/git-remotes.ts';
import { startServer, type TestServer } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let server: TestServer;
const ID = ['-c', 'user.name=t', '-c', 'user.email=t@t'];

function repoWithNote(dir: string, note: string): void {
  git(dir, 'init', '-q', '--initial-branch=main');
  git(dir, ...ID, 'add', '-A');
  git(dir, ...ID, 'commit', '-q', '-m', `first ${note}`);
}

beforeAll(async () => {
  const base = await tempDir('vs-nested-repo-');
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  await writeFiles(vault, { 'Home.md': '# Home\n', '.gitignore': 'Ignored/\n' });
  repoWithNote(vault, 'vault');
  // One in a folder .gitignore leaves out: git refuses to be told to leave it out again.
  await writeFiles(path.join(vault, 'Ignored', 'Tool'), { 'Readme.md': 'tool\n' });
  git(path.join(vault, 'Ignored', 'Tool'), 'init', '-q');
  // A repository of its own, with another inside it (only the outer one is named).
  await writeFiles(path.join(vault, 'Nested'), { 'Secret plan.md': 'Only here.\n', 'Deeper/Note.md': 'deeper\n' });
  repoWithNote(path.join(vault, 'Nested', 'Deeper'), 'deeper');
  repoWithNote(path.join(vault, 'Nested'), 'nested');
  // A submodule: its checkout holds a `.git` file, not a folder.
  const source = path.join(base, 'source');
  await writeFiles(source, { 'Shared.md': 'shared\n' });
  repoWithNote(source, 'source');
  git(vault, ...ID, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', source, 'Team notes');
  git(vault, ...ID, 'commit', '-q', '-m', 'submodule');
  // A repository with no commit yet: `git add` refuses it, and once refused the whole pass.
  await writeFiles(path.join(vault, 'Empty repo'), { 'Draft.md': 'draft\n' });
  git(path.join(vault, 'Empty repo'), 'init', '-q');
  // In a hidden folder git backs up too: a plugin checked out from its own repository, no commit yet.
  await writeFiles(path.join(vault, '.obsidian'), { 'app.json': '{}\n', 'plugins/dev/main.js': 'plugin\n' });
  git(path.join(vault, '.obsidian', 'plugins', 'dev'), 'init', '-q');
  // What is not the vault's is not named: repositories in the trash, one with no commit yet.
  await writeFiles(path.join(vault, '.trash', 'Old'), { 'Gone.md': 'gone\n' });
  repoWithNote(path.join(vault, '.trash', 'Old'), 'old');
  await writeFiles(path.join(vault, '.trash', 'Unborn'), { 'Draft.md': 'deleted draft\n' });
  git(path.join(vault, '.trash', 'Unborn'), 'init', '-q');
  await fs.mkdir(data, { recursive: true });
  await writeJsonAtomic(path.join(data, 'settings.json'), { sync: { enabled: true } });
  server = await startServer({ vault, data });
  // The pass every server runs once at start (spec 8) is done and logged before a test asks for one.
  for (let i = 0; i < 300 && !/sync \(start\)/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
  expect(server.output()).toMatch(/sync \(start\)/);
});

afterAll(async () => {
  await server?.stop();
  await cleanupTempDirs();
});

describe('nested git repositories', () => {
  it('the status names each one, outermost only', async () => {
    const status = (await server.admin('GET', '/api/sync/status')).body;
    expect(status.repo).toBe(true);
    expect(status.nestedRepositories).toEqual(['.obsidian/plugins/dev', 'Empty repo', 'Ignored/Tool', 'Nested', 'Team notes']);
  });

  it('a pass backs up everything else, says so plainly, once, and leaves them out', async () => {
    await fs.writeFile(path.join(server.vault, 'Today.md'), 'A change to commit.\n');
    const before = server.output().split('Nested/ is its own git repository').length;
    const answer = (await server.admin('POST', '/api/sync/now')).body;
    expect(answer.outcome, JSON.stringify(answer)).toBe('committed');
    expect(answer.message).toContain('Nested/ is its own git repository: its notes are not in this backup.');
    expect(answer.message).toContain('Team notes/ is its own git repository: its notes are not in this backup.');
    expect(answer.message).toContain('.obsidian/plugins/dev/ is its own git repository: its notes are not in this backup.');
    expect(answer.message).not.toContain('.trash');
    expect(answer.message.split('Nested/').length).toBe(2);
    expect(server.output().split('Nested/ is its own git repository').length).toBe(before + 1);
    const last = (await server.admin('GET', '/api/sync/status')).body.last;
    expect(last.message).toContain('Nested/ is its own git repository');
    const tree = git(server.vault, 'ls-tree', '-r', '--name-only', 'HEAD').split('\n');
    expect(tree).toContain('Today.md');
    expect(tree).toContain('.obsidian/app.json');
    expect(tree.filter((p) => p.startsWith('Nested') || p.startsWith('Empty repo') || p.startsWith('.obsidian/plugins') || p.startsWith('.trash'))).toEqual([]);
    // Left out, they are not counted as changes waiting for a commit either.
    expect((await server.admin('GET', '/api/sync/status')).body.uncommitted).toBe(0);
  });

  it('a vault without one says nothing of it', async () => {
    await fs.rm(path.join(server.vault, 'Nested', '.git'), { recursive: true });
    await fs.rm(path.join(server.vault, 'Nested', 'Deeper', '.git'), { recursive: true });
    await fs.rm(path.join(server.vault, 'Team notes', '.git'));
    await fs.rm(path.join(server.vault, 'Empty repo', '.git'), { recursive: true });
    await fs.rm(path.join(server.vault, '.obsidian', 'plugins', 'dev', '.git'), { recursive: true });
    await fs.rm(path.join(server.vault, 'Ignored', 'Tool', '.git'), { recursive: true });
    expect((await server.admin('GET', '/api/sync/status')).body.nestedRepositories).toEqual([]);
  });
});
