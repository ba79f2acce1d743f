// spec D.2: in a git vault, a note's creation time is the time of the commit that
// first added it, and its last change the time of the last commit touching it. One
// read-only `git log` per full build; git runs through the one git runner (fixed
// argument list, no shell, scrubbed environment).
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { log } from '../log.ts';

export interface GitFileTimes {
  /** Vault path → epoch ms of the oldest commit adding it. */
  added: Map<string, number>;
  /** Vault path → epoch ms of the newest commit adding or changing it. */
  changed: Map<string, number>;
}

/** What git's history says of each file; empty when the vault is no git repository. */
export async function gitFileTimes(vaultDir: string): Promise<GitFileTimes> {
  const out: GitFileTimes = { added: new Map(), changed: new Map() };
  try {
    await fs.stat(path.join(vaultDir, '.git'));
  } catch {
    return out;
  }
  // Loaded here: most builds read no history (no repository), and the runner brings child_process.
  const { GitError, runGit } = await import('../git-run.ts');
  // -z: paths as they are (without it git quotes every non-ASCII name, "Caf\303\251.md").
  const args = ['log', '--no-renames', '--relative', '--name-status', '-z', '--format=@@%at', '--', '.'];
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
  readLog(stdout, out);
  if (out.added.size > 0) await warnIfShallow(vaultDir, runGit);
  return out;
}

/**
 * A shallow clone (CI's default: actions/checkout fetches one commit) holds no commit that added
 * an older note: its oldest commit seems to add every file, so each note without a date would
 * show that commit's day, silently.
 */
async function warnIfShallow(vaultDir: string, runGit: (typeof import('../git-run.ts'))['runGit']): Promise<void> {
  const answer = await runGit(['rev-parse', '--is-shallow-repository'], { cwd: vaultDir, timeoutMs: 10_000 }).catch(() => null);
  if (answer?.stdout.trim() !== 'true') return;
  log.warnOnce(
    'git-shallow',
    "the vault's git repository is a shallow clone: a note without a date is dated by the oldest commit the clone holds, not by the one that added it. Clone the whole history (actions/checkout: fetch-depth: 0; GitLab CI: GIT_DEPTH: 0).",
  );
}

/** `@@<time>` NUL, then `<status>` NUL `<path>` NUL pairs, newest commit first. */
export function readLog(stdout: string, out: GitFileTimes): void {
  const parts = stdout.split('\0');
  let time = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!.replace(/^\n/, '');
    if (part.startsWith('@@')) {
      time = Number(part.slice(2)) * 1000;
      continue;
    }
    const file = parts[++i];
    if (!file || time <= 0) continue;
    // Newest first: the first time seen is the last change; the last addition seen is the first.
    if (part !== 'D' && !out.changed.has(file)) out.changed.set(file, time);
    if (part === 'A') out.added.set(file, time);
  }
}
