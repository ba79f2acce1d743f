// CONTRACT §5: a settings PATCH is validated field by field; a vault copy is vetted
// before adoption; the merge is deep and null unsets.
import { describe, expect, it } from 'vitest';
import {
  mergeSettings,
  SettingsError,
  siteSettingsOf,
  validateSettingsPatch,
  validateStoredSettings,
  withDefaults,
} from '../../shared/settings.ts';

const checks = {
  remoteUrl: (u: string) => (u.includes('@') && u.startsWith('https') ? { reason: 'remote_credentials', message: 'no credentials in the URL' } : null),
  branch: (b: string) => (b.includes('..') ? { reason: 'branch_dots', message: 'bad branch' } : null),
};

function failure(input: unknown): SettingsError {
  try {
    validateSettingsPatch(input, checks);
  } catch (err) {
    if (err instanceof SettingsError) return err;
    throw err;
  }
  throw new Error(`accepted: ${JSON.stringify(input)}`);
}

describe('a PATCH names the first bad field', () => {
  it('unknown keys at the top and inside groups', () => {
    expect(failure({ colour: 'red' })).toMatchObject({ field: 'colour', code: 'unknown_setting' });
    expect(failure({ home: { layout: 'x' } })).toMatchObject({ field: 'home.layout', code: 'unknown_setting' });
  });

  it('wrong types', () => {
    expect(failure({ siteName: 3 }).field).toBe('siteName');
    expect(failure({ home: 'dashboard' }).field).toBe('home');
    expect(failure({ sync: { intervalMinutes: 7 } }).field).toBe('sync.intervalMinutes');
    expect(failure({ typography: { size: { nested: 1 } } }).field).toBe('typography.size');
  });

  it('remote URL and branch refusals carry their own codes', () => {
    expect(failure({ sync: { remoteUrl: 'https://u:p@h/x.git' } })).toMatchObject({ field: 'sync.remoteUrl', code: 'bad_remote' });
    expect(failure({ sync: { branch: 'a..b' } })).toMatchObject({ field: 'sync.branch', code: 'bad_branch' });
    expect(failure({ sync: { branch: '' } })).toMatchObject({ field: 'sync.branch', code: 'bad_branch' });
  });
});

describe('CONTRACT §10 and feeds: calendars.display and publishing.feedContent', () => {
  it('take only their listed values; calendars keeps its free-form keys', () => {
    expect(failure({ calendars: { display: 'julian' } })).toMatchObject({ field: 'calendars.display', code: 'bad_setting' });
    expect(failure({ publishing: { feedContent: 'summary' } })).toMatchObject({ field: 'publishing.feedContent', code: 'bad_setting' });
    const v = validateSettingsPatch({ calendars: { display: 'hijri', dates: 'x' }, publishing: { feedContent: 'full' } }, checks);
    expect(v.patch).toEqual({ calendars: { display: 'hijri', dates: 'x' }, publishing: { feedContent: 'full' } });
    expect(validateSettingsPatch({ calendars: { display: null } }, checks).patch).toEqual({ calendars: { display: null } });
  });

  it('default to Gregorian dates and excerpts in the feed', () => {
    const site = siteSettingsOf(withDefaults({}), { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null });
    expect(site.calendar).toBe('gregorian');
    expect(site.publishing.feedContent).toBe('excerpt');
    const chosen = siteSettingsOf(withDefaults({ calendars: { display: 'both' }, publishing: { feedContent: 'full' } }), { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null });
    expect([chosen.calendar, chosen.publishing.feedContent]).toEqual(['both', 'full']);
  });
});

describe('publishing.properties: the properties panel on articles', () => {
  const env = { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null };
  it('takes off or shown, refuses anything else naming the field, and is off unless shown', () => {
    expect(failure({ publishing: { properties: true } })).toMatchObject({ field: 'publishing.properties', code: 'bad_setting' });
    expect(failure({ publishing: { properties: 'visible' } })).toMatchObject({ field: 'publishing.properties', code: 'bad_setting' });
    expect(validateSettingsPatch({ publishing: { properties: 'shown' } }, checks).patch).toEqual({ publishing: { properties: 'shown' } });
    expect(siteSettingsOf(withDefaults({}), env).publishing.properties).toBe('off');
    expect(siteSettingsOf(withDefaults({ publishing: { properties: 'shown' } }), env).publishing.properties).toBe('shown');
    // A settings.json edited by hand with another value shows nothing.
    expect(siteSettingsOf(withDefaults({ publishing: { properties: 'yes' } }), env).publishing.properties).toBe('off');
  });
});

describe('a valid PATCH is normalised', () => {
  it('the token is taken out of the patch', () => {
    const v = validateSettingsPatch({ sync: { token: 'abc123', username: 'me' } }, checks);
    expect(v.token).toBe('abc123');
    expect(v.patch).toEqual({ sync: { username: 'me' } });
    const cleared = validateSettingsPatch({ sync: { token: null } }, checks);
    expect(cleared.token).toBeNull();
    expect(cleared.patch).toEqual({});
  });

  it('empty text means unset; language codes are canonical', () => {
    const v = validateSettingsPatch({ tagline: '  ', language: 'AR-eg' }, checks);
    expect(v.patch).toEqual({ tagline: null, language: 'ar-EG' });
  });

  it('read-only keys of a GET answer sent back are ignored', () => {
    expect(validateSettingsPatch({ tokenSet: true, fromEnv: ['siteName'], siteName: 'x' }, checks).patch).toEqual({ siteName: 'x' });
  });
});

describe('deep merge', () => {
  it('groups merge key by key and null removes a saved value', () => {
    const stored = { siteName: 'A', home: { mode: 'dashboard', banner: 'b.png' }, future: { kept: true } };
    const merged = mergeSettings(stored, { siteName: null, home: { banner: null }, typography: { body: 'Inter' } });
    expect(merged).toEqual({ home: { mode: 'dashboard' }, future: { kept: true }, typography: { body: 'Inter' } });
    expect(withDefaults(merged).siteName).toBeNull();
    expect(withDefaults(merged).home).toEqual({ mode: 'dashboard', banner: null });
  });
});

describe('a settings.json from the vault is vetted before adoption', () => {
  it('keys a newer server wrote are carried, bad known values refuse the file', () => {
    expect(validateStoredSettings({ siteName: 'x', newThing: { a: 1 } }, checks)).toMatchObject({ newThing: { a: 1 } });
    expect(() => validateStoredSettings({ home: { mode: 'sideways' } }, checks)).toThrow(SettingsError);
    expect(() => validateStoredSettings({ sync: { remoteUrl: 'https://u:p@h/x.git' } }, checks)).toThrow(/credentials/);
  });

  it('a token smuggled into a vault copy is dropped', () => {
    expect(validateStoredSettings({ sync: { token: 'ghp_x', branch: 'main' } }, checks)).toEqual({ sync: { branch: 'main' } });
  });
});

describe('what a settings.json arriving with the vault may carry', () => {
  it('an unknown key nesting deeper than 32 levels is refused (200,000 levels once stopped every build); a shallow one is carried', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(() => validateStoredSettings({ siteName: 'Deep', zzz: deep })).toThrow(/nests deeper than 32 levels/);
    let shallow: unknown = 'x';
    for (let i = 0; i < 10; i++) shallow = { next: shallow };
    expect(validateStoredSettings({ siteName: 'Fine', future: shallow }).future).toEqual(shallow);
    expect(() => validateStoredSettings({ home: { later: deep } })).toThrow(/nests deeper/);
  });

  it('a site name or tagline with a noncharacter or a lone surrogate is refused: the feed could not hold it', () => {
    for (const bad of ['My site \uffff', 'My site \ufffe', 'half \ud800 a pair']) {
      expect(() => validateSettingsPatch({ siteName: bad }), JSON.stringify(bad)).toThrow(/control characters/);
    }
    expect(validateSettingsPatch({ tagline: 'a real pair 😀 and an accent é' }).patch.tagline).toBe('a real pair 😀 and an accent é');
  });
});
