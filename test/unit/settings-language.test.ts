// Settings refuse nonsense: the site language is one of a list of BCP 47 languages, and
// each refusal is a sentence naming the field as the settings form names it.
import { describe, expect, it } from 'vitest';
import { SettingsError, SITE_LANGUAGES, siteLanguageName, siteSettingsOf, validateSettingsPatch, validateStoredSettings, withDefaults } from '../../shared/settings.ts';

const NO_ENV = { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null };

function refusal(input: unknown): SettingsError {
  try {
    validateSettingsPatch(input);
  } catch (err) {
    return err as SettingsError;
  }
  throw new Error(`accepted: ${JSON.stringify(input)}`);
}

describe('the site language', () => {
  it('is a tag of the list, canonical; a regional tag of a listed language is one too', () => {
    expect(validateSettingsPatch({ language: 'AR' }).patch).toEqual({ language: 'ar' });
    expect(validateSettingsPatch({ language: 'pt-br' }).patch).toEqual({ language: 'pt-BR' });
    expect(validateSettingsPatch({ language: 'zh-hant' }).patch).toEqual({ language: 'zh-Hant' });
    expect(validateSettingsPatch({ language: '' }).patch).toEqual({ language: null });
  });

  it.each(['arabic', 'english', 'xx', 'klingon', 'en_US', '12', 'a'.repeat(40)])('refuses %j with a sentence naming the field', (value) => {
    const err = refusal({ language: value });
    expect(err.code).toBe('bad_setting');
    expect(err.field).toBe('language');
    expect(err.message).toMatch(/^Site language/);
  });

  it('the list holds the languages the site has words for, each with its own name', () => {
    expect(SITE_LANGUAGES.slice(0, 2)).toEqual([
      { tag: 'en', name: 'English' },
      { tag: 'ar', name: 'العربية' },
    ]);
    expect(SITE_LANGUAGES.length).toBeGreaterThanOrEqual(20);
    expect(new Set(SITE_LANGUAGES.map((l) => l.tag)).size).toBe(SITE_LANGUAGES.length);
    for (const { tag } of SITE_LANGUAGES) expect(Intl.getCanonicalLocales(tag)).toEqual([tag]);
    expect(siteLanguageName('fr-CA')).toBe('Français');
  });

  it("a vault copy saved before the list keeps its other settings, and the site reads the language as unset", () => {
    expect(validateStoredSettings({ siteName: 'Kept', language: 'arabic' })).toEqual({ siteName: 'Kept', language: null });
    expect(siteSettingsOf(withDefaults({ language: 'arabic' }), NO_ENV).language).toBe('en');
    expect(siteSettingsOf(withDefaults({ language: 'arabic' }), { ...NO_ENV, siteLang: 'fr' }).language).toBe('fr');
  });
});

describe('every refusal names its field in the form’s words', () => {
  it.each([
    [{ siteName: 42 }, 'siteName', /^Site name must be text/],
    [{ home: { mode: 'sideways' } }, 'home.mode', /^Home page must be one of/],
    [{ publishing: { shareButtons: 'yes' } }, 'publishing.shareButtons', /^Share buttons must be true or false/],
    [{ sync: { intervalMinutes: 7 } }, 'sync.intervalMinutes', /^Sync every must be one of/],
    [{ logo: 'ftp://example.org/a.png' }, 'logo', /^Logo must be an https:\/\/ address/],
    [{ folders: { templates: '../x' } }, 'folders.templates', /^Templates folder/],
  ])('%j', (input, field, message) => {
    const err = refusal(input);
    expect(err.field).toBe(field);
    expect(err.message).toMatch(message);
  });
});
