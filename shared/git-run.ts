// The one module that spawns git, for the admin (sync, history) and the site (creation times) (STYLE.md, "Layout": one owner per concept).
// A fixed argument list, never a shell (spec 5.5); a scrubbed environment; for network
// calls the token travels only through GIT_ASKPASS plus variables of that one git
// process (spec 5.4); timeouts kill the whole process group; errors are scrubbed.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  applyPins,
  basePins,
  CONFIG_QUERY,
  filterNames,
  filterPins,
  gitRunnerSettings,
  mayRunFilters,
  parseConfigList,
  untrustedRepoSetting,
  withDiffSwitches,
} from './git-safety.ts';
import { addSecret, scrub } from './log.ts';

export interface NetworkAuth {
  /** Access token for an HTTPS remote (never on a command line). */
  token: string | null;
  username: string | null;
  /** SERVICE_GIT_SSH_COMMAND, passed verbatim as GIT_SSH_COMMAND (spec 5.5). */
  sshCommand: string | null;
  /**
   * The remote's authority (`host` or `host:port`) as its URL writes it: the askpass
   * script answers only a prompt for it, so a URL rewritten by the vault's config
   * (`url.*.insteadOf`), a redirect or a proxy never receives the token.
   */
  host?: string | null;
}

export interface GitOptions {
  /** Working directory: the vault. */
  cwd: string;
  /** Set for calls that talk to a remote (fetch, push): askpass, protocol limits. */
  network?: NetworkAuth;
  timeoutMs?: number;
  /** Exit codes that are answers rather than failures (e.g. 1 for `diff --quiet`). */
  okCodes?: number[];
  /** Aborts the call (the service is stopping): the process group is killed. */
  signal?: AbortSignal;
  maxBytes?: number;
}

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A failed git call, already scrubbed of the token and URL user info. */
export class GitError extends Error {
  constructor(
    /** git's own error line, scrubbed (what the status panel shows). */
    readonly line: string,
    readonly code: number | null,
    readonly stderr: string,
    readonly timedOut = false,
  ) {
    super(line);
    this.name = 'GitError';
  }

  /** What the remote itself printed (its `remote:` lines), scrubbed: a refusal's only reason. */
  get remote(): string[] {
    return remoteLines(this.stderr);
  }
}

const MAX_REMOTE_LINES = 30;
const MAX_REMOTE_LINE = 400;

/**
 * The remote's own lines out of git's stderr (`remote: …`, a pre-receive hook's reason),
 * without the prefix, control characters or blank lines, at most 30 of 400 characters.
 */
export function remoteLines(stderr: string): string[] {
  const out: string[] = [];
  for (const raw of stderr.split(/\r?\n|\r/)) {
    const m = /^\s*remote:(.*)$/.exec(raw);
    if (!m) continue;
    // A remote writes what it likes: no terminal escapes or stray controls reach a page or the log.
    const text = scrub(m[1]!.replace(/\x1b\[[0-9;]*[A-Za-z]/g, '').replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')).replace(/^ /, '').trimEnd();
    if (text.trim() === '') continue;
    if (out.length === MAX_REMOTE_LINES) {
      out.push('…');
      break;
    }
    out.push(text.length > MAX_REMOTE_LINE ? `${text.slice(0, MAX_REMOTE_LINE)}…` : text);
  }
  return out;
}

const LOCAL_TIMEOUT_MS = 10 * 60_000;
const MAX_BYTES = 64 * 1024 * 1024;

/** Variables of the token's one git process; read by the askpass script. */
const TOKEN_VAR = 'SERVICE_GIT_TOKEN';
const USER_VAR = 'SERVICE_GIT_USERNAME';
const HOST_VAR = 'SERVICE_GIT_HOST';

/**
 * GIT_* variables kept from the server's environment. Everything else named GIT_*
 * goes, which covers spec 5.5's list (GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE, object
 * directories, GIT_CONFIG* with GIT_CONFIG_COUNT/KEY_n/VALUE_n, GIT_SSH,
 * GIT_SSH_COMMAND, GIT_PROXY_COMMAND, GIT_EXTERNAL_DIFF) and traces that could print
 * an Authorization header.
 */
const KEPT_GIT_VARS = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_SSL_CAINFO',
  'GIT_SSL_CAPATH',
]);

/** The environment of a git process (exported for the unit test). */
export function gitEnvironment(
  parent: NodeJS.ProcessEnv,
  vaultDir: string,
  network: NetworkAuth | undefined,
  askpass: string | null,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(parent)) {
    if (value === undefined) continue;
    if (key.toUpperCase().startsWith('GIT_') && !KEPT_GIT_VARS.has(key)) continue;
    if (key === TOKEN_VAR || key === USER_VAR || key === HOST_VAR || key === 'SSH_ASKPASS') continue;
    env[key] = value;
  }
  // Never discover a repository above the vault; git messages in one language to parse.
  env.GIT_CEILING_DIRECTORIES = path.dirname(path.resolve(vaultDir));
  env.LC_ALL = 'C';
  env.LANGUAGE = 'C';
  env.GIT_TERMINAL_PROMPT = '0';
  env.GIT_PAGER = 'cat';
  env.GIT_EDITOR = 'true';
  env.GIT_MERGE_AUTOEDIT = 'no';
  if (network) {
    if (network.sshCommand) env.GIT_SSH_COMMAND = network.sshCommand;
    if (askpass) env.GIT_ASKPASS = askpass;
    if (network.token) {
      env[TOKEN_VAR] = network.token;
      env[USER_VAR] = network.username || 'git';
      if (network.host) env[HOST_VAR] = network.host;
    }
  }
  return env;
}

/**
 * `-c` options for every call, and the stricter ones for network calls (spec 5.4).
 * What git may run is pinned separately (git-safety.ts), through the environment.
 */
export function gitConfigArgs(network: boolean): string[] {
  const args = ['--no-pager', '-c', 'core.quotepath=off', '-c', 'color.ui=false', '-c', 'core.pager=cat'];
  // A protocol's own setting beats protocol.allow: the ones git knows are each named. A local
  // call talks to no one: a fetch it starts by itself (a partial clone's missing objects) is refused.
  const remote = network ? 'always' : 'never';
  args.push(
    '-c', 'protocol.allow=never',
    '-c', 'protocol.ext.allow=never',
    '-c', 'protocol.file.allow=never',
    '-c', 'protocol.git.allow=never',
    '-c', 'protocol.fd.allow=never',
    '-c', 'protocol.http.allow=never',
    '-c', `protocol.https.allow=${remote}`,
    '-c', `protocol.ssh.allow=${remote}`,
  );
  if (network) {
    args.push(
      // The prompt the askpass script answers names no path (runnerFiles).
      '-c', 'credential.useHttpPath=false',
      // A transfer stalled for a minute ends: its git-remote-https would otherwise wait on a
      // hung remote for good once the git above it is gone.
      '-c', 'http.lowSpeedLimit=1',
      '-c', 'http.lowSpeedTime=60',
    );
  }
  return args;
}

let runnerDir: { askpass: string; emptyHooks: string } | null = null;

/**
 * The helpers' folder name for a process: `vs-git-<pid namespace>-<pid>-`. A process killed
 * outright (SIGKILL, an out-of-memory kill, a power cut) runs no exit handler and leaves its
 * folder; the next process to make one removes the folders of processes of its own pid
 * namespace (/proc/self/ns/pid) that no longer run. Elsewhere nothing is swept.
 */
function pidNamespace(): string | null {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? null;
  } catch {
    return null;
  }
}

const RUNNER_FOLDER = /^vs-git-(\d+)-(\d+)-[A-Za-z0-9]{6}$/;

function sweepLeftFolders(tmp: string, namespace: string): void {
  let names: string[];
  try {
    names = readdirSync(tmp);
  } catch {
    return;
  }
  for (const name of names) {
    const m = RUNNER_FOLDER.exec(name);
    if (!m || m[1] !== namespace || Number(m[2]) === process.pid) continue;
    try {
      process.kill(Number(m[2]), 0);
      continue; // still running (or another user's: EPERM)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ESRCH') continue;
    }
    const dir = path.join(tmp, name);
    try {
      const stat = lstatSync(dir);
      if (stat.isDirectory() && stat.uid === process.getuid?.()) rmSync(dir, { recursive: true, force: true });
    } catch {
      // gone already, or not ours to remove
    }
  }
}

/**
 * This process's own helpers, made once: the askpass script (it holds no secret, it
 * echoes variables of its own process) and an empty folder standing in for hooks.
 */
function runnerFiles(): { askpass: string; emptyHooks: string } {
  if (runnerDir) return runnerDir;
  const namespace = pidNamespace();
  const dir = mkdtempSync(path.join(os.tmpdir(), namespace ? `vs-git-${namespace}-${process.pid}-` : 'vs-git-'));
  if (namespace) sweepLeftFolders(os.tmpdir(), namespace);
  const askpass = path.join(dir, 'askpass.sh');
  const emptyHooks = path.join(dir, 'no-hooks');
  mkdirSync(emptyHooks, { mode: 0o700 });
  // printf is a shell builtin, so the token never becomes an argument of a process.
  // git's prompt names the URL it authenticates to: answer only the two prompts for the
  // remote's own authority, word for word. A prompt naming a path (credential.useHttpPath,
  // and a url.*.insteadOf in the vault's config leading elsewhere, once put `//host` in the
  // path of another host's URL) or another user matches neither and gets nothing.
  writeFileSync(
    askpass,
    [
      '#!/bin/sh',
      'case "$1" in',
      `  "Username for 'https://$${HOST_VAR}': ") printf '%s\\n' "$${USER_VAR}" ;;`,
      `  "Password for 'https://$${USER_VAR}@$${HOST_VAR}': ") printf '%s\\n' "$${TOKEN_VAR}" ;;`,
      '  *) exit 1 ;;',
      'esac',
      '',
    ].join('\n'),
    { mode: 0o700 },
  );
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  runnerDir = { askpass, emptyHooks };
  return runnerDir;
}

/** The askpass script git is given, and the variables it reads (test/unit/git-askpass.test.ts). */
export function askpassForTests(): { file: string; vars: { token: string; user: string; host: string } } {
  return { file: runnerFiles().askpass, vars: { token: TOKEN_VAR, user: USER_VAR, host: HOST_VAR } };
}

/** git's own error line out of its stderr: the rejection, else fatal:, else error:. */
export function errorLine(stderr: string): string {
  const raw = stderr.split(/\r?\n/);
  const lines = raw.map((l) => l.trim()).filter((l) => l && !l.startsWith('hint:'));
  const pick =
    lines.find((l) => /^! \[(remote )?rejected\]/.test(l)) ??
    lines.find((l) => l.startsWith('fatal:')) ??
    lines.find((l) => l.startsWith('error:')) ??
    lines[lines.length - 1] ??
    'git failed without a message';
  // "error: Your local changes to the following files would be overwritten by merge:" names
  // them on the indented lines after it: the line says which, at most five.
  if (pick.endsWith(':')) {
    const at = raw.findIndex((l) => l.trim() === pick);
    const named: string[] = [];
    for (let i = at + 1; at >= 0 && i < raw.length && /^\s+\S/.test(raw[i]!); i++) named.push(raw[i]!.trim());
    if (named.length > 0) return scrub(`${pick} ${named.slice(0, 5).join(', ')}${named.length > 5 ? ` and ${named.length - 5} more` : ''}`);
  }
  return scrub(pick);
}

function registerSecrets(network: NetworkAuth | undefined): void {
  if (!network?.token) return;
  addSecret(network.token);
  addSecret(encodeURIComponent(network.token));
  // The Authorization header git sends (a remote may echo it), and the token alone, in
  // base64 without the padding, which a remote may drop.
  const base64 = (text: string) => Buffer.from(text).toString('base64').replace(/(?<!=)=+$/, '');
  addSecret(base64(`${network.username || 'git'}:${network.token}`));
  addSecret(base64(network.token));
}

/** Runs `git <args>` in the vault. Throws GitError unless the exit code is 0 or in okCodes. */
export async function runGit(args: string[], options: GitOptions): Promise<GitResult> {
  registerSecrets(options.network);
  const network = options.network !== undefined;
  const files = runnerFiles();
  const env = gitEnvironment(process.env, options.cwd, options.network, network ? files.askpass : null);
  const timeoutMs = options.timeoutMs ?? (network ? gitRunnerSettings().networkTimeoutMs : LOCAL_TIMEOUT_MS);
  const pins = basePins(files.emptyHooks);
  applyPins(env, pins);
  if (!gitRunnerSettings().repoPrograms) {
    // Every setting git will read, asked with the pins already set (the question runs
    // nothing). A config git cannot read fails here with git's own error, as the call would.
    const entries = parseConfigList((await spawnGit(CONFIG_QUERY, { cwd: options.cwd, signal: options.signal }, env, timeoutMs)).stdout);
    const untrusted = untrustedRepoSetting(entries);
    if (untrusted) {
      throw new GitError(
        `the vault's own git config sets ${untrusted}, which could send the vault or its token elsewhere, run a program or work outside the vault: git stays off for this vault until it is removed (or SERVICE_GIT_HOOKS=on trusts it)`,
        null,
        '',
      );
    }
    const names = mayRunFilters(args) ? filterNames(entries) : [];
    if (names.length) applyPins(env, [...pins, ...filterPins(names)]);
  }
  return spawnGit(withDiffSwitches(args), options, env, timeoutMs);
}

/**
 * util-linux's setpriv, which every Debian has: git started through it is killed when the
 * server dies, however it dies. Detached (below) and left alone, a git outlived a server
 * killed with SIGKILL: a push to a hung remote went on for good, the token in its
 * environment, beside the next server's own pass (a reviewer's find). Elsewhere, plain git.
 */
const DIES_WITH_SERVER = process.platform === 'linux' && existsSync('/usr/bin/setpriv') ? '/usr/bin/setpriv' : null;

function spawnGit(args: string[], options: GitOptions, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<GitResult> {
  const argv = [...gitConfigArgs(options.network !== undefined), ...args];
  const maxBytes = options.maxBytes ?? MAX_BYTES;
  return new Promise<GitResult>((resolve, reject) => {
    // detached: its own session, so ssh can never prompt on the server's terminal,
    // and a timeout can kill git with every helper it started.
    const [program, programArgs] = DIES_WITH_SERVER ? [DIES_WITH_SERVER, ['--pdeathsig', 'KILL', '--', 'git', ...argv]] : ['git', argv];
    const child = spawn(program, programArgs, { cwd: options.cwd, env, shell: false, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let size = 0;
    let timedOut = false;
    let overflow = false;
    const killGroup = () => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => killGroup();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        overflow = true;
        killGroup();
        return;
      }
      into.push(chunk);
    };
    child.stdout!.on('data', collect(out));
    child.stderr!.on('data', collect(err));
    child.once('error', (e) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(new GitError(scrub(`could not run git: ${e.message}`), null, ''));
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      const stdout = Buffer.concat(out).toString('utf8');
      const stderr = scrub(Buffer.concat(err).toString('utf8'));
      if (timedOut) return reject(new GitError(`git ${args[0]} took longer than ${Math.round(timeoutMs / 1000)} s and was stopped`, null, stderr, true));
      if (overflow) return reject(new GitError(`git ${args[0]} printed more than ${maxBytes} bytes`, null, stderr));
      if (options.signal?.aborted) return reject(new GitError(`git ${args[0]} was stopped because the server is stopping`, null, stderr));
      const exit = code ?? -1;
      if (exit === 0 || options.okCodes?.includes(exit)) return resolve({ code: exit, stdout, stderr });
      // The vault's absolute path says nothing useful to the panel: name it <vault>.
      const line = errorLine(stderr).split(path.resolve(options.cwd)).join('<vault>');
      reject(new GitError(line, exit, stderr));
    });
  });
}
