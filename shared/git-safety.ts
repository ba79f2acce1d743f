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
  // A nested repository's fetch or push would read its own config, which no check here reads.
  ['submodule.recurse', 'false'],
  ['fetch.recurseSubmodules', 'false'],
  ['push.recurseSubmodules', 'no'],
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
  'cat-file', 'log', 'diff-tree', 'remote', 'fetch', 'push', 'check-ignore', 'ls-remote', 'show-ref',
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

/** The call that lists every setting of every config file with its scope (includes followed). */
export const CONFIG_QUERY = ['config', '--null', '--list', '--show-scope', '--includes'];

export interface ConfigEntry {
  scope: string;
  /** Section and name lowercased by git, the subsection as written: `url.ext::x.insteadof`. */
  key: string;
  value: string;
}

/** CONFIG_QUERY's output: `scope\0key\nvalue\0` per setting. */
export function parseConfigList(stdout: string): ConfigEntry[] {
  const parts = stdout.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const line = parts[i + 1]!;
    const nl = line.indexOf('\n');
    entries.push({ scope: parts[i]!, key: nl < 0 ? line : line.slice(0, nl), value: nl < 0 ? '' : line.slice(nl + 1) });
  }
  return entries;
}

/** Filter drivers any config file defines: `filter.<name>.clean|smudge|process` → names. */
export function filterNames(entries: ConfigEntry[]): string[] {
  const names = new Set<string>();
  for (const { key } of entries) {
    const m = /^filter\.(.+)\.(clean|smudge|process)$/s.exec(key);
    if (m) names.add(m[1]!);
  }
  return [...names];
}

// The repository's own settings (`.git/config`, what it includes, a worktree's config) come
// with the vault, from anywhere. Pins cannot neutralise all of them: a `url.*.insteadOf`
// or a second `remote.origin.url` adds to what git does, `protocol.<name>.allow` beats
// `protocol.allow`, `http.proxy` with `http.sslVerify=false` hands the token to a proxy,
// `core.worktree` makes `add -A` stage another folder. So a vault's git settings are
// taken only from the list below (settings that name no program, address or outside
// folder, and those the pins above already neutralise); any other stops git for the
// vault with one sentence naming it. The machine's own system and global settings are
// the owner's and are trusted. SERVICE_GIT_HOOKS=on trusts the vault's too.

/** Sections whose every setting is safe to take from the vault, or neutralised by a pin or a switch. */
const SAFE_SECTIONS = new Set([
  'user', 'author', 'committer', 'init', 'pull', 'push', 'fetch', 'branch', 'rebase', 'rerere', 'advice', 'color',
  'column', 'gc', 'maintenance', 'pack', 'index', 'feature', 'extensions', 'lfs', 'filter', 'diff', 'difftool',
  'mergetool', 'commit', 'tag', 'log', 'status', 'format', 'blame', 'help', 'i18n', 'gui', 'credential', 'gpg',
  'submodule', 'include', 'includeif', 'transfer', 'receive', 'uploadpack', 'alias', 'pager', 'apply', 'grep',
  'add', 'stash', 'checkout', 'clone', 'notes', 'am', 'versionsort', 'repack', 'sparse', 'splitindex', 'ssh',
  'interactive', 'sequence', 'safe', 'worktree', 'reset', 'showbranch', 'web',
]);

/** core.* settings that are safe, or pinned above; `core.worktree` and `core.gitProxy` are not. */
const SAFE_CORE = new Set([
  'repositoryformatversion', 'filemode', 'logallrefupdates', 'ignorecase', 'precomposeunicode', 'symlinks',
  'autocrlf', 'safecrlf', 'eol', 'quotepath', 'checkstat', 'trustctime', 'untrackedcache', 'splitindex',
  'commitgraph', 'multipackindex', 'compression', 'loosecompression', 'bigfilethreshold', 'preloadindex',
  'fscache', 'longpaths', 'whitespace', 'abbrev', 'sharedrepository', 'protectntfs', 'protecthfs', 'excludesfile',
  'attributesfile', 'packedgitlimit', 'packedgitwindowsize', 'deltabasecachelimit', 'fsync', 'fsyncmethod',
  'fsyncobjectfiles', 'warnambiguousrefs', 'checkroundtripencoding', 'commentchar', 'commentstring',
  'fileslocktimeout', 'filesreflocktimeout', 'packedrefstimeout', 'sparsecheckout', 'sparsecheckoutcone',
  'notesref', 'hidedotfiles', 'restrictinheritedhandles', 'unsetenvvars', 'createobject', 'usereplacerefs',
  'fsmonitorhookversion', 'alternaterefsprefixes', 'hookspath', 'fsmonitor', 'sshcommand', 'askpass',
  'alternaterefscommand', 'pager', 'editor',
]);

/** remote.<name>.* settings that are safe; `pushurl`, `proxy`, `vcs` and a partial clone's `promisor` are not. upload/receivepack run on the remote's side (local transports are refused, on every call). */
const SAFE_REMOTE = new Set(['url', 'fetch', 'push', 'prune', 'prunetags', 'tagopt', 'mirror', 'skipdefaultupdate', 'skipfetchall', 'uploadpack', 'receivepack', 'followremotehead']);

/** http.* settings that only tune the transfer (`http.postBuffer` is common advice); the rest can redirect or expose it. */
const SAFE_HTTP = new Set(['postbuffer', 'version', 'lowspeedlimit', 'lowspeedtime', 'maxrequests', 'minsessions', 'useragent']);

function safeRepoSetting({ key, value }: ConfigEntry): boolean {
  const first = key.indexOf('.');
  const last = key.lastIndexOf('.');
  if (first < 0) return false;
  const section = key.slice(0, first);
  const name = key.slice(last + 1);
  const subsection = first === last ? null : key.slice(first + 1, last);
  switch (section) {
    case 'core':
      if (name === 'bare') return value.trim().toLowerCase() === 'false';
      return subsection === null && SAFE_CORE.has(name);
    case 'remote':
      return subsection !== null && SAFE_REMOTE.has(name);
    case 'http':
      return SAFE_HTTP.has(name);
    case 'merge':
      // merge.<driver>.driver is a program.
      return !(subsection !== null && name === 'driver');
    case 'extensions':
      // A partial clone fetches what it lacks from its promisor remote by itself, in any local
      // call: by that remote's upload-pack, a program the config names, for a local path.
      return name !== 'partialclone';
    default:
      return SAFE_SECTIONS.has(section);
  }
}

/**
 * The first setting of the vault's own git config that git may not take from it (null:
 * none), with SERVICE_GIT_HOOKS off. A second `remote.origin.url` counts: a push goes to
 * every URL a remote has.
 */
export function untrustedRepoSetting(entries: ConfigEntry[]): string | null {
  let originUrls = 0;
  for (const entry of entries) {
    if (entry.scope !== 'local' && entry.scope !== 'worktree') continue;
    if (!safeRepoSetting(entry)) return entry.key;
    if (entry.key === 'remote.origin.url' && ++originUrls > 1) return 'remote.origin.url (a second one)';
  }
  return null;
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
