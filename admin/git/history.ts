// Note history from git (spec 2.6, 4.2, Appendix B): one `git log --follow` per
// listing, one `git cat-file` per revision read. Nothing walks the repository beyond that.
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

/** Commits that touched `notePath`, newest first, renames followed. */
export async function noteHistory(vaultDir: string, notePath: string, limit: number): Promise<HistoryPage> {
  const args = [
    '--literal-pathspecs',
    'log',
    '--follow',
    '-M',
    `--max-count=${limit + 1}`,
    `--format=${RECORD}%H%x00%aI%x00%s`,
    '--numstat',
    '-z',
    '--no-ext-diff',
    '--no-color',
    '--end-of-options',
    'HEAD',
    '--',
    notePath,
  ];
  let stdout: string;
  try {
    ({ stdout } = await runGit(args, { cwd: vaultDir }));
  } catch (err) {
    // An unborn branch (no commit yet) has no history.
    if (err instanceof GitError && /does not have any commits|unknown revision|bad revision/i.test(err.line)) {
      return { revisions: [], truncated: false };
    }
    throw err;
  }
  const all = parseLog(stdout, notePath);
  return { revisions: all.slice(0, limit), truncated: all.length > limit };
}

/** The file's text at a commit, or null when that commit has no such file. */
export async function blobAt(vaultDir: string, sha: string, filePath: string): Promise<string | null> {
  const { code, stdout } = await runGit(['cat-file', 'blob', `${sha}:${filePath}`], { cwd: vaultDir, okCodes: [128] });
  return code === 0 ? stdout : null;
}
