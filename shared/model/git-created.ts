// spec D.2: in a git vault, a note's creation time is the time of the commit that
// first added it. One read-only `git log --diff-filter=A` per full build; git runs
// through the one git runner (fixed argument list, no shell, scrubbed environment).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { log } from '../log.ts';

/** Vault path → epoch ms of the oldest commit adding it; empty when the vault is no git repository. */
export async function gitFirstAdded(vaultDir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  try {
    await fs.stat(path.join(vaultDir, '.git'));
  } catch {
    return out;
  }
  // Loaded here: most builds read no history (every note dated, or no repository), and the runner brings child_process.
  const { GitError, runGit } = await import('../git-run.ts');
  const args = ['log', '--diff-filter=A', '--no-renames', '--relative', '--name-only', '--format=@@%at', '--', '.'];
  let stdout = '';
  try {
    stdout = (await runGit(args, { cwd: vaultDir, timeoutMs: 60_000, maxBytes: 256 * 1024 * 1024 })).stdout;
  } catch (err) {
    // An empty repository (no commits yet) fails: it simply knows nothing.
    const line = err instanceof GitError ? err.line : String(err);
    if (!/does not have any commits|bad default revision/i.test(line)) {
      log.warnOnce('git-created', `could not read note creation times from git: ${line}`);
    }
  }
  let time = 0;
  // Newest commit first: the last time seen for a path is its first addition.
  for (const line of stdout.split('\n')) {
    if (line.startsWith('@@')) time = Number(line.slice(2)) * 1000;
    else if (line !== '' && time > 0) out.set(line, time);
  }
  return out;
}
