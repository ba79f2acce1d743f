// Sync and history benchmarks, each against a baseline measured in the same run:
// 1. a whole sync pass (lock, checks, stage, commit, push over an ssh-style remote) on a
//    20,000-note vault with one changed note, against `git add -A && git commit && git push`
//    typed by hand on a copy of the same repository (target: within 1.5x);
// 2. the history of one note in a 5,000-commit repository, against a bare
//    `git log --follow -- path`.
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { noteHistory } from '../../admin/git/history.ts';
import { SyncService } from '../../admin/sync/service.ts';
import { defaultSettings, type Settings } from '../../shared/settings.ts';
import { log } from '../../shared/log.ts';
import { bareRepo, git, sshStandIn } from '../../test/helpers/git-remotes.ts';
import { fmt, generateVault, notePath, percentile } from './_vault.ts';

const NOTES = 20_000;
const ROUNDS = 9;
const COMMITS = 5_000;

const median = (values: number[]) => percentile(values, 50);

function gitWith(env: Record<string, string>, cwd: string, ...args: string[]): void {
  const clean: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) clean[k] = v;
  execFileSync('git', args, { cwd, env: { ...clean, ...env }, stdio: 'ignore' });
}

async function benchSyncPass(base: string): Promise<void> {
  const ssh = await sshStandIn(path.join(base, 'ssh'));
  const ours = path.join(base, 'ours');
  const byHand = path.join(base, 'by-hand');
  console.log(`generating a ${NOTES}-note vault…`);
  await generateVault(ours, NOTES);
  git(ours, 'init', '-q', '-b', 'main');
  git(ours, 'add', '-A');
  git(ours, '-c', 'gc.auto=0', 'commit', '-q', '-m', 'initial');
  // Pack the initial objects now, so no background auto-gc runs during the copy or the rounds.
  git(ours, 'gc', '-q');
  execFileSync('cp', ['-a', ours, byHand]);
  const remoteOurs = await bareRepo(path.join(base, 'ours.git'));
  const remoteByHand = await bareRepo(path.join(base, 'by-hand.git'));
  const sshEnv = { GIT_SSH_COMMAND: ssh.command };
  gitWith(sshEnv, byHand, 'remote', 'add', 'origin', `git@localhost:${remoteByHand}`);
  gitWith(sshEnv, byHand, 'push', '-q', 'origin', 'HEAD:refs/heads/main');

  const dataDir = path.join(base, 'data');
  await fs.mkdir(dataDir);
  const settings: Settings = defaultSettings();
  settings.sync = { ...settings.sync, enabled: true, remoteUrl: `git@localhost:${remoteOurs}`, branch: 'main' };
  const service = new SyncService({
    config: { vaultDir: ours, dataDir, gitSshCommand: ssh.command },
    readSettings: async () => settings,
    dataDirRel: async () => null,
  });
  log.setQuiet(true);
  const first = await service.sync('manual'); // first push of the whole history, untimed
  if (first.outcome !== 'pushed') throw new Error(`first pass: ${first.outcome}: ${first.message}`);

  const passMs: number[] = [];
  const handMs: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const note = notePath(round * 13);
    await fs.appendFile(path.join(ours, note), `\nround ${round}\n`);
    let t = performance.now();
    const answer = await service.sync('manual');
    passMs.push(performance.now() - t);
    if (answer.outcome !== 'pushed') throw new Error(`pass ${round}: ${answer.outcome}: ${answer.message}`);

    await fs.appendFile(path.join(byHand, note), `\nround ${round}\n`);
    t = performance.now();
    gitWith(sshEnv, byHand, 'add', '-A');
    gitWith(sshEnv, byHand, 'commit', '-q', '-m', `round ${round}`);
    gitWith(sshEnv, byHand, 'push', '-q', 'origin', 'HEAD:refs/heads/main');
    handMs.push(performance.now() - t);
  }
  log.setQuiet(false);
  const ratio = median(passMs) / median(handMs);
  console.log(`sync pass, ${NOTES} notes, one changed note (median of ${ROUNDS}):`);
  console.log(`  by hand (git add -A && git commit && git push): ${fmt(median(handMs))}`);
  console.log(`  service sync pass:                              ${fmt(median(passMs))}`);
  console.log(`  ratio: ${ratio.toFixed(2)}x the hand-typed commands (target ≤ 1.5x) ${ratio <= 1.5 ? 'OK' : 'OVER TARGET'}`);
}

/** A repository of COMMITS commits made with fast-import; the target note is renamed half way. */
async function historyRepo(dir: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  const lines: string[] = [];
  const blob = (text: string) => `data ${Buffer.byteLength(text)}\n${text}`;
  const when = Date.UTC(2020, 0, 1) / 1000;
  for (let i = 1; i <= COMMITS; i++) {
    lines.push('commit refs/heads/main', `committer Bench <bench@localhost> ${when + i * 600} +0000`, blob(`commit ${i}`));
    lines.push(`M 100644 inline Folder ${i % 100}/Note ${i % 1000}.md`, blob(`note ${i % 1000}, edit ${i}\n`));
    if (i === COMMITS / 2) lines.push('R "History/Old name.md" "History/Target.md"');
    else if (i % 50 === 0 || i === 1) {
      const file = i < COMMITS / 2 ? 'History/Old name.md' : 'History/Target.md';
      lines.push(`M 100644 inline ${file}`, blob(`target edit ${i}\n${'line\n'.repeat(i % 7)}`));
    }
    lines.push('');
  }
  execFileSync('git', ['fast-import', '--quiet'], { cwd: dir, input: lines.join('\n') });
  return 'History/Target.md';
}

async function benchHistory(base: string): Promise<void> {
  const repo = path.join(base, 'history');
  const target = await historyRepo(repo);
  const runs = 15;
  const oursMs: number[] = [];
  const bareMs: number[] = [];
  let rows = 0;
  for (let i = 0; i < runs; i++) {
    let t = performance.now();
    rows = (await noteHistory(repo, target, 100)).revisions.length;
    oursMs.push(performance.now() - t);
    t = performance.now();
    git(repo, 'log', '--follow', '--format=%H', '--', target);
    bareMs.push(performance.now() - t);
  }
  console.log(`history of one note in a ${COMMITS}-commit repository (${rows} rows, renames followed; median of ${runs}):`);
  console.log(`  git log --follow -- path:  ${fmt(median(bareMs))}`);
  console.log(`  GET /api/history's query:  ${fmt(median(oursMs))}  (${(median(oursMs) / median(bareMs)).toFixed(2)}x)`);
}

export async function run(): Promise<void> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-sync-'));
  try {
    await benchSyncPass(base);
    await benchHistory(base);
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}
