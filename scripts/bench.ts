// `npm run bench [name…]`: runs every benchmark in scripts/bench/ (or the named ones).
// Each prints its own figures as ratios against a baseline measured in the same run.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'bench');
const wanted = process.argv.slice(2);
const names = (await fs.readdir(dir))
  .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
  .map((f) => f.slice(0, -3))
  .filter((n) => wanted.length === 0 || wanted.includes(n))
  .sort();

for (const name of names) {
  console.log(`\n=== bench: ${name} ===`);
  const mod = (await import(path.join(dir, `${name}.ts`))) as { run: () => Promise<void> };
  await mod.run();
}
