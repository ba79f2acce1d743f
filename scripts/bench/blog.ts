// The build benchmark, in one run on generated vaults (about 70% published):
// `npm run build`, the static snapshot a CI job makes, against Debian's hugo writing the
// same notes at 1,000, 10,000 and 30,000 notes (alternating rounds, medians kept); then,
// on the real server (`npm start`) at 10,000 and 30,000 notes, the time from one note's
// save through the API until its article, the home page and the feed all serve it
// (median and worst of 25 edits), and the peak RSS of the server and its build processes.
// Each figure is printed next to its target, with the machine's load average.
// BENCH_SIZES (e.g. "1000,10000"), BENCH_EDIT_SIZES, BENCH_ROUNDS, BENCH_EDITS to change.
// BENCH_BEFORE=<git ref> also times that commit's own full build of the 10,000-note vault
// (or the first size), rounds alternating with ours, for a before/after ratio in one run.
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BENCH_PASSWORD, freePort, npmStart, until200, waitForLine } from './_service.ts';
import { ensureDebian, fileCreationMicros, has, watchGroupMemory } from './_tools.ts';
import { generateVault, notePath, noteText, percentile } from './_vault.ts';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// An empty value is an empty list (BENCH_EDIT_SIZES= times the builds alone).
const list = (v: string | undefined, d: number[]) => (v === undefined ? d : v.split(',').filter(Boolean).map(Number));
const SIZES = list(process.env.BENCH_SIZES, [1_000, 10_000, 30_000]);
const EDIT_SIZES = list(process.env.BENCH_EDIT_SIZES, [10_000, 30_000]);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const EDITS = Number(process.env.BENCH_EDITS ?? 25);

/** Targets: `npm run build` over Hugo's time, by vault size. */
const BUILD_TARGET: Record<number, number> = { 1_000: 2, 10_000: 1, 30_000: 1 };
const RSS_TARGET_MB: Record<number, number> = { 10_000: 400, 30_000: 700 };

interface Timed {
  ms: number;
  cpuMs: number;
  maxRssMB: number;
}

const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const sec = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const median = (xs: number[]) => percentile(xs, 50);

/** Runs a command under /usr/bin/time: wall time, CPU (user + system, children included) and peak RSS. */
function timed(cmd: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile('/usr/bin/time', ['-f', '__time %U %S %M', cmd, ...args], { ...options, maxBuffer: 64 * 1024 * 1024, timeout: 1_800_000 }, (err, _stdout, stderr) => {
      const ms = performance.now() - started;
      const m = /__time ([\d.]+) ([\d.]+) (\d+)/.exec(stderr);
      if (err || !m) return reject(new Error(`${cmd} ${args.join(' ')} failed: ${err?.message ?? ''}\n${stderr.slice(-2000)}`));
      resolve({ ms, cpuMs: (Number(m[1]) + Number(m[2])) * 1000, maxRssMB: Number(m[3]) / 1024 });
    });
  });
}

/**
 * `npm run build` as a CI job runs it: from a clean checkout, no SITE_OUT and no data
 * directory yet (`outs` names a fresh pair each round). Hugo's rounds get fresh output
 * folders too, and nothing is deleted until every round is timed: on this machine's
 * volume (ext4, online discard) a process writing thousands of files in the seconds after
 * thousands were deleted spends 2-3 s more in the kernel, whoever deleted them.
 */
function npmBuild(vault: string, outs: () => string): Promise<Timed> {
  const dir = outs();
  return timed('npm', ['run', 'build'], {
    cwd: PROJECT,
    env: { ...process.env, VAULT: vault, SERVICE_DATA: path.join(dir, 'data'), SITE_OUT: path.join(dir, 'site'), SITE_URL: 'https://bench.example', PUBLIC_LAYOUT: 'blog' },
  });
}

/** Hugo with minimal layouts over the same notes, writing to disk. */
async function hugoSite(root: string, vault: string, outs: () => string): Promise<() => Promise<Timed>> {
  const site = path.join(root, 'hugo-site');
  const layout = '<!doctype html><html><head><title>{{ .Title }}</title></head><body><h1>{{ .Title }}</h1>';
  await fs.mkdir(path.join(site, 'layouts/_default'), { recursive: true });
  await fs.writeFile(path.join(site, 'hugo.toml'), `baseURL = "https://bench.example/"\ntitle = "Bench"\ncontentDir = ${JSON.stringify(vault)}\n`);
  await fs.writeFile(path.join(site, 'layouts/_default/single.html'), `${layout}{{ .Content }}</body></html>\n`);
  await fs.writeFile(path.join(site, 'layouts/_default/list.html'), `${layout}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Summary }}</li>{{ end }}</ul></body></html>\n`);
  await fs.writeFile(path.join(site, 'layouts/index.html'), `${layout}<ul>{{ range first 50 .Site.RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body></html>\n`);
  // --buildFuture: the generated notes' dates run five hours apart from 2020, so past about
  // 10,000 notes they reach beyond today, and hugo leaves future-dated notes out by default
  // (at 30,000 it wrote 12,362 files instead of 30,261): it would not be the same notes.
  return async () => timed('hugo', ['--source', site, '--destination', path.join(outs(), 'hugo'), '--quiet', '--buildFuture']);
}

/** `npm run build` and hugo in alternating rounds on one vault; medians. */
async function compareBuilds(root: string, notes: number, hugo: boolean): Promise<void> {
  const vault = path.join(root, `vault-${notes}`);
  const ours: Timed[] = [];
  const theirs: Timed[] = [];
  let made = 0;
  const outs = () => path.join(root, 'outputs', `${notes}-${++made}`);
  const runHugo = hugo ? await hugoSite(root, vault, outs) : null;
  const before = load();
  const fileCost = [fileCreationMicros(path.join(root, 'outputs', `probe-${notes}-start`))];
  for (let round = 0; round < ROUNDS; round++) {
    ours.push(await npmBuild(vault, outs));
    if (runHugo) theirs.push(await runHugo());
  }
  fileCost.push(fileCreationMicros(path.join(root, 'outputs', `probe-${notes}-end`)));
  const pick = (xs: Timed[], k: keyof Timed) => median(xs.map((x) => x[k]));
  const o = { ms: pick(ours, 'ms'), cpuMs: pick(ours, 'cpuMs'), maxRssMB: pick(ours, 'maxRssMB') };
  const row = (name: string, t: Timed, extra: string) =>
    `  ${name.padEnd(15)} ${sec(t.ms).padStart(8)}  cpu ${sec(t.cpuMs).padStart(8)}  peak ${t.maxRssMB.toFixed(0).padStart(4)} MB  ${extra}`;
  console.log(`\n${notes.toLocaleString('en-US')} notes: ${ROUNDS} rounds, medians (load average before ${before}, after ${load()})`);
  if (runHugo) {
    const h = { ms: pick(theirs, 'ms'), cpuMs: pick(theirs, 'cpuMs'), maxRssMB: pick(theirs, 'maxRssMB') };
    console.log(row('hugo', h, '1.00x'));
    console.log(row('npm run build', o, `${(o.ms / h.ms).toFixed(2)}x   (target ≤ ${BUILD_TARGET[notes] ?? 1}x)`));
    console.log(`  all rounds: ours ${ours.map((t) => sec(t.ms)).join(', ')}; hugo ${theirs.map((t) => sec(t.ms)).join(', ')}`);
    // Hugo makes a folder and a file for each note (20,000 inodes at 10,000 notes), we 8,000 files in a few folders.
    console.log(`  making a file cost ${fileCost.map((us) => `${us.toFixed(0)} µs`).join(' before and ')} after the rounds (20-40 µs on a quiet disk; more slows hugo most)`);
  } else console.log(row('npm run build', o, '(hugo not installed: no ratio)'));
}

interface EditRun {
  latencies: number[];
  peakMB: number;
  groupMB: number;
  startBuildMs: number;
}

/** The real server on the vault: its first build, then `EDITS` saves of the newest post until it is live everywhere. */
async function runEdits(root: string, notes: number): Promise<EditRun> {
  const vault = path.join(root, `vault-${notes}`);
  const service = npmStart(vault, path.join(root, `server-data-${notes}`), await freePort());
  const memory = watchGroupMemory(service.proc.pid!);
  try {
    await until200(service.url + '/', performance.now(), 900_000, 100);
    const startBuildMs = Number((await waitForLine(service, /public site built: \d+ outputs in (\d+) ms/, 60_000))[1]);
    const login = await fetch(service.url + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: BENCH_PASSWORD }) });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    // The newest published note: on the first home page and at the top of the feed.
    let i = notes - 1;
    while (i % 10 >= 7) i--;
    const note = notePath(i);
    const address = '/' + note.replace(/\.md$/, '').split('/').map((s) => encodeURIComponent(s.replace(/ /g, '-'))).join('/');
    const latencies: number[] = [];
    for (let n = 0; n < EDITS; n++) {
      const token = `EDIT-TOKEN-${n}-${Date.now()}`;
      const content = noteText(i, notes).replace(/\n\n(\S)/, `\n\n${token} $1`);
      const started = performance.now();
      const put = await fetch(`${service.url}/api/note?path=${encodeURIComponent(note)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ content }),
      });
      if (put.status !== 200) throw new Error(`save failed: ${put.status} ${await put.text()}`);
      for (;;) {
        const texts = await Promise.all([address, '/', '/feed.xml'].map((r) => fetch(service.url + r).then((res) => res.text())));
        if (texts.every((t) => t.includes(token))) break;
        if (performance.now() - started > 30_000) throw new Error(`edit ${n} never showed up`);
        await new Promise((r) => setTimeout(r, 3));
      }
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 150));
    }
    await service.stop();
    const peak = await memory.stop();
    return { latencies, peakMB: peak.serverAndBuilderMB, groupMB: peak.groupMB, startBuildMs };
  } finally {
    await service.stop();
    await memory.stop();
  }
}

interface ChildBuild {
  ms: number;
  outputs: number;
  maxRssMB: number;
}

/** One full build in its own process (scripts/bench/_blog-child.ts of `project`), so its peak memory is its own. */
function childBuild(vault: string, out: string, project: string): Promise<ChildBuild> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', path.join(project, 'scripts/bench/_blog-child.ts'), 'ours', vault, out], { cwd: project, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 }, (err, stdout, stderr) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      if (err || !line.startsWith('{')) reject(new Error(`full build failed: ${err?.message ?? ''}\n${stderr.slice(-2000)}`));
      else resolve(JSON.parse(line) as ChildBuild);
    });
  });
}

const execP = (cmd: string, args: string[]) =>
  new Promise<void>((resolve, reject) => execFile(cmd, args, { cwd: PROJECT }, (err, _o, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve())));

/**
 * `ref`'s full build and ours over the same vault, alternating (noise hits both alike):
 * the medians of `rounds` each. `ref`'s files are exported to a temp folder (git archive)
 * sharing node_modules; the repository itself is left as it is.
 */
async function beforeAndAfter(ref: string, root: string, vault: string, rounds = 3): Promise<void> {
  const dir = path.join(root, 'before');
  const tar = path.join(root, 'before.tar');
  await fs.mkdir(dir, { recursive: true });
  await execP('git', ['archive', '--format=tar', '-o', tar, ref]);
  await execP('tar', ['-xf', tar, '-C', dir]);
  await fs.symlink(path.join(PROJECT, 'node_modules'), path.join(dir, 'node_modules'));
  const before: ChildBuild[] = [];
  const after: ChildBuild[] = [];
  for (let r = 0; r < rounds; r++) {
    before.push(await childBuild(vault, path.join(root, `before-out-${r}`), dir));
    after.push(await childBuild(vault, path.join(root, `after-out-${r}`), PROJECT));
  }
  const mid = (list: ChildBuild[]) => [...list].sort((a, b) => a.ms - b.ms)[Math.floor(list.length / 2)]!;
  const [b, a] = [mid(before), mid(after)];
  console.log(`\nfull build before and after a change (BENCH_BEFORE=${ref}; medians of ${rounds} alternating rounds, same vault)`);
  console.log(`  before  ${sec(b.ms).padStart(9)}  ${String(b.outputs).padStart(6)} outputs  peak ${b.maxRssMB.toFixed(0)} MB   1.00x`);
  console.log(`  after   ${sec(a.ms).padStart(9)}  ${String(a.outputs).padStart(6)} outputs  peak ${a.maxRssMB.toFixed(0)} MB   ${(a.ms / b.ms).toFixed(2)}x   (target ≤ 1.10x)`);
}

export async function run(): Promise<void> {
  const hugo = ensureDebian({ hugo: 'hugo' }).length === 0 && has('hugo');
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-blog-'));
  console.log(`${os.cpus().length} cores; load average at the start ${load()}${os.loadavg()[0]! > 0.7 ? ' (the machine is busy: figures need a quiet re-run)' : ''}`);
  try {
    for (const notes of new Set([...SIZES, ...EDIT_SIZES])) await generateVault(path.join(root, `vault-${notes}`), notes);
    console.log('\nnpm run build (the static snapshot) against hugo on the same notes');
    for (const notes of SIZES) await compareBuilds(root, notes, hugo);

    const ref = process.env.BENCH_BEFORE;
    if (ref) {
      const notes = SIZES.includes(10_000) ? 10_000 : SIZES[0]!;
      await beforeAndAfter(ref, root, path.join(root, `vault-${notes}`));
    }

    const edits = new Map<number, EditRun>();
    for (const notes of EDIT_SIZES) {
      const before = load();
      const run = await runEdits(root, notes);
      edits.set(notes, run);
      const med = median(run.latencies);
      const worst = Math.max(...run.latencies);
      const base = edits.get(10_000);
      const scale = notes !== 10_000 && base ? `   ${(med / median(base.latencies)).toFixed(2)}x the 10,000-note median (target ≤ 1.3x)` : '   (target median ≤ 100 ms, worst ≤ 250 ms)';
      console.log(`\n${notes.toLocaleString('en-US')} notes on the real server (load average before ${before}, after ${load()})`);
      console.log(`  one note saved → article, home and feed serve it (${EDITS} edits): median ${med.toFixed(0)} ms, p90 ${percentile(run.latencies, 90).toFixed(0)} ms, worst ${worst.toFixed(0)} ms${scale}`);
      console.log(`  the server's first full build: ${sec(run.startBuildMs)}`);
      console.log(`  peak RSS of the server and its build processes through start and edits: ${run.peakMB.toFixed(0)} MB (target ≤ ${RSS_TARGET_MB[notes] ?? '–'} MB); with npm: ${run.groupMB.toFixed(0)} MB`);
    }
  } finally {
    await fs.rm(root, { recursive: true, force: true, maxRetries: 5 });
  }
}
