// Real git remotes on loopback for the sync tests: a bare repository reached over
// HTTPS (`git http-backend` behind a Node https server with a self-signed certificate
// and a basic-auth token check) or through an ssh stand-in script that runs the
// requested git command locally (what SERVICE_GIT_SSH_COMMAND is for).
import { execFileSync, spawn } from 'node:child_process';
import { promises as fs, readdirSync, readFileSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** Runs git for the test itself (not through the service), with a plain environment. */
export function git(cwd: string, ...args: string[]): string {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export async function bareRepo(dir: string, branch = 'main'): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  git(dir, 'init', '-q', '--bare', `--initial-branch=${branch}`);
  return dir;
}

/**
 * An ssh stand-in: git calls `<script> [-G] host "git-upload-pack '/path'"`. The script
 * refuses `-G` (so git treats it as a plain ssh), then runs the command locally. While
 * `<dir>/hang` exists it waits first (to hold a push open), at most 60 s.
 */
export async function sshStandIn(dir: string): Promise<{ command: string; hangFile: string; logFile: string }> {
  await fs.mkdir(dir, { recursive: true });
  const script = path.join(dir, 'fake-ssh.sh');
  const hangFile = path.join(dir, 'hang');
  const logFile = path.join(dir, 'ssh.log');
  await fs.writeFile(
    script,
    `#!/bin/sh
[ "$1" = "-G" ] && exit 1
for last; do :; done
echo "$last" >> '${logFile}'
i=0
while [ -e '${hangFile}' ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done
exec sh -c "$last"
`,
    { mode: 0o755 },
  );
  return { command: script, hangFile, logFile };
}

export interface HttpsGitServer {
  /** `https://127.0.0.1:<port>/<name>` for a bare repo under the root. */
  url(name: string): string;
  /** PEM of the self-signed certificate, for GIT_SSL_CAINFO. */
  caFile: string;
  /** Users that authenticated, in order. */
  authenticated: string[];
  /** Requests refused with 401. */
  refused: number;
  /** Every Authorization header received, in order (to prove where a token did or did not go). */
  authorizations: string[];
  /** Every request, as `METHOD /path?query`, in order (to prove nothing was fetched or pushed). */
  requests: string[];
  /** Called while a push (receive-pack POST) is in flight, before git http-backend runs. */
  onReceivePack: (() => void | Promise<void>) | null;
  /** When set, a push is refused by the server with this message (an ERR packet). */
  rejectWith: string | null;
  close(): Promise<void>;
}

async function selfSignedCertificate(dir: string): Promise<{ key: string; cert: string; caFile: string }> {
  const keyFile = path.join(dir, 'key.pem');
  const certFile = path.join(dir, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2',
    '-keyout', keyFile, '-out', certFile,
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
  ], { stdio: 'ignore' });
  return { key: await fs.readFile(keyFile, 'utf8'), cert: await fs.readFile(certFile, 'utf8'), caFile: certFile };
}

/** Splits CGI output into status, headers and body. */
function parseCgi(out: Buffer): { status: number; headers: Record<string, string>; body: Buffer } {
  let end = out.indexOf('\r\n\r\n');
  let sep = 4;
  if (end < 0) {
    end = out.indexOf('\n\n');
    sep = 2;
  }
  const head = out.subarray(0, end).toString('latin1');
  const headers: Record<string, string> = {};
  let status = 200;
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i < 0) continue;
    const name = line.slice(0, i).trim();
    const value = line.slice(i + 1).trim();
    if (name.toLowerCase() === 'status') status = Number(value.split(' ')[0]);
    else headers[name] = value;
  }
  return { status, headers, body: out.subarray(end + sep) };
}

/** With `token: null` the remote takes anyone (a vault that names it needs no credentials on the device). */
export async function startHttpsGitServer(options: { root: string; certDir: string; username: string; token: string | null }): Promise<HttpsGitServer> {
  const { key, cert, caFile } = await selfSignedCertificate(options.certDir);
  const expected = options.token === null ? null : 'Basic ' + Buffer.from(`${options.username}:${options.token}`).toString('base64');
  const state: HttpsGitServer = {
    url: (name) => `https://127.0.0.1:${port}/${name}`,
    caFile,
    authenticated: [],
    refused: 0,
    authorizations: [],
    requests: [],
    onReceivePack: null,
    rejectWith: null,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
  const server = https.createServer({ key, cert }, (req, res) => {
    void (async () => {
      state.requests.push(`${req.method} ${req.url}`);
      if (req.headers.authorization) state.authorizations.push(req.headers.authorization);
      if (expected !== null && req.headers.authorization !== expected) {
        state.refused++;
        req.resume();
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"', 'content-type': 'text/plain' });
        res.end('authentication required\n');
        return;
      }
      state.authenticated.push(options.username);
      const url = new URL(req.url ?? '/', 'https://127.0.0.1');
      if (state.rejectWith && url.searchParams.get('service') === 'git-receive-pack') {
        req.resume();
        const pkt = (text: string) => (Buffer.byteLength(text) + 4).toString(16).padStart(4, '0') + text;
        res.writeHead(200, { 'content-type': 'application/x-git-receive-pack-advertisement', 'cache-control': 'no-cache' });
        res.end(pkt('# service=git-receive-pack\n') + '0000' + pkt(`ERR ${state.rejectWith}\n`));
        return;
      }
      const body: Buffer[] = [];
      for await (const chunk of req) body.push(chunk as Buffer);
      if (url.pathname.endsWith('/git-receive-pack') && state.onReceivePack) await state.onReceivePack();
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: options.root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method,
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: options.username,
        REMOTE_ADDR: '127.0.0.1',
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      };
      const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
      const out: Buffer[] = [];
      child.stdout.on('data', (d: Buffer) => out.push(d));
      // git http-backend may exit before reading its input (a refused request): no EPIPE crash.
      child.stdin.on('error', () => {});
      child.stdin.end(Buffer.concat(body));
      await new Promise((r) => child.once('close', r));
      const parsed = parseCgi(Buffer.concat(out));
      res.writeHead(parsed.status, parsed.headers);
      res.end(parsed.body);
    })().catch((err) => {
      res.writeHead(500);
      res.end(String(err));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const port = (server.address() as AddressInfo).port;
  return state;
}

/** Every running process whose command line contains `needle` (reads /proc/<pid>/cmdline). */
export function processesWith(needle: string): Array<{ pid: number; cmdline: string }> {
  const found: Array<{ pid: number; cmdline: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let cmdline: string;
    try {
      cmdline = readFileSync(`/proc/${entry}/cmdline`).toString('utf8').split('\0').join(' ');
    } catch {
      continue;
    }
    if (cmdline.includes(needle)) found.push({ pid: Number(entry), cmdline });
  }
  return found;
}

/** Walks a folder and returns the files whose bytes contain `needle`. */
export async function filesContaining(dir: string, needle: string): Promise<string[]> {
  const hits: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const entry of await fs.readdir(d, { withFileTypes: true })) {
      const abs = path.join(d, entry.name);
      if (entry.isDirectory()) await walk(abs);
      else if (entry.isFile() && (await fs.readFile(abs)).includes(needle)) hits.push(abs);
    }
  };
  await walk(dir);
  return hits;
}
