// Benchmark: a versioned save (the single write path) on a 10,000-note
// vault, against a bare temp-file + rename + fsync of the same bytes in the same run.
// Each save goes to a different note, so every one of them really keeps a version.
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createAdminContext } from '../../admin/context.ts';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import { loadConfig } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { parseVaultPath } from '../../shared/vault-path.ts';
import { fmt, generateVault, notePath, noteText, percentile } from './_vault.ts';

const NOTES = 10_000;
const SAVES = 600;

async function serverRss(vault: string, data: string): Promise<number> {
  const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    env: { ...process.env, VAULT: vault, SERVICE_DATA: data, PORT: '0', ADMIN_PASSWORD: 'bench-password' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  await new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('server did not start')), 120_000);
    proc.stdout!.on('data', () => {
      if (/listening on/.test(out)) {
        clearTimeout(t);
        resolve();
      }
    });
  });
  await new Promise((r) => setTimeout(r, 3000));
  const status = await fs.readFile(`/proc/${proc.pid}/status`, 'utf8');
  const exited = new Promise((r) => proc.once('exit', r));
  proc.kill('SIGTERM');
  await exited;
  return Number(status.match(/VmRSS:\s+(\d+)/)![1]) / 1024;
}

export async function run(): Promise<void> {
  log.setQuiet(true);
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-versions-'));
  const vault = path.join(base, 'vault');
  const data = path.join(base, 'data');
  const bare = path.join(base, 'bare');
  await fs.mkdir(vault);
  await fs.mkdir(data);
  await fs.mkdir(bare);
  try {
    let t = performance.now();
    await generateVault(vault, NOTES);
    console.log(`generated ${NOTES} notes in ${((performance.now() - t) / 1000).toFixed(1)} s`);

    // Flush the generated files first: fsyncs measured while the kernel is still
    // writing back 10,000 fresh files would time the generator, not the save.
    execFileSync('sync');
    const ctx = await createAdminContext(loadConfig({ VAULT: vault, SERVICE_DATA: data, ADMIN_PASSWORD: 'x' }, []));
    await ctx.versions.load();
    const versioned: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < SAVES; i++) {
      const n = (i * 37) % NOTES;
      const text = noteText(n, NOTES) + `\nEdit ${i}: ${'x'.repeat(200)}\n`;
      // Interleave the two so machine noise falls on both alike.
      t = performance.now();
      await writeFileAtomic(path.join(bare, `n${i % 50}.md`), text, { mode: 0o644 });
      baseline.push(performance.now() - t);
      t = performance.now();
      await ctx.writer.writeNote(parseVaultPath(notePath(n)), text);
      versioned.push(performance.now() - t);
      // Saves come from autosave, ~600 ms apart: let each one's follow-up work settle
      // (the same pause for both, outside the timed part).
      await new Promise((r) => setTimeout(r, 15));
    }
    const kept = (await Promise.all(Array.from({ length: 20 }, (_, i) => ctx.versions.list(notePath((i * 37) % NOTES))))).filter(
      (v) => v.length > 0,
    ).length;
    const p50v = percentile(versioned, 50);
    const p50b = percentile(baseline, 50);
    console.log(`versioned save  p50 ${fmt(p50v)}  p99 ${fmt(percentile(versioned, 99))}  (${SAVES} saves 15 ms apart, each keeping a version: ${kept}/20 sampled)`);
    console.log(`bare atomic     p50 ${fmt(p50b)}  p99 ${fmt(percentile(baseline, 99))}`);
    console.log(`ratio p50 ${(p50v / p50b).toFixed(2)}x  (target: within 3x)`);
    await ctx.created.flush();
    console.log(`server RSS after loading the ${NOTES}-note vault: ${(await serverRss(vault, path.join(base, 'data2'))).toFixed(0)} MB`);
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}
