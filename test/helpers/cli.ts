// The `vault-service` command line run as a user runs it: its own process, a clean
// environment with `env` on top, its exit code and both streams whole.
import { spawn } from 'node:child_process';
import { childEnv, CLI_BIN, PROJECT_DIR } from './server.ts';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `vault-service …args`, with `env` on top of a clean one and `input` on its stdin. */
export function cli(args: string[], env: Record<string, string | undefined> = {}, input = ''): Promise<CliRun> {
  return new Promise((resolve) => {
    const proc = spawn(process.execPath, [CLI_BIN, ...args], { cwd: PROJECT_DIR, env: childEnv(env) });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    proc.stdin.end(input);
    proc.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
