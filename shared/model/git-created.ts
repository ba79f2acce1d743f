// spec D.2: in a git vault, a note's creation time is the time of the commit that
// first added it. One read-only `git log --diff-filter=A` per full build; git runs
// with a fixed argument list, no shell, and an environment without GIT_* overrides.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { log } from '../log.ts';

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  env.GIT_TERMINAL_PROMPT = '0';
  return env;
}

/** Vault path → epoch ms of the oldest commit adding it; empty when the vault is no git repository. */
export async function gitFirstAdded(vaultDir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  try {
    await fs.stat(path.join(vaultDir, '.git'));
  } catch {
    return out;
  }
  const args = ['-c', 'core.quotepath=off', 'log', '--diff-filter=A', '--no-renames', '--relative', '--name-only', '--format=@@%at', '--', '.'];
  const stdout = await new Promise<string>((resolve) => {
    execFile('git', args, { cwd: vaultDir, env: cleanEnv(), maxBuffer: 256 * 1024 * 1024, timeout: 60_000 }, (err, so) => {
      // An empty repository (no commits yet) fails: it simply knows nothing.
      if (err && !/does not have any commits|bad default revision/i.test(String(err.message))) {
        log.warnOnce('git-created', `could not read note creation times from git: ${String(err.message).split('\n')[0]}`);
      }
      resolve(err ? '' : so);
    });
  });
  let time = 0;
  // Newest commit first: the last time seen for a path is its first addition.
  for (const line of stdout.split('\n')) {
    if (line.startsWith('@@')) time = Number(line.slice(2)) * 1000;
    else if (line !== '' && time > 0) out.set(line, time);
  }
  return out;
}
