// Issue 3 benchmark, on one generated 10,000-note vault (about 70% published), in
// one run: our full build; a plain Eleventy build of the same notes (the vault as
// Eleventy's input folder, default Markdown handling) as the baseline; Debian's
// hugo writing the same notes to disk when installed; and, on the real server,
// the time from one note's save through the API until its article, the home page
// and the feed all serve the new text (median and worst of 25 edits).
// BENCH_BEFORE=<git ref> also times that commit's own full build of the same vault,
// rounds alternating with ours, for a before/after ratio of a change in one run.
import { execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateVault, notePath, noteText, percentile } from './_vault.ts';

const NOTES = 10_000;
const EDITS = 25;
const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CHILD = path.join(PROJECT, 'scripts/bench/_blog-child.ts');

interface Measured {
  ms: number;
  outputs: number;
  maxRssMB: number;
}

function runChild(mode: 'ours' | 'eleventy', vault: string, out: string, project = PROJECT): Promise<Measured> {
  const child = path.join(project, path.relative(PROJECT, CHILD));
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', child, mode, vault, out], { cwd: project, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 }, (err, stdout, stderr) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      if (err || !line.startsWith('{')) reject(new Error(`${mode} build failed: ${err?.message ?? ''}\n${stderr.slice(-2000)}`));
      else resolve(JSON.parse(line) as Measured);
    });
  });
}

async function hasHugo(): Promise<boolean> {
  return new Promise((resolve) => execFile('hugo', ['version'], (err) => resolve(!err)));
}

/** Hugo with minimal layouts over the same notes, timed by /usr/bin/time for its peak memory. */
async function runHugo(root: string, vault: string): Promise<Measured> {
  const site = path.join(root, 'hugo-site');
  const layout = '<!doctype html><html><head><title>{{ .Title }}</title></head><body><h1>{{ .Title }}</h1>';
  await fs.mkdir(path.join(site, 'layouts/_default'), { recursive: true });
  await fs.writeFile(path.join(site, 'hugo.toml'), `baseURL = "https://bench.example/"\ntitle = "Bench"\ncontentDir = ${JSON.stringify(vault)}\n`);
  await fs.writeFile(path.join(site, 'layouts/_default/single.html'), `${layout}{{ .Content }}</body></html>\n`);
  await fs.writeFile(path.join(site, 'layouts/_default/list.html'), `${layout}<ul>{{ range .Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Summary }}</li>{{ end }}</ul></body></html>\n`);
  await fs.writeFile(path.join(site, 'layouts/index.html'), `${layout}<ul>{{ range first 50 .Site.RegularPages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ul></body></html>\n`);
  const out = path.join(root, 'hugo-out');
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile('/usr/bin/time', ['-f', '__rss %M', 'hugo', '--source', site, '--destination', out, '--quiet'], { maxBuffer: 64 * 1024 * 1024, timeout: 600_000 }, async (err, _stdout, stderr) => {
      const ms = performance.now() - started;
      if (err) return reject(new Error(`hugo failed: ${stderr.slice(-2000)}`));
      const rss = Number(/__rss (\d+)/.exec(stderr)?.[1] ?? 0) / 1024;
      const files = ((await fs.readdir(out, { recursive: true })) as string[]).filter((f) => f.endsWith('.html')).length;
      resolve({ ms, outputs: files, maxRssMB: rss });
    });
  });
}

interface EditRun {
  latencies: number[];
  serverPeakMB: number;
  builderPeakMB: number;
  startBuildMs: number;
}

/** Peak RSS (VmHWM) in MB of every direct child of `pid`: the server's build process. */
async function childPeaksMB(pid: number): Promise<number> {
  let peak = 0;
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (ppid !== pid) continue;
    const status = await fs.readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    peak = Math.max(peak, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  }
  return peak;
}

async function runEdits(root: string, vault: string): Promise<EditRun> {
  const data = path.join(root, 'server-data');
  const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: PROJECT,
    env: { ...process.env, VAULT: vault, SERVICE_DATA: data, PORT: '0', HOST: '127.0.0.1', ADMIN_PASSWORD: 'bench-password', PUBLIC_LAYOUT: 'blog' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  try {
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 180_000);
      const check = () => {
        const m = /listening on (http:\/\/\S+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      };
      proc.stdout!.on('data', check);
    });
    // The first public request waits for the start build.
    await fetch(url + '/').then((r) => r.text());
    const startBuildMs = Number(/public site built: \d+ outputs in (\d+) ms/.exec(out)?.[1] ?? NaN);
    const login = await fetch(url + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: 'bench-password' }) });
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
    // The newest published note: on the first home page and at the top of the feed.
    let i = NOTES - 1;
    while (i % 10 >= 7) i--;
    const notePathOf = notePath(i);
    const address = '/' + notePathOf.replace(/\.md$/, '').split('/').map((s) => encodeURIComponent(s.replace(/ /g, '-'))).join('/');
    const latencies: number[] = [];
    for (let n = 0; n < EDITS; n++) {
      const token = `EDIT-TOKEN-${n}-${Date.now()}`;
      const content = noteText(i, NOTES).replace(/\n\n(\S)/, `\n\n${token} $1`);
      const started = performance.now();
      const put = await fetch(`${url}/api/note?path=${encodeURIComponent(notePathOf)}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie },
        body: JSON.stringify({ content }),
      });
      if (put.status !== 200) throw new Error(`save failed: ${put.status} ${await put.text()}`);
      for (;;) {
        const texts = await Promise.all([address, '/', '/feed.xml'].map((r) => fetch(url + r).then((res) => res.text())));
        if (texts.every((t) => t.includes(token))) break;
        if (performance.now() - started > 30_000) throw new Error(`edit ${n} never showed up`);
        await new Promise((r) => setTimeout(r, 3));
      }
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 150));
    }
    const status = await fs.readFile(`/proc/${proc.pid}/status`, 'utf8');
    return {
      latencies,
      serverPeakMB: Number(/VmHWM:\s+(\d+)/.exec(status)![1]) / 1024,
      builderPeakMB: await childPeaksMB(proc.pid!),
      startBuildMs,
    };
  } finally {
    proc.kill('SIGTERM');
    await new Promise((r) => proc.once('exit', r));
  }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

const execP = (cmd: string, args: string[]) =>
  new Promise<void>((resolve, reject) => execFile(cmd, args, { cwd: PROJECT }, (err, _o, stderr) => (err ? reject(new Error(stderr || err.message)) : resolve())));

/**
 * `ref`'s full build and ours over the same vault, alternating (noise hits both alike):
 * the medians of `rounds` each. `ref`'s files are exported to a temp folder (git archive)
 * sharing node_modules; the repository itself is left as it is.
 */
async function beforeAndAfter(ref: string, root: string, vault: string, rounds = 3): Promise<{ before: Measured; after: Measured }> {
  const dir = path.join(root, 'before');
  const tar = path.join(root, 'before.tar');
  await fs.mkdir(dir, { recursive: true });
  await execP('git', ['archive', '--format=tar', '-o', tar, ref]);
  await execP('tar', ['-xf', tar, '-C', dir]);
  await fs.symlink(path.join(PROJECT, 'node_modules'), path.join(dir, 'node_modules'));
  const before: Measured[] = [];
  const after: Measured[] = [];
  for (let r = 0; r < rounds; r++) {
    before.push(await runChild('ours', vault, path.join(root, `before-out-${r}`), dir));
    after.push(await runChild('ours', vault, path.join(root, `after-out-${r}`)));
  }
  const median = (list: Measured[]) => [...list].sort((a, b) => a.ms - b.ms)[Math.floor(list.length / 2)]!;
  return { before: median(before), after: median(after) };
}

export async function run(): Promise<void> {
  const root = await fs.mkdtemp(path.join(os.tmpdir(), 'vs-bench-blog-'));
  try {
    const vault = path.join(root, 'vault');
    await generateVault(vault, NOTES);
    console.log(`vault: ${NOTES} notes, about 70% published (${root})`);

    const plain = await runChild('eleventy', vault, path.join(root, 'eleventy-out'));
    const ours = await runChild('ours', vault, path.join(root, 'ours-out'));
    const hugo = (await hasHugo()) ? await runHugo(root, vault) : null;
    console.log('\nfull build (baseline: plain Eleventy, same run)');
    console.log(`  plain Eleventy   ${s(plain.ms).padStart(9)}  ${String(plain.outputs).padStart(6)} outputs  peak ${plain.maxRssMB.toFixed(0)} MB   1.00x`);
    console.log(`  ours             ${s(ours.ms).padStart(9)}  ${String(ours.outputs).padStart(6)} outputs  peak ${ours.maxRssMB.toFixed(0)} MB   ${(ours.ms / plain.ms).toFixed(2)}x   (target ≤ 0.60x)`);
    if (hugo) console.log(`  hugo (to disk)   ${s(hugo.ms).padStart(9)}  ${String(hugo.outputs).padStart(6)} outputs  peak ${hugo.maxRssMB.toFixed(0)} MB   ${(hugo.ms / plain.ms).toFixed(2)}x`);
    else console.log('  hugo             not installed: skipped');

    const ref = process.env.BENCH_BEFORE;
    if (ref) {
      const { before, after } = await beforeAndAfter(ref, root, vault);
      console.log(`\nfull build before and after a change (BENCH_BEFORE=${ref}; medians of 3 alternating rounds, same vault)`);
      console.log(`  before  ${s(before.ms).padStart(9)}  ${String(before.outputs).padStart(6)} outputs  peak ${before.maxRssMB.toFixed(0)} MB   1.00x`);
      console.log(`  after   ${s(after.ms).padStart(9)}  ${String(after.outputs).padStart(6)} outputs  peak ${after.maxRssMB.toFixed(0)} MB   ${(after.ms / before.ms).toFixed(2)}x   (target ≤ 1.10x)`);
    }

    const edits = await runEdits(root, vault);
    const median = percentile(edits.latencies, 50);
    const worst = Math.max(...edits.latencies);
    console.log(`\none note saved through the API until article, home page and feed serve it (${EDITS} edits, real server)`);
    console.log(`  median ${median.toFixed(0)} ms   p90 ${percentile(edits.latencies, 90).toFixed(0)} ms   worst ${worst.toFixed(0)} ms   (target median < 300 ms)`);
    console.log(`  median = ${((median / ours.ms) * 100).toFixed(2)}% of our full build   (target < 3%)`);
    console.log(`  server's own start build: ${s(edits.startBuildMs)} in its build process`);
    console.log(`\npeak RSS (target < 400 MB each): our standalone build ${ours.maxRssMB.toFixed(0)} MB; through start and edits, the server process (admin + public site) ${edits.serverPeakMB.toFixed(0)} MB and its long-lived build process ${edits.builderPeakMB.toFixed(0)} MB`);
  } finally {
    await fs.rm(root, { recursive: true, force: true });
  }
}
