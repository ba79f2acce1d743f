// The real server for the benchmarks: `npm start` in its own process group (so its
// memory and its stop cover every process), a free port, and waits on its answers
// and its log lines.
import { BENCH_LAYOUT } from './_tools.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROJECT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const BENCH_PASSWORD = 'bench-password';

/** Says so when the machine is already busy: the figures that follow are measured under load. */
export function noteLoad(): void {
  const busy = os.loadavg()[0]!;
  if (busy > 0.7) console.log(`note: load average ${busy.toFixed(2)} on ${os.cpus().length} cores before the run: figures are measured under load`);
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface Service {
  url: string;
  proc: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Signs in to the server at `url` with the bench's password: the session cookie to send. */
export async function signIn(url: string): Promise<string> {
  const login = await fetch(url + '/api/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ password: BENCH_PASSWORD }) });
  return (login.headers.get('set-cookie') ?? '').split(';')[0]!;
}

export function npmStart(vault: string, data: string, port: number, extraEnv: Record<string, string> = {}): Service {
  const proc = spawn('npm', ['start', '--silent'], {
    cwd: PROJECT,
    detached: true,
    env: { ...process.env, VAULT: vault, SERVICE_DATA: data, PORT: String(port), HOST: '127.0.0.1', ADMIN_PASSWORD: BENCH_PASSWORD, PUBLIC_LAYOUT: BENCH_LAYOUT, SETTINGS_MIRROR_SECONDS: '3600', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const exited = new Promise((r) => proc.once('exit', r));
  return {
    url: `http://127.0.0.1:${port}`,
    proc,
    output: () => out,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        try {
          process.kill(-proc.pid!, 'SIGTERM');
        } catch {
          /* the group is gone already */
        }
        await exited;
      }
      // npm may exit before its children: wait for the whole group (the builder remembers last).
      for (let i = 0; i < 200 && groupAlive(proc.pid!); i++) await new Promise((r) => setTimeout(r, 50));
    },
  };
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until `route` answers 200; returns the milliseconds since `since`. */
export async function until200(url: string, since: number, timeoutMs: number, intervalMs = 10): Promise<number> {
  for (;;) {
    const ok = await fetch(url).then(
      async (r) => (await r.arrayBuffer(), r.status === 200),
      () => false,
    );
    if (ok) return performance.now() - since;
    if (performance.now() - since > timeoutMs) throw new Error(`${url} never answered 200`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export async function waitForLine(service: Service, pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const m = pattern.exec(service.output());
    if (m) return m;
    if (Date.now() > deadline) throw new Error(`never printed ${pattern}:\n${service.output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
