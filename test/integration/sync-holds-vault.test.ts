// spec 1, 3.4 step 2: a pull's fast-forward changes the vault's files, so it runs with
// every save, rename and delete of every server held off (RepoTarget.holdingVault: the
// whole vault's path lock and the vault write lock). Without it a save answered 200 could
// be overwritten by the merge, or a save based on the text before the pull taken over it.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { syncSteps } from '../../admin/sync/pass.ts';
import { bareRepo, git, sshStandIn } from '../helpers/git-remotes.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

it("the fast-forward of a pull runs inside the vault's hold, and only it changes the notes", async () => {
  const base = await tempDir('vs-sync-hold-');
  const remote = await bareRepo(path.join(base, 'remote.git'));
  const ssh = await sshStandIn(path.join(base, 'ssh'));
  const vault = path.join(base, 'vault');
  await writeFiles(vault, { 'Note.md': 'one\n' });
  git(vault, 'init', '-q', '--initial-branch=main');
  git(vault, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'empty');
  git(vault, 'add', '-A');
  git(vault, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'one');
  git(vault, 'push', '-q', remote, 'main');
  // Another device changes the note and pushes.
  const other = path.join(base, 'other');
  git(base, 'clone', '-q', remote, other);
  await fs.writeFile(path.join(other, 'Note.md'), 'two\n');
  git(other, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-am', 'two');
  git(other, 'push', '-q', 'origin', 'main');

  const seen: string[] = [];
  const result = await syncSteps(
    {
      vaultDir: vault,
      dataDirRel: null,
      holdingVault: async (step) => {
        seen.push(await fs.readFile(path.join(vault, 'Note.md'), 'utf8'));
        const done = await step();
        seen.push(await fs.readFile(path.join(vault, 'Note.md'), 'utf8'));
        return done;
      },
    },
    { remoteUrl: `git@localhost:${remote}`, branch: 'main', pullFirst: true, auth: { token: null, username: null, sshCommand: ssh.command } },
  );
  expect(result.ok, result.message).toBe(true);
  // The answer says what the pull brought in (it said "Nothing to commit or push." alone).
  expect(result.message).toMatch(/^Pulled 1 commit from localhost\. /);
  expect(seen).toEqual(['one\n', 'two\n']);
  expect(await fs.readFile(path.join(vault, 'Note.md'), 'utf8')).toBe('two\n');
}, 60_000);
