// The one place that reads the environment. Every variable is validated here;
// a bad value stops the start with one line naming the variable (CONTRACT §1, spec 2.1).
import path from 'node:path';

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
  homeNote: string | null;
  blogLocale: string;
  excludeTags: string[];
  comments: boolean;
  siteOut: string;
  /** Base URL the font catalog families are downloaded from. */
  fontCatalogUrl: string | null;
  /** Seconds between two passes of the settings mirror into `.service/` (spec 8: every few seconds). */
  settingsMirrorSeconds: number;
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

function text(env: Env, name: string): string | null {
  const value = env[name];
  if (value === undefined || value.trim() === '') return null;
  return value;
}

function onOff(env: Env, name: string, fallback: boolean, on: string[], off: string[]): boolean {
  const value = text(env, name);
  if (value === null) return fallback;
  const v = value.trim().toLowerCase();
  if (on.includes(v)) return true;
  if (off.includes(v)) return false;
  throw new ConfigError(name, `must be ${[...on, ...off].map((s) => `"${s}"`).join(' or ')} (got ${JSON.stringify(value)})`);
}

function port(env: Env): number {
  const value = text(env, 'PORT');
  if (value === null) return 8080;
  if (!/^\d{1,5}$/.test(value.trim()) || Number(value) > 65535) {
    throw new ConfigError('PORT', `must be a whole number from 0 to 65535 (got ${JSON.stringify(value)})`);
  }
  return Number(value);
}

function httpUrl(env: Env, name: string): string | null {
  const value = text(env, name);
  if (value === null) return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ConfigError(name, `must be an absolute http(s) URL (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(name, `must be an http(s) URL (got ${JSON.stringify(value)})`);
  }
  if (url.username || url.password) throw new ConfigError(name, 'must not carry a user name or password');
  return url.href.replace(/\/+$/, '');
}

function seconds(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = text(env, name);
  if (value === null) return fallback;
  const n = Number(value.trim());
  if (!/^\d+(\.\d+)?$/.test(value.trim()) || n < min || n > max) {
    throw new ConfigError(name, `must be a number of seconds from ${min} to ${max} (got ${JSON.stringify(value)})`);
  }
  return n;
}

function locale(env: Env, name: string, fallback: string): string {
  const value = text(env, name);
  if (value === null) return fallback;
  try {
    const [canonical] = Intl.getCanonicalLocales(value.trim());
    if (canonical) return canonical;
  } catch {
    /* fall through to the error below */
  }
  throw new ConfigError(name, `must be a BCP 47 language code such as "en" or "ar-EG" (got ${JSON.stringify(value)})`);
}

function layout(env: Env): PublicLayout | null {
  const value = text(env, 'PUBLIC_LAYOUT');
  if (value === null) return null;
  const v = value.trim().toLowerCase();
  if (v === 'blog' || v === 'default' || v === 'designed') return v;
  throw new ConfigError('PUBLIC_LAYOUT', `must be "blog", "default" or "designed" (got ${JSON.stringify(value)})`);
}

function vaultFromArgs(argv: string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--vault') {
      const next = argv[i + 1];
      if (!next) throw new ConfigError('--vault', 'needs a folder');
      return next;
    }
    if (arg.startsWith('--vault=')) return arg.slice('--vault='.length);
  }
  return null;
}

export function loadConfig(env: Env = process.env, argv: string[] = process.argv.slice(2), cwd = process.cwd()): Config {
  const vault = vaultFromArgs(argv) ?? text(env, 'VAULT') ?? './vault';
  const hash = text(env, 'ADMIN_PASSWORD_HASH');
  if (hash !== null && !/^scrypt\$/.test(hash)) {
    throw new ConfigError('ADMIN_PASSWORD_HASH', 'must be a hash printed by `npm run hash-password` (starts with "scrypt$")');
  }
  const siteLang = text(env, 'SITE_LANG');
  if (siteLang !== null) locale(env, 'SITE_LANG', 'en');
  return {
    vaultDir: path.resolve(cwd, vault),
    dataDir: path.resolve(cwd, text(env, 'SERVICE_DATA') ?? './data'),
    host: text(env, 'HOST')?.trim() ?? '127.0.0.1',
    port: port(env),
    adminPasswordHash: hash,
    adminPassword: env.ADMIN_PASSWORD && env.ADMIN_PASSWORD.length > 0 ? env.ADMIN_PASSWORD : null,
    gitSshCommand: text(env, 'SERVICE_GIT_SSH_COMMAND'),
    gitHooks: onOff(env, 'SERVICE_GIT_HOOKS', false, ['on', 'true', '1'], ['off', 'false', '0']),
    gitNetworkTimeoutMs: seconds(env, 'SERVICE_GIT_TIMEOUT_SECONDS', 300, 1, 86_400) * 1000,
    noteVersions: onOff(env, 'NOTE_VERSIONS', true, ['on', 'true', '1'], ['off', 'false', '0']),
    publicLayout: layout(env),
    isPublic: onOff(env, 'PUBLIC', true, ['true', 'on', '1'], ['false', 'off', '0']),
    siteName: text(env, 'SITE_NAME'),
    siteTagline: text(env, 'SITE_TAGLINE'),
    siteFooter: text(env, 'SITE_FOOTER'),
    siteLang: siteLang === null ? null : locale(env, 'SITE_LANG', 'en'),
    siteUrl: httpUrl(env, 'SITE_URL'),
    homeNote: text(env, 'HOME_NOTE'),
    blogLocale: locale(env, 'BLOG_LOCALE', 'en'),
    excludeTags: (text(env, 'EXCLUDE_TAGS') ?? '')
      .split(',')
      .map((t) => t.trim().replace(/^#/, ''))
      .filter(Boolean),
    comments: onOff(env, 'COMMENTS', false, ['on', 'true', '1'], ['off', 'false', '0']),
    siteOut: path.resolve(cwd, text(env, 'SITE_OUT') ?? './_site'),
    fontCatalogUrl: httpUrl(env, 'FONT_CATALOG_URL'),
    settingsMirrorSeconds: seconds(env, 'SETTINGS_MIRROR_SECONDS', 5, 0.2, 3600),
  };
}

/** `loadConfig` for an entry point: a bad value prints one line naming it and exits 1. */
export function loadConfigOrExit(env: Env = process.env, argv: string[] = process.argv.slice(2)): Config {
  try {
    return loadConfig(env, argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`vault-service: configuration error: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
}
