import { promises as fs } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '/work/main/shared/config.ts';
import { SiteBuilder } from '/work/main/site/build/site-builder.ts';
import { notePath, noteText } from '/work/main/scripts/bench/_vault.ts';
const vault = process.argv[2]!; const notes = Number(process.argv[3]);
const data = vault + '-data';
await fs.mkdir(data, { recursive: true });
process.env.VAULT = vault; process.env.SERVICE_DATA = data; process.env.PUBLIC_LAYOUT = 'blog';
const config = loadConfig(process.env as any);
const b = new SiteBuilder({ config, outRoot: path.join(data, 'public-site'), partner: true, useGit: false });
let t = performance.now();
const full = await b.full();
console.log('full', (performance.now() - t).toFixed(0), 'ms', full.rendered);
let i = notes - 1; while (i % 10 >= 7) i--;
const note = notePath(i);
const times: number[] = [];
for (let n = 0; n < 15; n++) {
  const content = noteText(i, notes).replace(/\n\n(\S)/, `\n\nEDIT-${n} $1`);
  await fs.writeFile(path.join(vault, note), content);
  t = performance.now();
  const r = await b.apply([note]);
  times.push(performance.now() - t);
  if (n === 14) console.log('rendered', r?.rendered, r?.upserts.map(u => u[0]).slice(0, 10));
}
console.log('apply ms', times.map((x) => x.toFixed(0)).join(' '));
console.log('rss MB', (process.memoryUsage().rss / 1e6).toFixed(0), 'heap', (process.memoryUsage().heapUsed / 1e6).toFixed(0));
if (process.env.SNAP) {
  (globalThis as any).gc?.();
  const v8 = await import('node:v8');
  const file = v8.writeHeapSnapshot('/tmp/builder.heapsnapshot');
  console.log('snapshot', file);
}
