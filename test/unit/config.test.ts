// One config module validates every variable; a bad value names it.
import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_OPTIONS, ConfigError, loadConfig } from '../../shared/config.ts';

const load = (env: Record<string, string>, argv: string[] = []) => loadConfig(env, argv, '/srv/app');

/**
 * Real folders and files: an operator's theme or config must exist. Those named while the
 * tests are collected are made before the first runs, so a run that filters them all out
 * (vitest then runs no hook of the file) leaves nothing behind.
 */
const scratch = path.join(os.tmpdir(), `vs-config-${randomUUID()}`);
const pending: [string, 'folder' | 'file'][] = [];
let running = false;
const make = (p: string, kind: 'folder' | 'file') => (kind === 'folder' ? mkdirSync(p, { recursive: true }) : writeFileSync(p, 'export default () => {};\n'));
const made = (name: string, kind: 'folder' | 'file') => {
  const p = path.join(scratch, name);
  if (running) make(p, kind);
  else pending.push([p, kind]);
  return p;
};
beforeAll(() => {
  mkdirSync(scratch);
  for (const [p, kind] of pending) make(p, kind);
  running = true;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('defaults (CONTRACT §1)', () => {
  it('vault ./vault, data ./data, 127.0.0.1:8080, versions on, public, BLOG_LOCALE en', () => {
    const c = load({});
    expect(c.vaultDir).toBe('/srv/app/vault');
    expect(c.dataDir).toBe('/srv/app/data');
    expect(c.host).toBe('127.0.0.1');
    expect(c.port).toBe(8080);
    expect(c.noteVersions).toBe(true);
    expect(c.isPublic).toBe(true);
    expect(c.blogLocale).toBe('en');
    expect(c.siteOut).toBe(path.resolve('/srv/app/_site'));
  });

  it('--vault wins over VAULT', () => {
    expect(load({ VAULT: '/a' }, ['--vault', '/b']).vaultDir).toBe('/b');
    expect(load({ VAULT: '/a' }, ['--vault=/c']).vaultDir).toBe('/c');
    expect(load({ VAULT: '/a' }).vaultDir).toBe('/a');
  });

  it('reads every spec 2.1 variable', () => {
    const c = load({
      SERVICE_DATA: '/d',
      SERVICE_GIT_SSH_COMMAND: 'ssh -i key',
      NOTE_VERSIONS: 'off',
      PUBLIC_LAYOUT: 'blog',
      PUBLIC: 'false',
      SITE_NAME: 'Name',
      SITE_TAGLINE: 'Tag',
      SITE_FOOTER: '© {year} {siteName}',
      SITE_LANG: 'ar',
      SITE_URL: 'https://example.org/',
      HOME_NOTE: 'Home.md',
      BLOG_LOCALE: 'ar-EG',
      EXCLUDE_TAGS: 'private, #draft',
      COMMENTS: 'on',
      ALLOWED_HOSTS: ' Blog.Example, localhost:8080 ,,',
    });
    expect(c).toMatchObject({
      allowedHosts: ['blog.example', 'localhost:8080'],
      dataDir: '/d',
      gitSshCommand: 'ssh -i key',
      noteVersions: false,
      publicLayout: 'blog',
      isPublic: false,
      siteName: 'Name',
      siteTagline: 'Tag',
      siteFooter: '© {year} {siteName}',
      siteLang: 'ar',
      siteUrl: 'https://example.org',
      homeNote: 'Home.md',
      blogLocale: 'ar-EG',
      excludeTags: ['private', 'draft'],
      comments: true,
    });
  });
});

describe('a flag wins over its environment variable, for every setting of the table', () => {
  // Two valid values of each kind of setting (the table's placeholder): one for the variable, one for the flag.
  const VALUES: Record<string, [fromEnv: string, fromFlag: string]> = {
    DIR: [made('from-env', 'folder'), made('from-flag', 'folder')],
    FILE: [made('env.config.mjs', 'file'), made('flag.config.mjs', 'file')],
    URL: ['https://env.example', 'https://flag.example'],
    ADDRESS: ['127.0.0.2', '0.0.0.0'],
    NUMBER: ['1000', '2000'],
    HASH: ['scrypt$from-env', 'scrypt$from-flag'],
    'true|false': ['false', 'true'],
    'on|off': ['off', 'on'],
    LAYOUT: ['default', 'blog'],
    TEXT: ['from env', 'from flag'],
    NOTE: ['Env.md', 'Flag.md'],
    COMMAND: ['ssh -i env-key', 'ssh -i flag-key'],
    CODE: ['en', 'ar'],
    'TAG,TAG': ['env-a, env-b', 'flag-c'],
    SECONDS: ['10', '20'],
    'HOST,HOST': ['env.example', 'flag.example:8080,[::1]'],
    'ADDRESS,ADDRESS': ['9.9.9.9', '127.0.0.1:5353,[::1]:53'],
  };
  const flagged = CONFIG_OPTIONS.filter((o) => o.flag);

  it('every setting with a flag has values of its kind here', () => {
    expect(flagged.filter((o) => !VALUES[o.value]).map((o) => `${o.env} (${o.value})`)).toEqual([]);
  });

  it.each(flagged.map((o) => [o.flag!, o.env, o.value] as const))('--%s over %s (%s)', (flag, env, kind) => {
    const [fromEnv, fromFlag] = VALUES[kind]!;
    const both = load({ [env]: fromEnv }, [`--${flag}`, fromFlag]);
    // The two values give different configurations, and with both given it is the flag's.
    expect(load({ [env]: fromFlag })).not.toEqual(load({ [env]: fromEnv }));
    expect(both).toEqual(load({ [env]: fromFlag }));
    expect(load({ [env]: fromEnv }, [`--${flag}=${fromFlag}`])).toEqual(both);
  });
});

describe('a bad value stops the start with one line naming the variable', () => {
  const bad: [string, string][] = [
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['NOTE_VERSIONS', 'maybe'],
    ['PUBLIC', 'sometimes'],
    ['COMMENTS', 'yes please'],
    ['PUBLIC_LAYOUT', 'magazine'],
    ['SITE_URL', 'not a url'],
    ['SITE_URL', 'ftp://example.org'],
    ['SITE_URL', 'https://user:pw@example.org'],
    ['BLOG_LOCALE', 'not a locale!'],
    ['SITE_LANG', '12'],
    ['ADMIN_PASSWORD_HASH', 'plaintext'],
    ['ALLOWED_HOSTS', 'blog.example,<script>'],
    ['ALLOWED_HOSTS', 'https://blog.example'],
    ['WEBMENTION_DNS', 'dns.example'],
    ['WEBMENTION_DNS', '127.0.0.1:99999'],
  ];
  it.each(bad)('%s=%j', (name, value) => {
    let error: unknown;
    try {
      load({ [name]: value });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).variable).toBe(name);
    expect((error as Error).message.startsWith(`${name}:`)).toBe(true);
    expect((error as Error).message).not.toContain('\n');
  });
});

describe('an operator\'s theme and Eleventy config (CONTRACT §16)', () => {
  const vault = made('vault', 'folder');
  const data = made('data', 'folder');
  const at = (env: Record<string, string>) => loadConfig({ VAULT: vault, SERVICE_DATA: data, ...env }, [], scratch);
  const refusal = (env: Record<string, string>) => {
    try {
      at(env);
    } catch (err) {
      return (err as ConfigError).message;
    }
    return 'accepted';
  };

  it('are read as real absolute paths, relative to the working folder', () => {
    made('theme', 'folder');
    made('site.config.mjs', 'file');
    expect(at({ SITE_THEME: 'theme', SITE_ELEVENTY_CONFIG: './site.config.mjs' })).toMatchObject({ siteTheme: path.join(scratch, 'theme'), siteEleventyConfig: path.join(scratch, 'site.config.mjs') });
  });

  it('must exist, as a folder and a file', () => {
    expect(refusal({ SITE_THEME: 'nowhere' })).toMatch(/^SITE_THEME: must name an existing folder/);
    expect(refusal({ SITE_THEME: 'site.config.mjs' })).toMatch(/^SITE_THEME: must name an existing folder/);
    expect(refusal({ SITE_ELEVENTY_CONFIG: 'theme' })).toMatch(/^SITE_ELEVENTY_CONFIG: must name an existing file/);
  });

  it('are refused inside the vault or the data directory, through a link too', () => {
    mkdirSync(path.join(vault, 'theme'), { recursive: true });
    writeFileSync(path.join(data, 'x.mjs'), '');
    symlinkSync(path.join(vault, 'theme'), path.join(scratch, 'linked-theme'));
    expect(refusal({ SITE_THEME: path.join(vault, 'theme') })).toMatch(/must be outside the vault and the data directory/);
    expect(refusal({ SITE_THEME: vault })).toMatch(/must be outside the vault and the data directory/);
    expect(refusal({ SITE_ELEVENTY_CONFIG: path.join(data, 'x.mjs') })).toMatch(/must be outside the vault and the data directory/);
    expect(refusal({ SITE_THEME: 'linked-theme' })).toMatch(/must be outside the vault and the data directory/);
  });
});
