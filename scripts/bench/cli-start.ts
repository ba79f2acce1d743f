// Benchmark: running compiled JavaScript takes the TypeScript compile out of every
// start. The same command, `vault-service start` on the same vault and data directory (the
// site's last generation remembered, as on any restart) and `vault-service --version`, run
// from source through tsx (the baseline) and from dist/, alternately, in the same run.
// Figures: medians of the time until the server's "listening" line, and until --version exits.
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PROJECT_DIR } from '../../shared/project-dir.ts';
import { fmt, generateVault, percentile } from './_vault.ts';

const NOTES = Number(process.env.BENCH_CLI_NOTES ?? 1000);
const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 5);

const FROM_SOURCE = ['--import', 'tsx', path.join(PROJECT_DIR, 'scripts/cli.ts')];
const COMPILED = [path.join(PROJECT_DIR, 'dist/bundle/cli.js')];

/** Milliseconds until the process prints `until` (then it is stopped), or exits. */
function timed(args: string[], env: NodeJS.ProcessEnv, until: RegExp | null): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const proc = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let at = 0;
    proc.stdout.on('data', (d) => {
      out += d;
      if (until && !at && until.test(out)) {
        at = performance.now() - started;
        proc.kill('SIGTERM');
      }
    });
    proc.stderr.resume();
    proc.on('error', reject);
    proc.on('exit', (code) => {
      if (until && !at) return reject(new Error(`no ${until} from ${args.join(' ')} (exit ${code}):\n${out}`));
      resolve(until ? at : performance.now() - started);
    });
  });
}

export async function run(): Promise<void> {
  const compile = await new Promise<number | null>((resolve) => spawn(process.execPath, ['--import', 'tsx', path.join(PROJECT_DIR, 'scripts/compile.ts')], { stdio: 'inherit' }).on('exit', resolve));
  if (compile !== 0) throw new Error('scripts/compile.ts failed');
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-cli-'));
  try {
    const vault = path.join(root, 'vault');
    await generateVault(vault, NOTES);
    const env = { VAULT: vault, SERVICE_DATA: path.join(root, 'data'), PORT: '0', ADMIN_PASSWORD: 'bench-password', SETTINGS_MIRROR_SECONDS: '3600' };
    // One start of each leaves a remembered generation for both (their code hashes differ).
    for (const args of [FROM_SOURCE, COMPILED]) await timed([...args, 'start'], env, /listening on/);
    const times = { source: { start: [] as number[], version: [] as number[] }, compiled: { start: [] as number[], version: [] as number[] } };
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, args] of [['source', FROM_SOURCE], ['compiled', COMPILED]] as const) {
        times[name].start.push(await timed([...args, 'start'], env, /listening on/));
        times[name].version.push(await timed([...args, '--version'], {}, null));
      }
    }
    const median = (v: number[]) => percentile(v, 50);
    console.log(`${NOTES}-note vault, ${ROUNDS} rounds, medians (from source through tsx = baseline):`);
    for (const what of ['start', 'version'] as const) {
      const s = median(times.source[what]);
      const c = median(times.compiled[what]);
      const label = what === 'start' ? 'start → listening' : '--version';
      console.log(`  ${label.padEnd(18)} from source ${fmt(s)}   compiled ${fmt(c)}   compiled/source ${(c / s).toFixed(2)}x`);
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
