// The languages a site may be set to (Settings → Site language): BCP 47 tags, each
// with its name in that language, as the settings form lists them. English and Arabic
// are the languages the site's own words exist in; the others are common ones, whose
// pages take English words with the right `lang` and direction.

export interface SiteLanguage {
  tag: string;
  /** The language's name for itself. */
  name: string;
}

export const SITE_LANGUAGES: readonly SiteLanguage[] = [
  { tag: 'en', name: 'English' },
  { tag: 'ar', name: 'العربية' },
  { tag: 'bn', name: 'বাংলা' },
  { tag: 'ca', name: 'Català' },
  { tag: 'cs', name: 'Čeština' },
  { tag: 'da', name: 'Dansk' },
  { tag: 'de', name: 'Deutsch' },
  { tag: 'el', name: 'Ελληνικά' },
  { tag: 'es', name: 'Español' },
  { tag: 'fa', name: 'فارسی' },
  { tag: 'fi', name: 'Suomi' },
  { tag: 'fr', name: 'Français' },
  { tag: 'he', name: 'עברית' },
  { tag: 'hi', name: 'हिन्दी' },
  { tag: 'hu', name: 'Magyar' },
  { tag: 'id', name: 'Bahasa Indonesia' },
  { tag: 'it', name: 'Italiano' },
  { tag: 'ja', name: '日本語' },
  { tag: 'ko', name: '한국어' },
  { tag: 'ms', name: 'Bahasa Melayu' },
  { tag: 'nb', name: 'Norsk bokmål' },
  { tag: 'nl', name: 'Nederlands' },
  { tag: 'pl', name: 'Polski' },
  { tag: 'pt', name: 'Português' },
  { tag: 'ro', name: 'Română' },
  { tag: 'ru', name: 'Русский' },
  { tag: 'sv', name: 'Svenska' },
  { tag: 'sw', name: 'Kiswahili' },
  { tag: 'th', name: 'ไทย' },
  { tag: 'tr', name: 'Türkçe' },
  { tag: 'uk', name: 'Українська' },
  { tag: 'ur', name: 'اردو' },
  { tag: 'vi', name: 'Tiếng Việt' },
  { tag: 'zh-Hans', name: '简体中文' },
  { tag: 'zh-Hant', name: '繁體中文' },
];

const PRIMARY = new Set(SITE_LANGUAGES.map((l) => l.tag.split('-')[0]!.toLowerCase()));

/**
 * The canonical tag when `value` is a BCP 47 tag whose language is one of the list's
 * (`ar-EG` and `pt-BR` are; `arabic`, well-formed as a tag, names no language), else null.
 */
export function siteLanguageTag(value: string): string | null {
  let canonical: string | undefined;
  try {
    [canonical] = Intl.getCanonicalLocales(value.trim());
  } catch {
    return null;
  }
  if (!canonical) return null;
  return PRIMARY.has(canonical.split('-')[0]!.toLowerCase()) ? canonical : null;
}

/** The list's name for a tag (its language's, for a regional tag), or null. */
export function siteLanguageName(tag: string): string | null {
  const exact = SITE_LANGUAGES.find((l) => l.tag.toLowerCase() === tag.toLowerCase());
  if (exact) return exact.name;
  const primary = tag.split('-')[0]!.toLowerCase();
  return SITE_LANGUAGES.find((l) => l.tag.toLowerCase() === primary)?.name ?? null;
}
