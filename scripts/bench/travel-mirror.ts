// Benchmark: the settings mirror runs every few seconds over settings,
// designs and up to 40 MB of uploaded fonts. A steady pass (nothing changed) must cost
// next to nothing: the file cache hashes a file only when its inode, size or mtime
// moved. Baseline, measured in the same run: reading and hashing every mirrored file
// once (what a pass without the cache would do on each side).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TravelFiles } from '../../admin/travel/files.ts';
import { mirrorPass } from '../../admin/travel/mirror.ts';

const FONTS = 9;
const FONT_BYTES = Math.round(4.3 * 1024 * 1024);
const STEADY_PASSES = 50;

async function timeIt(task: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await task();
  return performance.now() - t;
}

export async function run(): Promise<void> {
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-travel-'));
  const data = path.join(base, 'data');
  const vault = path.join(base, 'vault');
  try {
    await fs.mkdir(path.join(data, 'fonts/custom'), { recursive: true });
    await fs.mkdir(vault, { recursive: true });
    await fs.writeFile(path.join(data, 'settings.json'), JSON.stringify({ siteName: 'Bench', typography: { bodyFont: 'Inter' } }));
    await fs.writeFile(path.join(data, 'designs.json'), JSON.stringify({ designs: Array.from({ length: 50 }, (_, i) => ({ name: `d${i}` })) }));
    await fs.writeFile(path.join(data, 'custom.css'), '.x { color: red; }\n'.repeat(2000));
    for (let i = 0; i < FONTS; i++) await fs.writeFile(path.join(data, `fonts/custom/face-${i}.woff2`), Buffer.alloc(FONT_BYTES, i + 1));
    const files = (await fs.readdir(data, { recursive: true })).map((f) => path.join(data, f.toString()));

    // Baseline: read + sha256 every mirrored file once.
    const hashAll = async () => {
      for (const f of files) {
        const st = await fs.stat(f);
        if (st.isFile()) createHash('sha256').update(await fs.readFile(f)).digest('hex');
      }
    };
    await hashAll();
    const baseline = await timeIt(hashAll);

    const ctx = { dataDir: data, vaultReal: vault, files: new TravelFiles(), checks: {}, bases: {} as Record<string, string>, copies: {} };
    const first = await timeIt(() => mirrorPass(ctx));
    const steady: number[] = [];
    for (let i = 0; i < STEADY_PASSES; i++) steady.push(await timeIt(() => mirrorPass(ctx)));
    const uncached: number[] = [];
    for (let i = 0; i < 5; i++) uncached.push(await timeIt(() => mirrorPass({ ...ctx, files: new TravelFiles() })));
    const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
    const totalMb = ((FONTS * FONT_BYTES) / 1024 / 1024).toFixed(1);

    console.log(`mirrored set: settings, designs, custom.css and ${FONTS} fonts (${totalMb} MB)`);
    console.log(`baseline: read + hash every file once            ${baseline.toFixed(1)} ms  (1.00)`);
    console.log(`first pass (copies everything into .service/)    ${first.toFixed(1)} ms  (${(first / baseline).toFixed(2)}× baseline)`);
    console.log(`steady pass, file cache warm (median of ${STEADY_PASSES})     ${median(steady).toFixed(2)} ms  (${(median(steady) / baseline).toFixed(3)}× baseline)`);
    console.log(`steady pass, no file cache (median of 5)          ${median(uncached).toFixed(1)} ms  (${(median(uncached) / baseline).toFixed(2)}× baseline)`);
  } finally {
    await fs.rm(base, { recursive: true, force: true });
  }
}
