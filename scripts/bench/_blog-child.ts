// One measured build in its own process, so its peak memory is its own:
// `ours <vault> <out>` runs our full build. Prints one JSON line: { ms, outputs, maxRssMB }.
import { BENCH_LAYOUT } from './_tools.ts';
import { performance } from 'node:perf_hooks';

const [mode, vault, out] = process.argv.slice(2) as [string, string, string];
if (mode !== 'ours') throw new Error(`unknown mode ${mode}`);

async function ours(): Promise<number> {
  const { loadConfig } = await import('../../shared/config.ts');
  const { SiteBuilder } = await import('../../site/build/site-builder.ts');
  const { log } = await import('../../shared/log.ts');
  log.setQuiet(true);
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: `${out}-data`, PUBLIC_LAYOUT: BENCH_LAYOUT }, []);
  const result = await new SiteBuilder({ config, outRoot: out }).full();
  return result.rendered;
}

const started = performance.now();
const outputs = await ours();
const ms = performance.now() - started;
process.stdout.write(JSON.stringify({ ms, outputs, maxRssMB: process.resourceUsage().maxRSS / 1024 }) + '\n');
process.exit(0);
