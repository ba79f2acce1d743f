// A rename whose links are in 600 notes of one folder (a daily-notes folder linking one
// project note), through the real server's API, against the disk's own floor in the same
// run: 600 durable writes (temp file, fsync, rename, fsync of the folder) one after another.
// Rounds alternate, so machine noise falls on both alike.
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { writeFileAtomic } from '../../shared/atomic-write.ts';
import { BENCH_PASSWORD, freePort, noteLoad, npmStart, until200, waitForLine } from './_service.ts';
import { fmt, percentile } from './_vault.ts';

const LINKERS = Number(process.env.BENCH_LINKERS ?? 600);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const linkerText = (i: number, target: string) => `# Day ${i}\n\nWorked on [[${target}]] today, and on [[${target}|the project]] again.\n`;

export async function run(): Promise<void> {
  noteLoad();
  const base = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-rename-'));
  const vault = path.join(base, 'vault');
  const floor = path.join(base, 'floor');
  await fs.mkdir(path.join(vault, 'Daily'), { recursive: true });
  await fs.mkdir(floor);
  await fs.writeFile(path.join(vault, 'Project.md'), '# Project\n');
  for (let i = 0; i < LINKERS; i++) await fs.writeFile(path.join(vault, `Daily/Day ${i}.md`), linkerText(i, 'Project'));
  const service = npmStart(vault, path.join(base, 'data'), await freePort(), { NOTE_VERSIONS: 'on' });
  try {
    await waitForLine(service, /listening on/, 120_000);
    await until200(service.url + '/', performance.now(), 120_000);
    const login = await fetch(service.url + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: BENCH_PASSWORD }) });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    const rename = async (from: string, to: string) => {
      const t = performance.now();
      const res = await fetch(service.url + '/api/note/rename', {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ path: from, to }),
      });
      const body = (await res.json()) as { rewritten?: string[] };
      if (res.status !== 200 || body.rewritten?.length !== LINKERS) throw new Error(`rename ${from} → ${to}: ${res.status}, ${body.rewritten?.length} rewritten`);
      return performance.now() - t;
    };
    const renames: number[] = [];
    const floors: number[] = [];
    let name = 'Project';
    for (let round = 0; round < ROUNDS; round++) {
      const next = `Project ${round}`;
      renames.push(await rename(`${name}.md`, `${next}.md`));
      name = next;
      const t = performance.now();
      for (let i = 0; i < LINKERS; i++) await writeFileAtomic(path.join(floor, `Day ${i}.md`), linkerText(i, next), { mode: 0o644 });
      floors.push(performance.now() - t);
    }
    const [r, f] = [percentile(renames, 50), percentile(floors, 50)];
    console.log(`rename, ${LINKERS} linking notes in one folder (versions kept): median ${fmt(r)} (all: ${renames.map(fmt).join(', ')})`);
    console.log(`floor, ${LINKERS} durable writes one after another:            median ${fmt(f)}`);
    console.log(`ratio ${(r / f).toFixed(2)}x the floor`);
  } finally {
    await service.stop();
    await fs.rm(base, { recursive: true, force: true });
  }
}
