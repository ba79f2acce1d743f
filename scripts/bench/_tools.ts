// The outside tools the serving benchmark measures against or with: wrk (load),
// nginx (the static baseline, 1 worker, sendfile), each installed from Debian by
// the bench itself when missing, and the memory of a process group read from /proc.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, promises as fs, writeFileSync } from 'node:fs';
import path from 'node:path';

export function has(cmd: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

/** apt-get install, once, for the tools a bench needs (not CI: benches are not tests). */
export function ensureDebian(packages: Record<string, string>): string[] {
  const missing = Object.entries(packages).filter(([cmd]) => !has(cmd));
  if (missing.length === 0) return [];
  console.log(`installing ${missing.map(([, p]) => p).join(', ')} from Debian for the bench…`);
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  spawnSync('apt-get', ['install', '-y', '-qq', ...missing.map(([, p]) => p)], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return missing.filter(([cmd]) => !has(cmd)).map(([cmd]) => cmd);
}

/** Requests per second from `wrk -t1 -c32` (extra headers optional). */
export function wrk(url: string, seconds: number, headers: string[] = []): Promise<number> {
  return new Promise((resolve, reject) => {
    const args = ['-t1', '-c32', `-d${seconds}s`, ...headers.flatMap((h) => ['-H', h]), url];
    execFile('wrk', args, { timeout: (seconds + 30) * 1000 }, (err, stdout) => {
      const m = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
      const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
      if (err || !m) return reject(new Error(`wrk failed: ${err?.message ?? stdout}`));
      if (non2xx) return reject(new Error(`wrk saw ${non2xx[1]} error answers from ${url}`));
      resolve(Number(m[1]));
    });
  });
}

export interface Nginx {
  url: string;
  stop(): Promise<void>;
}

/** nginx serving `root` like a static host serves `npm run build`'s snapshot. */
export async function startNginx(root: string, work: string, port: number, gzip: boolean): Promise<Nginx> {
  await fs.mkdir(work, { recursive: true });
  const conf = path.join(work, 'nginx.conf');
  await fs.writeFile(
    conf,
    `user root;
worker_processes 1;
pid ${work}/nginx.pid;
error_log ${work}/error.log;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  include /etc/nginx/mime.types;
  ${gzip ? 'gzip on; gzip_types text/css application/javascript application/xml application/rss+xml; gzip_min_length 256;' : ''}
  server {
    listen 127.0.0.1:${port};
    root ${root};
    location / { try_files $uri $uri.html $uri/index.html =404; }
  }
}
`,
  );
  const proc: ChildProcess = spawn('nginx', ['-c', conf, '-p', work, '-g', 'daemon off;'], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ok = await fetch(url + '/').then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`nginx did not start (see ${work}/error.log)`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url,
    async stop() {
      if (proc.exitCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGQUIT');
      await exited;
    },
  };
}

/** Every process of a process group, with its command line and resident memory (MB). */
async function groupProcesses(pgid: number): Promise<{ pid: number; cmd: string; rssMB: number }[]> {
  const out: { pid: number; cmd: string; rssMB: number }[] = [];
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) !== pgid) continue;
    const status = await fs.readFile(`/proc/${entry}/status`, 'utf8').catch(() => '');
    const cmd = (await fs.readFile(`/proc/${entry}/cmdline`, 'utf8').catch(() => '')).replace(/\0/g, ' ');
    out.push({ pid: Number(entry), cmd, rssMB: Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024 });
  }
  return out;
}

/**
 * The server and its builder process (a full build's build thread runs inside it), from
 * source or compiled; not npm, its shell, or the esbuild service tsx starts.
 */
function isOurs(cmd: string): boolean {
  return cmd !== '' && !/(^|\/)(npm|sh)( |$)|npm-cli|esbuild/.test(cmd);
}

/** One phase's peak of the server + builder, with each process's part at that moment. */
export interface PhasePeak {
  phase: string;
  mb: number;
  parts: string;
}

/**
 * Samples a process group's memory every 100 ms; `peak` of the server + builder, and with the
 * npm wrapper. `phase(name)` starts a new phase: each phase's peak is kept, to tell when it came.
 */
export function watchGroupMemory(pgid: number) {
  let serverPeak = 0;
  let groupPeak = 0;
  let stopped = false;
  const phases: PhasePeak[] = [{ phase: 'start', mb: 0, parts: '' }];
  const loop = (async () => {
    while (!stopped) {
      const procs = await groupProcesses(pgid);
      const ours = procs.filter((p) => isOurs(p.cmd));
      const sum = ours.reduce((s, p) => s + p.rssMB, 0);
      serverPeak = Math.max(serverPeak, sum);
      groupPeak = Math.max(groupPeak, procs.reduce((s, p) => s + p.rssMB, 0));
      const current = phases.at(-1)!;
      if (sum > current.mb) Object.assign(current, { mb: sum, parts: ours.map((p) => `${/builder|thread/.test(p.cmd) ? 'builder' : 'server'} ${p.rssMB.toFixed(0)}`).join(' + ') });
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  return {
    phase(name: string): void {
      phases.push({ phase: name, mb: 0, parts: '' });
    },
    async stop(): Promise<{ serverAndBuilderMB: number; groupMB: number; phases: PhasePeak[] }> {
      stopped = true;
      await loop;
      return { serverAndBuilderMB: serverPeak, groupMB: groupPeak, phases };
    },
  };
}

/** CPU seconds used so far by every process of a group. */
async function groupCpuSeconds(pgid: number): Promise<number> {
  let ticks = 0;
  for (const entry of await fs.readdir('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await fs.readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

/** Waits until a process group is quiet (under 5% of a core for a second): warming and builds done. */
export async function waitQuiet(pgid: number, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await groupCpuSeconds(pgid);
  while (Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = await groupCpuSeconds(pgid);
    if (now - last < 0.05) return;
    last = now;
  }
}

/**
 * The kernel time making one small file costs in `dir` now, in µs (1,000 files of 8 KB in ten
 * folders; left for the bench's own clean-up). On this machine it moves between about 20 and
 * 700 µs: its ext4 has no journal, and then every new inode is checked against inodes deleted
 * in the last minutes (`recently_deleted` in `perf`), so for a while after a big delete (a
 * test run's temp folders, an earlier bench's outputs) each file costs up to thirty times
 * more. A build comparison is fair only between rounds that paid the same.
 */
export function fileCreationMicros(dir: string): number {
  const body = Buffer.alloc(8192, 0x61);
  const before = process.cpuUsage();
  for (let folder = 0; folder < 10; folder++) {
    mkdirSync(path.join(dir, String(folder)), { recursive: true });
    for (let i = 0; i < 100; i++) writeFileSync(path.join(dir, String(folder), `${i}.html`), body);
  }
  const used = process.cpuUsage(before);
  return (used.system + used.user) / 1000;
}

/** The public layout the blog bench builds and serves: BENCH_LAYOUT=default measures the garden. */
export const BENCH_LAYOUT = process.env.BENCH_LAYOUT === 'default' ? 'default' : 'blog';
