// A git the server started dies with the server, however the server dies (a reviewer's
// find): git runs detached (its own session, so a timeout kills all it started), and a
// push to a hung remote outlived a server killed with SIGKILL, with no time limit left and
// the token in its environment, while the next server ran a pass of its own beside it.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { bareRepo, git, processesWith, sshStandIn } from '../helpers/git-remotes.ts';
import { startServer, waitFor } from '../helpers/server.ts';
import { cleanupTempDirs, tempDir, writeFiles } from '../helpers/tmp.ts';

let hangFile = '';
afterAll(async () => {
  if (hangFile) await fs.rm(hangFile, { force: true });
  await cleanupTempDirs();
});

/** pids of git processes working in `dir`. */
function gitsIn(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'git' && readlinkSync(`/proc/${entry}/cwd`) === dir) pids.push(Number(entry));
    } catch {
      /* gone meanwhile */
    }
  }
  return pids;
}

it('a push held open by a hung remote ends when the server is killed with SIGKILL', async () => {
  const base = await tempDir('vs-git-dies-');
  const remote = await bareRepo(path.join(base, 'remote.git'));
  const ssh = await sshStandIn(path.join(base, 'ssh'));
  hangFile = ssh.hangFile;
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  await writeFiles(vault, { 'A.md': 'a\n' });
  git(vault, 'init', '-q', '-b', 'main');
  await fs.mkdir(data);
  await writeJsonAtomic(path.join(data, 'settings.json'), { sync: { enabled: true, remoteUrl: `git@localhost:${remote}`, branch: 'main', pullFirst: false, intervalMinutes: 0 } });
  const server = await startServer({ vault, data, env: { SERVICE_GIT_SSH_COMMAND: ssh.command } });
  try {
    await waitFor(async () => (await server.admin('GET', '/api/sync/status')).body.state !== 'running');
    await fs.writeFile(ssh.hangFile, '');
    await writeFiles(vault, { 'B.md': 'b\n' });
    void server.admin('POST', '/api/sync/now').catch(() => undefined);
    // The push is under way: git waits on the remote (the ssh stand-in holds it).
    await waitFor(() => processesWith(ssh.command).length > 0 && gitsIn(vault).length > 0, 15_000);
    await server.kill();
    await waitFor(() => gitsIn(vault).length === 0, 10_000);
  } finally {
    for (const pid of gitsIn(vault)) process.kill(pid, 'SIGKILL');
    await server.stop();
  }
});
