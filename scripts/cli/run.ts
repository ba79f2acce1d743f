// Runs one `vault-service` command line: parse, then the command; every way it can end
// maps to one exit code (0 done, 1 failed, 2 a bad command line) and, on failure, one line.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, configFrom, flagValues, type Config } from '../../shared/config.ts';
import { PROJECT_DIR } from '../../shared/project-dir.ts';
import { failureText } from './failure.ts';
import { COMMANDS, helpText, parseCommandLine, usage, UsageError, type CommandName } from './args.ts';

export function packageVersion(): string {
  return (JSON.parse(readFileSync(path.join(PROJECT_DIR, 'package.json'), 'utf8')) as { version: string }).version;
}

function usageFailure(message: string, command: CommandName | null): number {
  process.stderr.write(`vault-service: ${message}\n${usage(command)}`);
  return 2;
}

/** Runs the command; answers its exit code, or null for `start` (the server keeps running). */
export async function runCommandLine(argv: string[]): Promise<number | null> {
  let parsed;
  try {
    parsed = parseCommandLine(argv);
  } catch (err) {
    if (err instanceof UsageError) return usageFailure(err.message, err.command);
    throw err;
  }
  if (parsed.kind === 'help') {
    process.stdout.write(helpText(parsed.command, packageVersion()));
    return 0;
  }
  if (parsed.kind === 'version') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  const { command, values, positionals } = parsed;
  let config: Config;
  try {
    config = configFrom(process.env, COMMANDS[command].settings ? flagValues(values) : {});
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    if (err.fromFlag) return usageFailure(err.message, command);
    process.stderr.write(`vault-service: configuration error: ${err.message}\n`);
    return 1;
  }
  switch (command) {
    case 'start': {
      const { startCommand } = await import('./start.ts');
      await startCommand(config);
      return null;
    }
    case 'build': {
      const { buildCommand } = await import('./build.ts');
      return buildCommand(config, { strict: values.strict === true, quiet: values.quiet === true });
    }
    case 'set-password': {
      const { setPasswordCommand } = await import('./passwords.ts');
      return setPasswordCommand(config, positionals[0]);
    }
    case 'hash-password': {
      const { hashPasswordCommand } = await import('./passwords.ts');
      return hashPasswordCommand(positionals[0]);
    }
  }
}

/** The process's whole life for a command line: exits with the command's code when it is done. */
export async function runCli(argv: string[]): Promise<void> {
  let code: number | null;
  try {
    code = await runCommandLine(argv);
  } catch (err) {
    // Something broke (a template, the disk, a taken port): a failure, told with its cause, never a usage error.
    process.stderr.write(failureText(argv[0] ?? '', err));
    code = 1;
  }
  if (code !== null) {
    await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
    process.exit(code);
  }
}

/**
 * Once all written to `stream` has reached the system. Node holds what a pipe takes no more
 * of (a CI log reader slower than the build): exiting then lost it, and a build of 30,000
 * notes printed 678 of its 6,001 warning lines, the last cut in half.
 */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0 || stream.destroyed) resolve();
    else stream.write('', () => resolve());
  });
}
