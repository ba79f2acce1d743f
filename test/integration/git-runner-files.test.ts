// The git runner's helpers (shared/git-run.ts: the askpass script and the empty hooks
// folder) live in a temp folder of their process, removed as it exits. The build process
// runs git too (the creation dates of undated notes), and the server stops it with a
// SIGTERM: a process ended by a signal's default action runs no exit handler, and every
// stop of a server left a folder behind in the temp directory. A process killed outright
// (SIGKILL) runs no handler at all: the next process to make its folder removes it.
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PROJECT_DIR, startServer, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);

const runnerFolders = async (dir: string) => (await fs.readdir(dir)).filter((name) => name.startsWith('vs-git-'));

describe('the git runner', () => {
  it('leaves nothing in the temp directory once the server and its build process have stopped', async () => {
    const base = await tempDir('vs-runner-');
    const tmp = path.join(base, 'tmp');
    const vault = path.join(base, 'vault');
    await fs.mkdir(tmp);
    // Undated notes in a git vault: the build asks git when they were created.
    await writeFiles(vault, { 'Posts/Undated.md': '---\npublish: true\n---\nNo date here.\n', 'Other.md': 'Plain.\n' });
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: vault });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-qm', 'notes');
    const server = await startServer({ vault, data: path.join(base, 'data'), env: { TMPDIR: tmp } });
    try {
      await waitFor(() => /public site built/.test(server.output()), 30_000);
      // The build process has read the notes' creation dates from git: its folder is there.
      await waitFor(async () => (await runnerFolders(tmp)).length >= 1, 15_000);
    } finally {
      await server.stop();
    }
    expect(server.proc.exitCode).toBe(0);
    expect(await runnerFolders(tmp)).toEqual([]);
  }, 60_000);

  it('a process killed outright leaves its folder until the next process makes one; a running process keeps its own', async () => {
    const tmp = await tempDir('vs-runner-kill-');
    // A process that makes its helpers' folder, says so, and waits (or exits at once).
    const code = (stay: boolean) =>
      `import { askpassForTests } from ${JSON.stringify(path.join(PROJECT_DIR, 'shared/git-run.ts'))};` +
      `console.log('made ' + askpassForTests().file);` +
      (stay ? 'setInterval(() => {}, 1000);' : '');
    const launch = (stay: boolean) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code(stay)], { cwd: PROJECT_DIR, env: { ...process.env, TMPDIR: tmp }, stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      proc.stdout!.on('data', (d) => (out += d));
      const made = waitFor(() => /made (\S+)/.exec(out)?.[1], 20_000).then((file) => path.basename(path.dirname(file!)));
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      return { proc, made, exited };
    };
    const killed = launch(true);
    const killedFolder = await killed.made;
    const running = launch(true);
    const runningFolder = await running.made;
    try {
      killed.proc.kill('SIGKILL');
      await killed.exited;
      expect((await runnerFolders(tmp)).sort()).toEqual([killedFolder, runningFolder].sort());
      const next = launch(false);
      const nextFolder = await next.made;
      await next.exited;
      // The killed process's folder is gone, the running one's kept, the one that exited removed its own.
      expect(nextFolder).not.toBe(killedFolder);
      expect(await runnerFolders(tmp)).toEqual([runningFolder]);
    } finally {
      running.proc.kill('SIGKILL');
    }
  }, 60_000);
});
