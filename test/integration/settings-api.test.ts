// CONTRACT §5, spec 2.1, 2.2, 4.3, 5.4: GET/PATCH /api/settings on the real server.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { serverForFile } from '../helpers/server.ts';
import { writeFiles, filesUnder } from '../helpers/tmp.ts';

const TOKEN = 'ghp_settingsApiTestToken0123456789';

async function readIfAny(file: string): Promise<Buffer | null> {
  return fs.readFile(file).catch(() => null);
}

const server = serverForFile({ env: { SITE_NAME: 'Env Site', SITE_TAGLINE: 'From the environment', SETTINGS_MIRROR_SECONDS: '60' } });
beforeAll(async () => {
  await writeFiles(server.vault, { 'Note.md': '---\ntitle: Note\n---\nText.\n' });
});

const settingsJson = () => path.join(server.data, 'settings.json');

describe('GET /api/settings', () => {
  it('answers every group with its defaults, tokenSet, and the values this server\'s environment supplies', async () => {
    const res = await server.admin('GET', '/api/settings');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      siteName: 'Env Site',
      tagline: 'From the environment',
      folders: { templates: 'Templates' },
      home: { mode: 'note', banner: null },
      publishing: { shareButtons: true, languageFilter: false },
      collections: { enabled: false, showOnHome: true, showInNav: false, source: 'tags' },
      versions: { keep: null },
      sync: { enabled: false, remoteUrl: null, branch: 'main', pullFirst: false, intervalMinutes: 0 },
      tokenSet: false,
    });
    expect(res.body.fromEnv).toEqual(expect.arrayContaining(['siteName', 'tagline']));
  });

  it('a value from the environment belongs to this server alone: it is not written to settings.json or the vault', async () => {
    await server.admin('POST', '/api/sync/travel');
    expect(await readIfAny(settingsJson())).toBeNull();
    expect(await readIfAny(path.join(server.vault, '.service', 'settings.json'))).toBeNull();
  });

  it('saving it writes it to settings.json, so it travels, and it is no longer reported as from the environment', async () => {
    const res = await server.admin('PATCH', '/api/settings', { siteName: 'Env Site' });
    expect(res.status).toBe(200);
    expect(res.body.siteName).toBe('Env Site');
    expect(res.body.fromEnv).not.toContain('siteName');
    expect(res.body.fromEnv).toContain('tagline');
    expect(JSON.parse(await fs.readFile(settingsJson(), 'utf8'))).toEqual({ siteName: 'Env Site' });
    await server.admin('POST', '/api/sync/travel');
    const vaultCopy = JSON.parse(await fs.readFile(path.join(server.vault, '.service', 'settings.json'), 'utf8'));
    expect(vaultCopy).toEqual({ siteName: 'Env Site' });
    expect(JSON.stringify(vaultCopy)).not.toContain('From the environment');
  });

  it('settings.json is written at mode 0600', async () => {
    expect((await fs.stat(settingsJson())).mode & 0o777).toBe(0o600);
  });
});

describe('PATCH /api/settings applies a partial object live', () => {
  it('groups merge deeply: setting home.mode keeps the banner, and the answer is the result', async () => {
    await server.admin('PATCH', '/api/settings', { home: { banner: 'https://example.org/banner.jpg' } });
    const res = await server.admin('PATCH', '/api/settings', { home: { mode: 'dashboard' } });
    expect(res.status).toBe(200);
    expect(res.body.home).toEqual({ mode: 'dashboard', banner: 'https://example.org/banner.jpg' });
    expect((await server.admin('GET', '/api/settings')).body.home).toEqual(res.body.home);
  });

  it('null unsets a saved value (the environment fills it again)', async () => {
    const res = await server.admin('PATCH', '/api/settings', { siteName: null });
    expect(res.body.siteName).toBe('Env Site');
    expect(res.body.fromEnv).toContain('siteName');
    expect(JSON.parse(await fs.readFile(settingsJson(), 'utf8')).siteName).toBeUndefined();
  });

  it('Keep note versions off takes effect on the next request', async () => {
    expect((await server.admin('GET', '/api/versions?path=Note.md')).body.enabled).toBe(true);
    await server.admin('PATCH', '/api/settings', { versions: { keep: false } });
    expect((await server.admin('GET', '/api/versions?path=Note.md')).body.enabled).toBe(false);
    await server.admin('PATCH', '/api/settings', { versions: { keep: null } });
    expect((await server.admin('GET', '/api/versions?path=Note.md')).body.enabled).toBe(true);
  });

  it('every group accepts its valid values', async () => {
    const patch = {
      tagline: 'Notes and essays',
      logo: 'assets/logo.png',
      language: 'ar',
      homeNote: 'Home.md',
      footer: '© {year} {siteName}',
      folders: { templates: 'Meta/Templates' },
      typography: { bodyFont: 'Inter', size: 18, catalogFamilies: ['Inter'] },
      calendars: { dates: 'gregorian' },
      publishing: { layout: 'blog', shareButtons: false, languageFilter: true },
      collections: { enabled: true, showOnHome: false, showInNav: true, source: 'folders' },
      sync: { enabled: true, remoteUrl: 'https://example.org/me/notes.git', branch: 'notes/main', pullFirst: true, intervalMinutes: 1440 },
    };
    const res = await server.admin('PATCH', '/api/settings', patch);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject(patch);
    await server.admin('PATCH', '/api/settings', { sync: { enabled: false } });
  });
});

describe('the git token is write-only', () => {
  it('PATCH sync.token stores it in git-credentials.json (0600) only; reads show tokenSet', async () => {
    const res = await server.admin('PATCH', '/api/settings', { sync: { token: TOKEN, username: 'octo' } });
    expect(res.status).toBe(200);
    expect(res.body.tokenSet).toBe(true);
    expect(res.text).not.toContain(TOKEN);
    const creds = path.join(server.data, 'git-credentials.json');
    // Bound to the host of the saved remote (see sync-token-host.test.ts).
    expect(JSON.parse(await fs.readFile(creds, 'utf8'))).toEqual({ token: TOKEN, username: 'octo', host: 'example.org', authority: 'example.org' });
    expect((await fs.stat(creds)).mode & 0o777).toBe(0o600);
    expect(await fs.readFile(settingsJson(), 'utf8')).not.toContain(TOKEN);
    const get = await server.admin('GET', '/api/settings');
    expect(get.body.tokenSet).toBe(true);
    expect(get.text).not.toContain(TOKEN);
  });

  it('the token never reaches the vault, the log, or any file under .service/', async () => {
    await server.admin('POST', '/api/sync/travel');
    const files = await filesUnder(path.join(server.vault, '.service'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      expect(path.basename(file)).not.toBe('git-credentials.json');
      expect(await fs.readFile(file, 'utf8')).not.toContain(TOKEN);
    }
    expect(server.output()).not.toContain(TOKEN);
  });

  it('changing the username keeps the pair in step; null is Clear token', async () => {
    await server.admin('PATCH', '/api/settings', { sync: { username: 'other' } });
    const creds = path.join(server.data, 'git-credentials.json');
    expect(JSON.parse(await fs.readFile(creds, 'utf8')).username).toBe('other');
    const res = await server.admin('PATCH', '/api/settings', { sync: { token: null } });
    expect(res.body.tokenSet).toBe(false);
    expect(await readIfAny(creds)).toBeNull();
  });
});

describe('PATCH validation: every bad input is a 400 naming the field, and nothing is written', () => {
  const bad: Array<[unknown, string, string?]> = [
    [{ colour: 'red' }, 'colour', 'unknown_setting'],
    [{ siteName: 42 }, 'siteName'],
    [{ siteName: 'x'.repeat(201) }, 'siteName'],
    [{ tagline: ['a'] }, 'tagline'],
    [{ logo: 'javascript:alert(1)' }, 'logo'],
    [{ logo: 'http://example.org/logo.png' }, 'logo'],
    [{ language: 'not a language!' }, 'language'],
    [{ homeNote: '../outside.md' }, 'homeNote'],
    [{ footer: {} }, 'footer'],
    [{ folders: { templates: '/etc' } }, 'folders.templates'],
    [{ folders: { drafts: 'Drafts' } }, 'folders.drafts', 'unknown_setting'],
    [{ typography: 'Inter' }, 'typography'],
    [{ typography: { bodyFont: { name: 'Inter' } } }, 'typography.bodyFont'],
    [{ calendars: { 'bad key!': 'x' } }, 'calendars.bad key!', 'unknown_setting'],
    [{ home: 'dashboard' }, 'home'],
    [{ home: { mode: 'grid' } }, 'home.mode'],
    [{ home: { banner: 'ftp://example.org/b.png' } }, 'home.banner'],
    [{ home: { hero: true } }, 'home.hero', 'unknown_setting'],
    [{ publishing: { layout: 'fancy' } }, 'publishing.layout'],
    [{ publishing: { shareButtons: 'yes' } }, 'publishing.shareButtons'],
    [{ collections: { source: 'categories' } }, 'collections.source'],
    [{ collections: { enabled: 1 } }, 'collections.enabled'],
    [{ versions: { keep: 'no' } }, 'versions.keep'],
    [{ sync: null }, 'sync'],
    [{ sync: { enabled: 'true' } }, 'sync.enabled'],
    [{ sync: { intervalMinutes: 10 } }, 'sync.intervalMinutes'],
    [{ sync: { pullFirst: null } }, 'sync.pullFirst'],
    [{ sync: { secret: 'x' } }, 'sync.secret', 'unknown_setting'],
    [{ sync: { remoteUrl: 'https://user:hunter2@example.org/a/b.git' } }, 'sync.remoteUrl', 'bad_remote'],
    [{ sync: { remoteUrl: 'ftp://example.org/repo' } }, 'sync.remoteUrl', 'bad_remote'],
    [{ sync: { remoteUrl: 'https://example.org/a;rm -rf ~' } }, 'sync.remoteUrl', 'bad_remote'],
    [{ sync: { branch: 'bad branch' } }, 'sync.branch', 'bad_branch'],
    [{ sync: { branch: 'a..b' } }, 'sync.branch', 'bad_branch'],
    [{ sync: { branch: 7 } }, 'sync.branch', 'bad_branch'],
    [{ sync: { token: 'two words' } }, 'sync.token'],
    [{ sync: { token: 12345 } }, 'sync.token'],
    // A valid field beside a bad one: the valid one is not saved either.
    [{ siteName: 'Half saved', home: { mode: 'x' } }, 'home.mode'],
    [{ sync: { token: 'ghp_notStoredBecauseOfTheBranch123', branch: 'x y' } }, 'sync.branch', 'bad_branch'],
  ];

  it(`${bad.length} bad inputs`, async () => {
    await server.admin('PATCH', '/api/settings', { siteName: 'Before the table', home: { mode: 'note' } });
    const before = await fs.readFile(settingsJson());
    const beforeStat = await fs.stat(settingsJson());
    for (const [body, field, code] of bad) {
      const res = await server.admin('PATCH', '/api/settings', body);
      const label = JSON.stringify(body);
      expect(res.status, label).toBe(400);
      expect(res.body.field, label).toBe(field);
      expect(res.body.code, label).toBe(code ?? 'bad_setting');
      expect(res.body.error, label).toEqual(expect.any(String));
      expect((await fs.readFile(settingsJson())).equals(before), label).toBe(true);
    }
    expect((await fs.stat(settingsJson())).mtimeMs).toBe(beforeStat.mtimeMs);
    expect(await readIfAny(path.join(server.data, 'git-credentials.json'))).toBeNull();
  });

  it('a refusal names why as a stable word with its figures, for the app to say in the owner\'s language', async () => {
    const cases: Array<[unknown, Record<string, unknown>]> = [
      [{ siteName: 'x'.repeat(201) }, { field: 'siteName', reason: 'too_long', max: 200 }],
      [{ tagline: 'a\u0007b' }, { field: 'tagline', reason: 'control_characters' }],
      [{ logo: 'http://example.org/logo.png' }, { field: 'logo', reason: 'not_https_or_vault' }],
      [{ home: { banner: 'https://me:pw@example.org/b.png' } }, { field: 'home.banner', reason: 'credentials_in_address' }],
      [{ homeNote: '../outside.md' }, { field: 'homeNote', reason: 'not_a_vault_path' }],
      [{ language: 'arabic' }, { field: 'language', reason: 'not_a_language', value: 'arabic' }],
      [{ publishing: { layout: 'fancy' } }, { field: 'publishing.layout', reason: 'not_one_of' }],
      [{ siteName: 42 }, { field: 'siteName', reason: 'not_text' }],
    ];
    for (const [body, named] of cases) {
      const res = await server.admin('PATCH', '/api/settings', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body, JSON.stringify(body)).toMatchObject({ code: 'bad_setting', error: expect.any(String), ...named });
    }
  });

  it('a body that is not a JSON object is a 400', async () => {
    const cookie = await server.login();
    for (const payload of ['[1,2]', '"text"', '{"siteName":']) {
      const res = await fetch(server.url + '/api/settings', {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', cookie },
        body: payload,
      });
      expect(res.status, payload).toBe(400);
    }
  });
});

describe('admin only', () => {
  it('a visitor can neither read nor change settings, preferences or the travel report', async () => {
    for (const [method, route, body] of [
      ['GET', '/api/settings'],
      ['PATCH', '/api/settings', { siteName: 'Visitor' }],
      ['GET', '/api/prefs'],
      ['PUT', '/api/prefs', { keys: { theme: 'dark' } }],
      ['GET', '/api/sync/travel'],
      ['POST', '/api/sync/travel'],
    ] as const) {
      const res = await server.api(method, route, body);
      expect(res.status, `${method} ${route}`).toBe(401);
    }
    expect(JSON.parse(await fs.readFile(settingsJson(), 'utf8')).siteName).toBe('Before the table');
  });
});
