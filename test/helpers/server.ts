// Starts the real server (the `npm start` code path) as a child process on a temp
// vault and temp data directory, and talks to it over HTTP.
import { spawn, type ChildProcess } from 'node:child_process';
import { scryptSync } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll } from 'vitest';
import { cleanupTempDirs, tempDir } from './tmp.ts';
import { SNAPSHOT_V8_FLAGS } from '../../site/build/build-heap.ts';

export const PROJECT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const TEST_PASSWORD = 'correct horse battery staple';
/**
 * TEST_PASSWORD's hash at a small scrypt cost, given as ADMIN_PASSWORD_HASH: the server's own
 * cost (a 16 MB scrypt at each start and each sign-in) was paid some thousand times a run.
 */
const TEST_PASSWORD_HASH = (() => {
  const salt = Buffer.from('vault-service test salt');
  const key = scryptSync(TEST_PASSWORD, salt, 32, { N: 1024, r: 8, p: 1 });
  return ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
})();
/** `vault-service` as a user runs it (package.json `bin`), compiled before the tests (test/compile-before.ts). */
export const CLI_BIN = path.join(PROJECT_DIR, 'dist/bundle/cli.js');

/**
 * `vault-service build` with the snapshot's V8 flags, as `npm run build` gives them: started
 * without them, it starts itself again with them (scripts/cli/relaunch.ts, which cli.test.ts
 * covers), a second Node start in each of a run's hundred-odd builds for nothing they test.
 */
export const CLI_BUILD: readonly string[] = [...SNAPSHOT_V8_FLAGS, CLI_BIN, 'build'];

/** Whether a process's command line (/proc/<pid>/cmdline) is a server's build process, compiled or from source. */
export const isBuilderCommand = (cmdline: string): boolean => /(?:dist\/bundle|site\/build)\/builder-process\.(?:js|ts)\0/.test(cmdline + '\0');

export interface StartOptions {
  vault?: string;
  data?: string;
  env?: Record<string, string | undefined>;
  /** Extra command-line arguments for `vault-service start`. */
  args?: string[];
  /** When false, the vault folder is not created first (the server copies the example vault). */
  createVault?: boolean;
}

export interface ApiAnswer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface TestServer {
  url: string;
  vault: string;
  data: string;
  proc: ChildProcess;
  /** Everything the process printed so far (stdout + stderr). */
  output(): string;
  /** Cookie header of a signed-in admin session. */
  login(password?: string): Promise<string>;
  api<T = any>(method: string, route: string, body?: unknown, cookie?: string | null): Promise<ApiAnswer<T>>;
  /** `api` with the admin cookie (signs in on first use). */
  admin<T = any>(method: string, route: string, body?: unknown): Promise<ApiAnswer<T>>;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** The environment a child server gets: ours minus anything git or the test runner set. */
export function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (k.startsWith('GIT_') || k.startsWith('VITEST') || k === 'NODE_OPTIONS') continue;
    env[k] = v;
  }
  for (const k of ['ADMIN_PASSWORD', 'ADMIN_PASSWORD_HASH', 'PUBLIC', 'SITE_URL', 'PUBLIC_LAYOUT', 'NOTE_VERSIONS', 'VAULT', 'SERVICE_DATA']) delete env[k];
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const base = options.vault && options.data ? '' : await tempDir('vs-server-');
  const vault = options.vault ?? path.join(base, 'vault');
  const data = options.data ?? path.join(base, 'data');
  if (options.createVault !== false && !options.vault) {
    const { promises: fs } = await import('node:fs');
    await fs.mkdir(vault, { recursive: true });
  }
  const env = childEnv({
    VAULT: vault,
    SERVICE_DATA: data,
    PORT: '0',
    HOST: '127.0.0.1',
    // A test that names a password variable (even unset) gets exactly the variables it names.
    ...(options.env && ('ADMIN_PASSWORD' in options.env || 'ADMIN_PASSWORD_HASH' in options.env) ? {} : { ADMIN_PASSWORD_HASH: TEST_PASSWORD_HASH }),
    ...options.env,
  });
  // What `npm start` runs once dist/ is up to date (test/compile-before.ts saw to it).
  const proc = spawn(process.execPath, [CLI_BIN, 'start', ...(options.args ?? [])], {
    cwd: PROJECT_DIR,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const check = () => {
      const m = out.match(/listening on (http:\/\/\S+)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    proc.stdout!.on('data', check);
    proc.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before listening:\n${out}`));
    });
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));

  async function api<T>(method: string, route: string, body?: unknown, cookie?: string | null): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = cookie;
    let payload: string | undefined;
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const res = await fetch(url + route, { method, headers, body: payload, redirect: 'manual' });
    const text = await res.text();
    let parsed: any = undefined;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed as T, text, headers: res.headers };
  }

  async function login(password = TEST_PASSWORD): Promise<string> {
    const res = await api('POST', '/api/login', { password });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${res.text}`);
    const cookie = res.headers.get('set-cookie') ?? '';
    return cookie.split(';')[0]!;
  }

  let adminCookie: string | null = null;
  const server: TestServer = {
    url,
    vault,
    data,
    proc,
    output: () => out,
    login,
    api,
    async admin(method, route, body) {
      adminCookie ??= await login();
      return api(method, route, body, adminCookie);
    },
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
    async kill() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.kill('SIGKILL');
      await exited;
    },
  };
  return server;
}

/** Waits until `check` returns a truthy value, polling every `intervalMs`. */
export async function waitFor<T>(check: () => Promise<T> | T, timeoutMs = 10_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('waitFor: timed out');
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Something a test file starts once (beforeAll) and stops after its tests (afterAll,
 * temp folders removed too). The answer stands for it: use it from inside a test or a
 * later hook, as if it were the started thing itself.
 */
let runningForFile = 0;

export function forFile<T extends { stop(): Promise<void> }>(start: () => Promise<T>): T {
  let started: T | null = null;
  beforeAll(async () => {
    started = await start();
    runningForFile++;
  });
  afterAll(async () => {
    if (started) {
      await started.stop();
      runningForFile--;
    }
    // A file may start several: the folders go once the last is stopped (removing them under a running server races its writes).
    if (runningForFile === 0) await cleanupTempDirs();
  });
  return live(() => started, 'started in beforeAll');
}

/** An object standing for `get()`'s answer once there is one (methods stay bound to it). */
export function live<T extends object>(get: () => T | null, when: string): T {
  return new Proxy({} as T, {
    get(_target, key) {
      const real = get();
      if (!real) throw new Error(`not there yet: it is ${when}`);
      const value = Reflect.get(real, key, real);
      return typeof value === 'function' ? value.bind(real) : value;
    },
    has: (_target, key) => Reflect.has(get() ?? {}, key),
  });
}

/** The real server for a test file, on a temp vault and data directory unless `options` names them; `admin()` signs in on first use. */
export function serverForFile(options: StartOptions | (() => StartOptions | Promise<StartOptions>) = {}): TestServer {
  return forFile(async () => startServer(typeof options === 'function' ? await options() : options));
}
