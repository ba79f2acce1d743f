// Note history from git (spec 2.6, 4.2, Appendix B): one `git log --follow` per listing
// (and per move git missed), one `git cat-file` per revision read. Nothing walks the
// repository beyond that.
import { GitError, runGit } from '../../shared/git-run.ts';

export interface Revision {
  /** Full commit id. */
  sha: string;
  /** Author date, ISO 8601. */
  date: string;
  /** The commit's subject line. */
  message: string;
  /** 'Snapshot' for a Snapshot now commit (spec 4.1: history shows it as Snapshot). */
  label: string | null;
  added: number;
  removed: number;
  /** Where the note lived in that revision (older names before a rename). */
  path: string;
}

export interface HistoryPage {
  revisions: Revision[];
  truncated: boolean;
}

const RECORD = '\x1e';
/** A field that opens a record: RECORD and a full commit id (numstat entries end in a newline). */
const RECORD_START = /^\n*\x1e([0-9a-f]{40,64})$/;
const NUMSTAT = /^\n*(\d+|-)\t(\d+|-)\t(.*)$/s;
const ISO_DATE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/;

function labelOf(subject: string): string | null {
  if (subject.startsWith('service snapshot:')) return 'Snapshot';
  if (subject.startsWith('service sync:')) return 'Sync';
  return null;
}

/**
 * Parses `--format=%x1e%H%x00%aI%x00%s --numstat -z` output. Read by position, NUL by NUL:
 * a record starts with RECORD and the commit id, its date and subject are the next two
 * fields whatever they hold (a subject may carry RECORD itself: split on it, a commit
 * message once added rows with any id it liked and took the real one's numbers), then
 * its numstat entries up to the next record.
 */
export function parseLog(stdout: string, fallbackPath: string): Revision[] {
  const revisions: Revision[] = [];
  const fields = stdout.split('\0');
  let i = 0;
  while (i < fields.length) {
    const start = RECORD_START.exec(fields[i]!);
    if (!start) {
      i++;
      continue;
    }
    const sha = start[1]!;
    const date = fields[i + 1] ?? '';
    const subject = fields[i + 2] ?? '';
    i += 3;
    let added = 0;
    let removed = 0;
    let where: string | null = null;
    // "\n<added>\t<removed>\t<path>" or, for a rename, "\n<a>\t<r>\t", old, new.
    while (i < fields.length && !RECORD_START.test(fields[i]!)) {
      const m = NUMSTAT.exec(fields[i]!);
      i++;
      if (!m) continue;
      added += m[1] === '-' ? 0 : Number(m[1]);
      removed += m[2] === '-' ? 0 : Number(m[2]);
      if (m[3] === '') {
        where ??= fields[i + 1] ?? null;
        i += 2;
      } else where ??= m[3]!;
    }
    if (!ISO_DATE.test(date)) continue;
    revisions.push({ sha, date, message: subject, label: labelOf(subject), added, removed, path: where ?? fallbackPath });
  }
  return revisions;
}

/** How many moves git's rename detection missed one listing follows back. */
const MAX_MOVES = 20;

/**
 * Commits that touched `notePath`, newest first, renames followed: git's own (`--follow`),
 * and a move git took for a new file. A move rewrites the links in the note it moves (a
 * relative Markdown link); in a small note that is most of its text, git's similarity falls
 * under its threshold, and the note's older commits dropped out of its History.
 */
export async function noteHistory(vaultDir: string, notePath: string, limit: number): Promise<HistoryPage> {
  const all: Revision[] = [];
  let where = notePath;
  let from = 'HEAD';
  for (let moves = 0; moves <= MAX_MOVES; moves++) {
    const page = await logOf(vaultDir, where, from, limit + 1 - all.length);
    all.push(...page);
    const oldest = page.at(-1);
    if (!oldest || all.length > limit) break;
    const before = await movedFrom(vaultDir, oldest.sha, oldest.path);
    if (before === null) break;
    where = before;
    from = `${oldest.sha}^`;
  }
  return { revisions: all.slice(0, limit), truncated: all.length > limit };
}

async function logOf(vaultDir: string, notePath: string, from: string, count: number): Promise<Revision[]> {
  const args = [
    '--literal-pathspecs',
    'log',
    '--follow',
    '-M',
    `--max-count=${count}`,
    `--format=${RECORD}%H%x00%aI%x00%s`,
    '--numstat',
    '-z',
    '--no-ext-diff',
    '--no-color',
    '--end-of-options',
    from,
    '--',
    notePath,
  ];
  let stdout: string;
  try {
    ({ stdout } = await runGit(args, { cwd: vaultDir }));
  } catch (err) {
    // An unborn branch (no commit yet) has no history.
    if (err instanceof GitError && /does not have any commits|unknown revision|bad revision/i.test(err.line)) return [];
    throw err;
  }
  return parseLog(stdout, notePath);
}

const nameOf = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/**
 * Where a note lived before commit `sha` added it at `notePath`, when that commit moved it:
 * the one file of the same name the commit deleted (a move keeps the name). Anything less
 * certain (none, or several of that name) is no move: History never shows another note's past.
 */
async function movedFrom(vaultDir: string, sha: string, notePath: string): Promise<string | null> {
  // A root commit has no parent to diff against, and a merge's sides are followed by the log itself.
  const { stdout } = await runGit(['diff-tree', '-r', '-z', '--no-commit-id', '--no-renames', '--name-status', '--no-ext-diff', '--end-of-options', sha], { cwd: vaultDir });
  const fields = stdout.split('\0');
  let added = false;
  const deleted: string[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [status, file] = [fields[i]!, fields[i + 1]!];
    if (status === 'A' && file === notePath) added = true;
    else if (status === 'D' && nameOf(file) === nameOf(notePath)) deleted.push(file);
  }
  return added && deleted.length === 1 ? deleted[0]! : null;
}

/** The file's text at a commit, or null when that commit has no such file. */
export async function blobAt(vaultDir: string, sha: string, filePath: string): Promise<string | null> {
  const { code, stdout } = await runGit(['cat-file', 'blob', `${sha}:${filePath}`], { cwd: vaultDir, okCodes: [128] });
  return code === 0 ? stdout : null;
}
