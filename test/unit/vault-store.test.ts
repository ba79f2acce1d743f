// The vault model's store (spec D.2): git's history is read only when a note's
// date needs it (a CI build of a vault whose notes all carry a date never reads it), and
// then a note dated by its creation takes the commit that first added it.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { VaultStore } from '../../shared/model/vault-store.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { git } from '../helpers/git-remotes.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

async function gitVault(files: Record<string, string>): Promise<string> {
  const vault = await tempDir('vs-store-');
  await writeFiles(vault, files);
  git(vault, 'init', '-q', '--initial-branch=main');
  git(vault, 'add', '-A');
  git(vault, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'first', '--date=2001-02-03T04:05:06Z');
  return vault;
}

const dated = (d: string) => `---\npublish: true\ndate: ${d}\n---\nBody\n`;

describe('the vault store', () => {
  it('does not read git history in a folder that is no repository', async () => {
    const vault = await tempDir('vs-store-');
    await writeFiles(vault, { 'A.md': '---\npublish: true\n---\nUndated\n' });
    const store = new VaultStore({ vaultDir: vault, dataDir: null });
    await store.loadAll();
    expect(store.records.size).toBe(1);
    expect(store.gitCreated().size).toBe(0);
  });

  it('in a repository, reads git history even when every note carries a date: a note committed once has no later change', async () => {
    const vault = await gitVault({ 'A.md': dated('2020-01-01'), 'Folder/B.md': dated('2021-05-06') });
    const store = new VaultStore({ vaultDir: vault, dataDir: null });
    await store.loadAll();
    expect(store.records.size).toBe(2);
    expect(store.gitCreated().get('Folder/B.md')).toBeGreaterThan(0);
    expect(store.records.get('A.md' as VaultPath)!.changedMs).toBeNull();
  });

  it('reads it once a note is dated by its creation, and dates that note by its first commit', async () => {
    const vault = await gitVault({ 'A.md': dated('2020-01-01'), 'Undated.md': '---\npublish: true\n---\nNo date\n' });
    const store = new VaultStore({ vaultDir: vault, dataDir: path.join(vault, 'none') });
    await store.loadAll();
    expect(store.gitCreated().get('Undated.md')).toBeGreaterThan(0);
    const undated = store.records.get('Undated.md' as VaultPath)!;
    expect(undated.date).toEqual({ ms: Date.parse(git(vault, 'log', '-1', '--format=%aI').trim()), source: 'created' });
    expect(store.records.get('A.md' as VaultPath)!.date).toEqual({ ms: Date.UTC(2020, 0, 1), source: 'frontmatter' });
  });

  it('a saved note that loses its date is dated by git', async () => {
    const vault = await gitVault({ 'A.md': dated('2020-01-01') });
    const store = new VaultStore({ vaultDir: vault, dataDir: null });
    await store.loadAll();
    await writeFiles(vault, { 'A.md': '---\npublish: true\n---\nThe date is gone\n' });
    expect((await store.update(['A.md'])).map((c) => c.path)).toEqual(['A.md']);
    expect(store.records.get('A.md' as VaultPath)!.date.source).toBe('created');
    expect(store.gitCreated().get('A.md')).toBeGreaterThan(0);
  });
});
