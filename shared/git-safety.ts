// CONTRACT §11: git runs no program that the vault's own `.git/` names, unless
// SERVICE_GIT_HOOKS=on (git-lfs needs its filter and hooks). git reads programs from
// its configuration in many places; this module names each and pins it for every
// call of the one runner (shared/git-run.ts). Pins travel as GIT_CONFIG_COUNT/KEY/VALUE
// variables (command-line scope, which beats every config file, and takes any name).
export interface GitRunnerSettings {
  /** SERVICE_GIT_HOOKS=on: the vault's hooks, filters, fsmonitor and ssh command may run. */
  repoPrograms: boolean;
  /** Longest a fetch or push may take (SERVICE_GIT_TIMEOUT_SECONDS). */
  networkTimeoutMs: number;
}

export const DEFAULT_NETWORK_TIMEOUT_MS = 5 * 60_000;

const settings: GitRunnerSettings = { repoPrograms: false, networkTimeoutMs: DEFAULT_NETWORK_TIMEOUT_MS };

/** Called once at start with the configuration (the safe defaults hold until then). */
export function configureGitRunner(next: Partial<GitRunnerSettings>): void {
  Object.assign(settings, next);
}

export function gitRunnerSettings(): Readonly<GitRunnerSettings> {
  return settings;
}

export type ConfigPin = readonly [key: string, value: string];

/**
 * Pinned for every call whatever SERVICE_GIT_HOOKS says: no credential store or
 * prompt program reads or writes the token (spec 5.4), and signing stays off (gpg.program
 * and gpg.ssh.program are programs; an automatic backup signs nothing).
 */
const ALWAYS: ConfigPin[] = [
  ['credential.helper', ''], // an empty value also clears credential.<url>.helper read before it
  ['core.askPass', ''], // GIT_ASKPASS, set for network calls only, is ours and wins over this
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['push.gpgSign', 'false'],
  ['log.showSignature', 'false'],
  ['merge.verifySignatures', 'false'],
];

/** Pinned unless SERVICE_GIT_HOOKS=on: each names a program git would otherwise run. */
function repoProgramPins(emptyHooksDir: string): ConfigPin[] {
  return [
    ['core.hooksPath', emptyHooksDir], // every hook (post-commit, reference-transaction, pre-push…)
    ['core.fsmonitor', 'false'], // run by status, add, commit, fetch
    ['core.sshCommand', 'ssh'], // GIT_SSH_COMMAND (SERVICE_GIT_SSH_COMMAND) still wins
    ['core.alternateRefsCommand', 'true'], // run by fetch when objects/info/alternates exists
    // diff.external and diff.<driver>.command/textconv: withDiffSwitches turns them off.
    // git:// (core.gitProxy), ext:: and remote helpers: network calls allow https and ssh only.
    // uploadpack.packObjectsHook is honoured only outside the repository's own config, and we
    // never run upload-pack locally (file:// and local paths are refused): nothing to pin.
  ];
}

/** Subcommands that never read the working tree's contents, so no clean/smudge filter can run. */
const NO_FILTERS = new Set([
  '--version', 'version', 'init', 'config', 'rev-parse', 'symbolic-ref', 'rev-list', 'for-each-ref', 'update-ref',
  'cat-file', 'log', 'remote', 'fetch', 'push', 'check-ignore', 'ls-remote', 'show-ref',
]);

/** Subcommands that can run diff drivers (external diff, textconv): they get both switches. */
const DIFFING = new Set(['diff', 'log', 'show', 'diff-index', 'diff-tree', 'diff-files', 'whatchanged', 'format-patch']);

/** Index of the subcommand in `args` (global options, and `-c k=v` pairs, come first). */
export function subcommandIndex(args: string[]): number {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-c' || a === '-C') {
      i++;
      continue;
    }
    if (!a.startsWith('-') || a === '--version') return i;
  }
  return -1;
}

/** `args` with `--no-ext-diff --no-textconv` after a diffing subcommand: our reads want stored bytes. */
export function withDiffSwitches(args: string[]): string[] {
  const at = subcommandIndex(args);
  if (at < 0 || !DIFFING.has(args[at]!)) return args;
  return [...args.slice(0, at + 1), '--no-ext-diff', '--no-textconv', ...args.slice(at + 1)];
}

/** True when the call may read working-tree content through a filter driver. */
export function mayRunFilters(args: string[]): boolean {
  const at = subcommandIndex(args);
  return at >= 0 && !NO_FILTERS.has(args[at]!);
}

/** The call that lists every filter key any config file defines (includes followed). */
export const FILTER_KEYS_QUERY = ['config', '--null', '--name-only', '--get-regexp', '^filter\\.'];

/** Filter drivers any config file defines: `filter.<name>.clean|smudge|process` → names. */
export function filterNames(configNames: string): string[] {
  const names = new Set<string>();
  for (const key of configNames.split('\0')) {
    const m = /^filter\.(.+)\.(clean|smudge|process)$/s.exec(key.trim());
    if (m) names.add(m[1]!);
  }
  return [...names];
}

/** Empty commands disable a driver; a `required` one then fails the call, loudly, running nothing. */
export function filterPins(names: string[]): ConfigPin[] {
  return names.flatMap((n): ConfigPin[] => [
    [`filter.${n}.clean`, ''],
    [`filter.${n}.smudge`, ''],
    [`filter.${n}.process`, ''],
  ]);
}

/** The pins of one call, before filters are looked up. */
export function basePins(emptyHooksDir: string): ConfigPin[] {
  return settings.repoPrograms ? [...ALWAYS] : [...ALWAYS, ...repoProgramPins(emptyHooksDir)];
}

/** Writes pins into `env` as GIT_CONFIG_COUNT/KEY_n/VALUE_n. */
export function applyPins(env: NodeJS.ProcessEnv, pins: ConfigPin[]): NodeJS.ProcessEnv {
  env.GIT_CONFIG_COUNT = String(pins.length);
  pins.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return env;
}
