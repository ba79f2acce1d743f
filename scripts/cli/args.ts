// The command line of `vault-service`: its commands, their flags (the settings table of
// shared/config.ts plus each command's own switches), parsing with node:util's parseArgs,
// and the help text, all made from the same tables.
import { parseArgs } from 'node:util';
import { CONFIG_OPTIONS, settingFlags, type ConfigCommand } from '../../shared/config.ts';

export type CommandName = 'start' | 'build' | 'set-password' | 'hash-password';

interface Switch {
  help: string;
}

interface CommandSpec {
  summary: string;
  /** Positional arguments, as the usage line shows them. */
  args: string | null;
  /** Whose settings it takes from the table (none for hash-password). */
  settings: ConfigCommand | null;
  switches: Record<string, Switch>;
}

export const COMMANDS: Record<CommandName, CommandSpec> = {
  start: { summary: 'Serve the public site and the admin app on one port', args: null, settings: 'start', switches: {} },
  build: {
    summary: 'Write the public site as static files for any static host',
    args: null,
    settings: 'build',
    switches: {
      strict: { help: 'Fail (exit 1, nothing written) on any warning, or without SITE_URL' },
      quiet: { help: 'No progress and no summary; warnings and errors still go to stderr' },
    },
  },
  'set-password': { summary: 'Store the admin password, as a hash, in the data directory', args: '[PASSWORD]', settings: 'set-password', switches: {} },
  'hash-password': { summary: 'Print a password hash for ADMIN_PASSWORD_HASH', args: '[PASSWORD]', settings: null, switches: {} },
};

const NAMES = Object.keys(COMMANDS) as CommandName[];

/** A command line that cannot run: one line naming what is wrong (exit code 2). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command: CommandName | null = null,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export type Parsed =
  | { kind: 'help'; command: CommandName | null }
  | { kind: 'version' }
  | { kind: 'run'; command: CommandName; values: Record<string, string | boolean | undefined>; positionals: string[] };

function options(command: CommandName) {
  const spec = COMMANDS[command];
  const out: Record<string, { type: 'string' | 'boolean'; short?: string }> = spec.settings ? settingFlags(spec.settings) : {};
  for (const name of Object.keys(spec.switches)) out[name] = { type: 'boolean' };
  out.help = { type: 'boolean', short: 'h' };
  return out;
}

/** parseArgs' errors as one line naming the flag. */
function usageLine(err: unknown, command: CommandName): string {
  const e = err as { code?: string; message?: string };
  const flag = /'(-[^' ]+)/.exec(e.message ?? '')?.[1] ?? '';
  switch (e.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION': {
      const owners = NAMES.filter((n) => n !== command && flag.slice(2) in options(n));
      return owners.length ? `${flag} is not an option of "${command}" (it is one of "${owners.join('", "')}")` : `unknown option ${flag} for "${command}"`;
    }
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(e.message ?? '') ? `${flag} takes no value` : `${flag} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(e.message ?? '')?.[1] ?? ''} for "${command}"`;
    default:
      return e.message ?? String(err);
  }
}

export function parseCommandLine(argv: string[]): Parsed {
  const [first, ...rest] = argv;
  if (first === undefined) throw new UsageError('a command is needed');
  if (first === '--help' || first === '-h' || first === 'help') {
    const about = rest[0] as CommandName | undefined;
    return { kind: 'help', command: about && NAMES.includes(about) ? about : null };
  }
  if (first === '--version' || first === '-v') return { kind: 'version' };
  if (!NAMES.includes(first as CommandName)) {
    throw new UsageError(first.startsWith('-') ? `unknown option ${first.split('=')[0]}` : `unknown command "${first}"`);
  }
  const command = first as CommandName;
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: rest, options: options(command), strict: true, allowPositionals: COMMANDS[command].args !== null });
  } catch (err) {
    throw new UsageError(usageLine(err, command), command);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (values.help) return { kind: 'help', command };
  if (parsed.positionals.length > 1) throw new UsageError(`unexpected argument ${parsed.positionals[1]} for "${command}"`, command);
  return { kind: 'run', command, values, positionals: parsed.positionals };
}

// ── help ──────────────────────────────────────────────────────────────────────────────

function table(rows: [string, string][]): string[] {
  const w = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([a, b]) => `  ${a.padEnd(w)}  ${b}`.trimEnd());
}

/** Each setting as two lines: the flag, its variable, default (and commands in the full help); then what it does. */
function settingLines(command: ConfigCommand | null): string[] {
  return CONFIG_OPTIONS.filter((o) => o.flag && (command === null || o.commands.includes(command))).flatMap((o) => {
    const notes = [o.fallback ? `default ${o.fallback}` : null, command === null ? o.commands.join(', ') : null].filter(Boolean);
    return [`  --${o.flag} ${o.value}, ${o.env}${notes.length ? ` (${notes.join('; ')})` : ''}`, `      ${o.help}`];
  });
}

function usageLines(only: CommandName | null): string[] {
  const names = only ? [only] : NAMES;
  const rows = names.map((n): [string, string] => [`vault-service ${n} ${COMMANDS[n].args ?? '[options]'}`, COMMANDS[n].summary]);
  const w = Math.max(...rows.map((r) => r[0].length));
  return rows.map(([a, b]) => `  ${a.padEnd(w)}  ${b}`);
}

/** The short usage printed after a usage error. */
export function usage(command: CommandName | null): string {
  return ['Usage:', ...usageLines(command), `Run "vault-service ${command ? `${command} ` : ''}--help" for the options.`].join('\n') + '\n';
}

const EXIT_CODES = 'Exit codes: 0 done; 1 failed (a build that failed or, with --strict, had warnings;\na bad environment variable); 2 a bad command line.';

/** `vault-service --help`, or one command's. */
export function helpText(command: CommandName | null, version: string): string {
  const lines = [`vault-service ${version}: publish a folder of Markdown notes as a blog, edit it safely, back it up.`, '', 'Usage:', ...usageLines(command)];
  if (!command) lines.push('  vault-service --help | --version', '  vault-service COMMAND --help');
  const settings = command ? COMMANDS[command].settings : null;
  if (!command || settings) {
    lines.push('', 'Settings: each flag or the environment variable named after it (the flag wins).', ...settingLines(settings));
  }
  for (const name of command ? [command] : NAMES) {
    const switches = Object.entries(COMMANDS[name].switches);
    if (switches.length) lines.push('', `${name}:`, ...table(switches.map(([flag, s]) => [`--${flag}`, s.help])));
  }
  const envOnly = CONFIG_OPTIONS.filter((o) => !o.flag && (command === null || (settings !== null && o.commands.includes(settings))));
  if (envOnly.length) {
    lines.push('', 'Only from the environment (a command line is visible to every user of the machine):', ...table(envOnly.map((o) => [o.env, o.help])));
  }
  lines.push('', EXIT_CODES);
  return lines.join('\n') + '\n';
}
