// A vault checked out as a shallow clone (CI's default: actions/checkout fetches one commit, GitLab
// twenty) holds no commit that added its older notes: the oldest commit it holds seems to add every
// file, and each note without a date showed that commit's day. The build says so, and how to fix it.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../helpers/cli.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const git = (cwd: string, args: string[], date?: string) =>
  execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@example.test', ...args], { cwd, stdio: 'pipe', env: { ...process.env, ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) } });

describe('vault-service build of a git vault', () => {
  it('warns when the clone is shallow, and not when it holds the whole history', async () => {
    const base = await tempDir('vs-shallow-');
    const origin = path.join(base, 'origin');
    await writeFiles(origin, { 'Old.md': '---\npublish: true\n---\nWritten in 2020.\n' });
    git(origin, ['init', '-q', '--initial-branch=main']);
    git(origin, ['add', '-A']);
    git(origin, ['commit', '-q', '-m', 'old'], '2020-03-01T12:00:00Z');
    await writeFiles(origin, { 'New.md': '---\npublish: true\n---\nWritten in 2024.\n' });
    git(origin, ['add', '-A']);
    git(origin, ['commit', '-q', '-m', 'new'], '2024-03-01T12:00:00Z');
    const build = async (name: string, depth: string[]) => {
      const vault = path.join(base, name);
      git(base, ['clone', '-q', ...depth, `file://${origin}`, vault]);
      const run = await cli(['build', '--vault', vault, '--data', path.join(base, `data-${name}`), '--out', path.join(base, `site-${name}`), '--site-url', 'https://example.org']);
      expect(run.code, run.stderr).toBe(0);
      return run.stdout + run.stderr;
    };
    const whole = await build('whole', []);
    expect(whole).toContain('built ');
    expect(whole).not.toContain('shallow clone');
    const shallow = await build('shallow', ['--depth', '1']);
    expect(shallow).toContain("the vault's git repository is a shallow clone");
    expect(shallow).toContain('fetch-depth: 0');
  });
});
