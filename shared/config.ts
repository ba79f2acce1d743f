// The one place that reads the configuration (CONTRACT §1, spec 2.1). One table names every
// setting: its environment variable, its command-line flag, the commands that take it and
// its help line. A flag wins over the variable. Every value is validated here; a bad one
// stops the command with one line naming the flag or the variable it came from.
import { realpathSync, statSync } from 'node:fs';
import { isIP } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';

export type PublicLayout = 'default' | 'blog' | 'designed';

export interface Config {
  /** Absolute path of the vault folder. */
  vaultDir: string;
  /** Absolute path of the data directory (SERVICE_DATA). */
  dataDir: string;
  host: string;
  port: number;
  adminPasswordHash: string | null;
  adminPassword: string | null;
  gitSshCommand: string | null;
  /** SERVICE_GIT_HOOKS=on: git may run the programs the vault's .git/ names (hooks, filters…; git-lfs needs it). */
  gitHooks: boolean;
  /** Longest a fetch or push may take, in ms (SERVICE_GIT_TIMEOUT_SECONDS). */
  gitNetworkTimeoutMs: number;
  /** Instance default for the local version store (NOTE_VERSIONS). */
  noteVersions: boolean;
  publicLayout: PublicLayout | null;
  isPublic: boolean;
  siteName: string | null;
  siteTagline: string | null;
  siteFooter: string | null;
  siteLang: string | null;
  siteUrl: string | null;
  /** ALLOWED_HOSTS: the only Host names answered (421 for any other), lower case; null answers every name. */
  allowedHosts: string[] | null;
  homeNote: string | null;
  blogLocale: string;
  excludeTags: string[];
  comments: boolean;
  /** WEBMENTION_ALLOW_PRIVATE=on: a webmention source may be on a loopback or private network (tests). */
  webmentionAllowPrivate: boolean;
  /** WEBMENTION_DNS: the name servers the webmention checker asks (address or address:port); null for the system's. */
  webmentionDns: string[] | null;
  siteOut: string;
  /** Base URL the font catalog families are downloaded from. */
  fontCatalogUrl: string | null;
  /** Seconds between two passes of the settings mirror into `.service/` (spec 8: every few seconds). */
  settingsMirrorSeconds: number;
  /** SITE_THEME: a folder whose templates and includes override the site's by name (CONTRACT §16); never in the vault or the data directory. */
  siteTheme: string | null;
  /** SITE_ELEVENTY_CONFIG: an operator's Eleventy config function, run after the site's (CONTRACT §16); never in the vault or the data directory. */
  siteEleventyConfig: string | null;
}

/** The commands of `vault-service` that read the configuration. */
export type ConfigCommand = 'start' | 'build' | 'set-password';

export interface ConfigOption {
  /** The environment variable (CONTRACT §1, spec 2.1). */
  env: string;
  /** The flag without `--`; null for a value that must not be on a command line (a password). */
  flag: string | null;
  /** The value's placeholder in the help text. */
  value: string;
  /** Used when neither the flag nor the variable is given (and shown in the help). */
  fallback?: string;
  commands: readonly ConfigCommand[];
  help: string;
}

const SERVER: readonly ConfigCommand[] = ['start'];
const SITE: readonly ConfigCommand[] = ['start', 'build'];

export const CONFIG_OPTIONS: readonly ConfigOption[] = [
  { env: 'VAULT', flag: 'vault', value: 'DIR', fallback: './vault', commands: SITE, help: 'The vault folder. `start` creates it from the example vault when missing.' },
  { env: 'SERVICE_DATA', flag: 'data', value: 'DIR', fallback: './data', commands: ['start', 'build', 'set-password'], help: 'The data directory. Keep it outside the vault.' },
  { env: 'SITE_OUT', flag: 'out', value: 'DIR', fallback: './_site', commands: ['build'], help: 'Where `build` writes the static site (a folder it wrote before is replaced).' },
  { env: 'SITE_URL', flag: 'site-url', value: 'URL', commands: SITE, help: 'Base of absolute URLs in the feed, sitemap, robots.txt and SEO tags.' },
  { env: 'ALLOWED_HOSTS', flag: 'allowed-hosts', value: 'HOST,HOST', commands: SERVER, help: 'The only Host names answered (any other gets 421); a name without a port takes any port. Set it or SITE_URL behind a proxy.' },
  { env: 'HOST', flag: 'host', value: 'ADDRESS', fallback: '127.0.0.1', commands: SERVER, help: 'Address the server listens on.' },
  { env: 'PORT', flag: 'port', value: 'NUMBER', fallback: '8080', commands: SERVER, help: 'Port of the public site and the admin app.' },
  { env: 'ADMIN_PASSWORD_HASH', flag: 'admin-password-hash', value: 'HASH', commands: SERVER, help: 'Admin password hash from `hash-password`; wins over admin.json.' },
  { env: 'ADMIN_PASSWORD', flag: null, value: 'PASSWORD', commands: SERVER, help: 'Plain admin password (tests, containers) when there is no hash and no admin.json.' },
  { env: 'PUBLIC', flag: 'public', value: 'true|false', fallback: 'true', commands: SITE, help: '`false` makes the whole public site private.' },
  { env: 'PUBLIC_LAYOUT', flag: 'public-layout', value: 'LAYOUT', commands: SITE, help: '`default`, `blog` or `designed`.' },
  { env: 'SITE_NAME', flag: 'site-name', value: 'TEXT', commands: SITE, help: 'Site name.' },
  { env: 'SITE_TAGLINE', flag: 'site-tagline', value: 'TEXT', commands: SITE, help: 'Tagline under the site name.' },
  { env: 'SITE_FOOTER', flag: 'site-footer', value: 'TEXT', commands: SITE, help: 'Footer text; {year} and {siteName} are filled in.' },
  { env: 'SITE_LANG', flag: 'site-lang', value: 'CODE', commands: SITE, help: 'Language of the site frame; `ar` mirrors it right to left.' },
  { env: 'HOME_NOTE', flag: 'home-note', value: 'NOTE', commands: SITE, help: 'Note shown as the home page introduction.' },
  { env: 'BLOG_LOCALE', flag: 'blog-locale', value: 'CODE', fallback: 'en', commands: SITE, help: 'BCP 47 code for dates and the feed’s language.' },
  { env: 'EXCLUDE_TAGS', flag: 'exclude-tags', value: 'TAG,TAG', commands: SITE, help: 'Tags left out of the public topic row, topic pages and tag chips.' },
  { env: 'COMMENTS', flag: 'comments', value: 'on|off', fallback: 'off', commands: SITE, help: 'Comments under articles.' },
  { env: 'SITE_THEME', flag: 'theme', value: 'DIR', commands: SITE, help: 'A folder whose templates and includes override the site’s by file name (outside the vault).' },
  { env: 'SITE_ELEVENTY_CONFIG', flag: 'eleventy-config', value: 'FILE', commands: SITE, help: 'An Eleventy config function run after the site’s: plugins, filters, shortcodes (outside the vault).' },
  { env: 'WEBMENTION_ALLOW_PRIVATE', flag: 'webmention-allow-private', value: 'on|off', fallback: 'off', commands: SERVER, help: 'Accept webmentions from sources on loopback or private addresses (tests only).' },
  { env: 'WEBMENTION_DNS', flag: 'webmention-dns', value: 'ADDRESS,ADDRESS', commands: SERVER, help: 'Name servers the webmention checker asks (an address, or address:port), instead of the system’s.' },
  { env: 'NOTE_VERSIONS', flag: 'note-versions', value: 'on|off', fallback: 'on', commands: SERVER, help: 'The local version store, as this server’s default.' },
  { env: 'SERVICE_GIT_SSH_COMMAND', flag: 'git-ssh-command', value: 'COMMAND', commands: SERVER, help: 'ssh command handed to git as GIT_SSH_COMMAND.' },
  { env: 'SERVICE_GIT_HOOKS', flag: 'git-hooks', value: 'on|off', fallback: 'off', commands: SERVER, help: 'Let git run the programs the vault’s .git/ names (git-lfs needs it).' },
  { env: 'SERVICE_GIT_TIMEOUT_SECONDS', flag: 'git-timeout-seconds', value: 'SECONDS', fallback: '300', commands: SERVER, help: 'Longest a fetch or push may take.' },
  { env: 'FONT_CATALOG_URL', flag: 'font-catalog-url', value: 'URL', commands: SERVER, help: 'Base URL catalog font families are downloaded from.' },
  { env: 'SETTINGS_MIRROR_SECONDS', flag: 'settings-mirror-seconds', value: 'SECONDS', fallback: '5', commands: SERVER, help: 'Period of the settings mirror into the vault’s .service/.' },
];

/** A Host header's value: a DNS name or a bracketed IPv6 address, and an optional port (no markup can hide in it). */
export const HOST_NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,62}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

const BY_ENV = new Map(CONFIG_OPTIONS.map((o) => [o.env, o]));
const BY_FLAG = new Map(CONFIG_OPTIONS.filter((o) => o.flag).map((o) => [o.flag!, o]));

export class ConfigError extends Error {
  constructor(
    /** The flag (`--port`) or the environment variable (`PORT`) the bad value came from. */
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }

  /** True when the value came from the command line (a usage error). */
  get fromFlag(): boolean {
    return this.variable.startsWith('--');
  }
}

type Env = Record<string, string | undefined>;
/** Flag values by environment variable name, as the command line gave them. */
export type FlagValues = Record<string, string | undefined>;

/** Reads one setting: the flag, else the variable, else the table's fallback. */
class Settings {
  constructor(
    private readonly env: Env,
    private readonly flags: FlagValues,
  ) {}

  /** Where a value came from, for the error line. */
  private origin(name: string): string {
    const flag = BY_ENV.get(name)?.flag;
    return flag && this.flags[name] !== undefined ? `--${flag}` : name;
  }

  fail(name: string, message: string): never {
    throw new ConfigError(this.origin(name), message);
  }

  /** The given value (blank counts as not given), or null. */
  given(name: string): string | null {
    const value = this.flags[name] ?? this.env[name];
    if (value === undefined || value.trim() === '') return null;
    return value;
  }

  text(name: string): string | null {
    return this.given(name) ?? BY_ENV.get(name)?.fallback ?? null;
  }

  onOff(name: string, on: string[], off: string[]): boolean {
    const value = this.text(name)!;
    const v = value.trim().toLowerCase();
    if (on.includes(v)) return true;
    if (off.includes(v)) return false;
    this.fail(name, `must be ${[...on, ...off].map((s) => `"${s}"`).join(' or ')} (got ${JSON.stringify(value)})`);
  }

  port(name: string): number {
    const value = this.text(name)!;
    if (!/^\d{1,5}$/.test(value.trim()) || Number(value) > 65535) this.fail(name, `must be a whole number from 0 to 65535 (got ${JSON.stringify(value)})`);
    return Number(value);
  }

  httpUrl(name: string): string | null {
    const value = this.text(name);
    if (value === null) return null;
    let url: URL;
    try {
      url = new URL(value.trim());
    } catch {
      this.fail(name, `must be an absolute http(s) URL (got ${JSON.stringify(value)})`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') this.fail(name, `must be an http(s) URL (got ${JSON.stringify(value)})`);
    if (url.username || url.password) this.fail(name, 'must not carry a user name or password');
    return url.href.replace(/(?<!\/)\/+$/, '');
  }

  seconds(name: string, min: number, max: number): number {
    const value = this.text(name)!;
    const n = Number(value.trim());
    if (!/^\d+(\.\d+)?$/.test(value.trim()) || n < min || n > max) {
      this.fail(name, `must be a number of seconds from ${min} to ${max} (got ${JSON.stringify(value)})`);
    }
    return n;
  }

  locale(name: string): string | null {
    const value = this.text(name);
    if (value === null) return null;
    try {
      const [canonical] = Intl.getCanonicalLocales(value.trim());
      if (canonical) return canonical;
    } catch {
      /* fall through to the error below */
    }
    this.fail(name, `must be a BCP 47 language code such as "en" or "ar-EG" (got ${JSON.stringify(value)})`);
  }

  /** A comma list of name server addresses: `1.2.3.4`, `1.2.3.4:53`, `::1` or `[::1]:53`. */
  nameServers(name: string): string[] | null {
    const value = this.text(name);
    if (value === null) return null;
    const servers = value.split(',').map((h) => h.trim()).filter(Boolean);
    for (const server of servers) {
      const m = /^\[([^\]]+)\](?::(\d{1,5}))?$|^(\d+\.\d+\.\d+\.\d+)(?::(\d{1,5}))?$|^([0-9A-Fa-f:]+)$/.exec(server);
      const address = m ? (m[1] ?? m[3] ?? m[5])! : '';
      const port = m ? Number(m[2] ?? m[4] ?? 53) : 0;
      if (!isIP(address) || port < 1 || port > 65535) this.fail(name, `must be name server addresses such as "9.9.9.9" or "127.0.0.1:5353", separated by commas (got ${JSON.stringify(server)})`);
    }
    return servers.length ? servers : null;
  }

  /** A comma list of host names (an IPv6 address in brackets), each with an optional port. */
  hosts(name: string): string[] | null {
    const value = this.text(name);
    if (value === null) return null;
    const hosts = value.split(',').map((h) => h.trim().toLowerCase()).filter(Boolean);
    for (const h of hosts) if (!HOST_NAME.test(h)) this.fail(name, `must be host names such as "blog.example" or "localhost:8080", separated by commas (got ${JSON.stringify(h)})`);
    return hosts.length ? hosts : null;
  }

  /**
   * Operator code (a theme, an Eleventy config): an absolute path, of a folder or a file as
   * asked, outside `untrusted` (the vault and the data directory: a vault is hostile input,
   * and a Nunjucks template can run code).
   */
  operatorPath(name: string, kind: 'folder' | 'file', cwd: string, untrusted: string[]): string | null {
    const value = this.text(name);
    if (value === null) return null;
    const abs = path.resolve(cwd, value.trim());
    const stat = statSync(abs, { throwIfNoEntry: false });
    if (!stat || (kind === 'folder' ? !stat.isDirectory() : !stat.isFile())) this.fail(name, `must name an existing ${kind} (got ${JSON.stringify(value)})`);
    const real = realpathSync(abs);
    for (const dir of untrusted) {
      const inside = path.relative(realOrSelf(dir), real);
      if (inside === '' || (!inside.startsWith('..') && !path.isAbsolute(inside))) this.fail(name, `must be outside the vault and the data directory: a vault never supplies code (got ${JSON.stringify(value)})`);
    }
    return real;
  }

  layout(name: string): PublicLayout | null {
    const value = this.text(name);
    if (value === null) return null;
    const v = value.trim().toLowerCase();
    if (v === 'blog' || v === 'default' || v === 'designed') return v;
    this.fail(name, `must be "blog", "default" or "designed" (got ${JSON.stringify(value)})`);
  }
}

/** The configuration from the environment and flag values (a flag wins). */
export function configFrom(env: Env, flags: FlagValues = {}, cwd = process.cwd()): Config {
  const s = new Settings(env, flags);
  const hash = s.text('ADMIN_PASSWORD_HASH');
  if (hash !== null && !/^scrypt\$/.test(hash)) s.fail('ADMIN_PASSWORD_HASH', 'must be a hash printed by `vault-service hash-password` (starts with "scrypt$")');
  const on = ['on', 'true', '1'];
  const off = ['off', 'false', '0'];
  const untrusted = [path.resolve(cwd, s.text('VAULT')!), path.resolve(cwd, s.text('SERVICE_DATA')!)];
  return {
    vaultDir: path.resolve(cwd, s.text('VAULT')!),
    dataDir: path.resolve(cwd, s.text('SERVICE_DATA')!),
    host: s.text('HOST')!.trim(),
    port: s.port('PORT'),
    adminPasswordHash: hash,
    adminPassword: env.ADMIN_PASSWORD && env.ADMIN_PASSWORD.length > 0 ? env.ADMIN_PASSWORD : null,
    gitSshCommand: s.text('SERVICE_GIT_SSH_COMMAND'),
    gitHooks: s.onOff('SERVICE_GIT_HOOKS', on, off),
    gitNetworkTimeoutMs: s.seconds('SERVICE_GIT_TIMEOUT_SECONDS', 1, 86_400) * 1000,
    noteVersions: s.onOff('NOTE_VERSIONS', on, off),
    publicLayout: s.layout('PUBLIC_LAYOUT'),
    isPublic: s.onOff('PUBLIC', ['true', 'on', '1'], ['false', 'off', '0']),
    siteName: s.text('SITE_NAME'),
    siteTagline: s.text('SITE_TAGLINE'),
    siteFooter: s.text('SITE_FOOTER'),
    siteLang: s.locale('SITE_LANG'),
    siteUrl: s.httpUrl('SITE_URL'),
    allowedHosts: s.hosts('ALLOWED_HOSTS'),
    homeNote: s.text('HOME_NOTE'),
    blogLocale: s.locale('BLOG_LOCALE')!,
    excludeTags: (s.text('EXCLUDE_TAGS') ?? '')
      .split(',')
      .map((t) => t.trim().replace(/^#/, ''))
      .filter(Boolean),
    comments: s.onOff('COMMENTS', on, off),
    webmentionAllowPrivate: s.onOff('WEBMENTION_ALLOW_PRIVATE', on, off),
    webmentionDns: s.nameServers('WEBMENTION_DNS'),
    siteOut: path.resolve(cwd, s.text('SITE_OUT')!),
    fontCatalogUrl: s.httpUrl('FONT_CATALOG_URL'),
    settingsMirrorSeconds: s.seconds('SETTINGS_MIRROR_SECONDS', 0.2, 3600),
    siteTheme: s.operatorPath('SITE_THEME', 'folder', cwd, untrusted),
    siteEleventyConfig: s.operatorPath('SITE_ELEVENTY_CONFIG', 'file', cwd, untrusted),
  };
}

/** A folder's real path, or the path itself while it does not exist yet. */
function realOrSelf(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/** `util.parseArgs` options for the settings a command takes (every setting when none is named). */
export function settingFlags(command?: ConfigCommand): Record<string, { type: 'string' }> {
  const out: Record<string, { type: 'string' }> = {};
  for (const o of CONFIG_OPTIONS) if (o.flag && (!command || o.commands.includes(command))) out[o.flag] = { type: 'string' };
  return out;
}

/** The setting flags among parseArgs' values, by variable name. */
export function flagValues(values: Record<string, unknown>): FlagValues {
  const out: FlagValues = {};
  for (const [flag, value] of Object.entries(values)) {
    const option = BY_FLAG.get(flag);
    if (option && typeof value === 'string') out[option.env] = value;
  }
  return out;
}

/** The configuration from the environment and setting flags such as `--vault DIR` (a flag wins). */
export function loadConfig(env: Env = process.env, argv: string[] = [], cwd = process.cwd()): Config {
  const { values } = parseArgs({ args: argv, options: settingFlags(), strict: true, allowPositionals: false });
  return configFrom(env, flagValues(values), cwd);
}
