// One measured build in its own process, so its peak memory is its own:
// `ours <vault> <out>` runs our full build; `eleventy <vault> <out>` runs a plain
// Eleventy build with the vault as its input folder and default Markdown handling.
// Prints one JSON line: { ms, outputs, maxRssMB }.
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const [mode, vault, out] = process.argv.slice(2) as [string, string, string];

async function ours(): Promise<number> {
  const { loadConfig } = await import('../../shared/config.ts');
  const { SiteBuilder } = await import('../../site/build/site-builder.ts');
  const { log } = await import('../../shared/log.ts');
  log.setQuiet(true);
  const config = loadConfig({ VAULT: vault, SERVICE_DATA: `${out}-data`, PUBLIC_LAYOUT: 'blog' }, []);
  const result = await new SiteBuilder({ config, outRoot: out }).full();
  return result.rendered;
}

async function eleventy(): Promise<number> {
  // From a folder without a config file: Eleventy's defaults, nothing of ours.
  process.chdir(path.dirname(out));
  const { default: Eleventy } = (await import('@11ty/eleventy')) as unknown as {
    default: new (i: string, o: string, opts: object) => { write(): Promise<unknown>; disableLogger?(): void };
  };
  const elev = new Eleventy(path.relative(process.cwd(), vault), path.relative(process.cwd(), out), { quietMode: true });
  elev.disableLogger?.();
  const result = (await elev.write()) as unknown[][];
  return result.flat().length;
}

const started = performance.now();
const outputs = mode === 'ours' ? await ours() : await eleventy();
const ms = performance.now() - started;
process.stdout.write(JSON.stringify({ ms, outputs, maxRssMB: process.resourceUsage().maxRSS / 1024 }) + '\n');
process.exit(0);
