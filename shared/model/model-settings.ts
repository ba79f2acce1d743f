// The settings the site model depends on, taken from the one site settings view
// (shared/settings.ts `siteSettingsOf`: a saved value wins, the environment fills
// the rest, defaults and normalisation applied there).
import type { Config } from '../config.ts';
import { primaryLanguage } from '../note/language.ts';
import type { SiteSettings } from '../settings.ts';
import type { ModelSettings } from './site-model.ts';

export function modelSettings(site: SiteSettings, config: Pick<Config, 'excludeTags'>): ModelSettings {
  return {
    templatesFolder: site.templatesFolder,
    excludeTags: config.excludeTags,
    language: primaryLanguage(site.language) ?? 'en',
    homeNote: site.homeNote,
    collections: { enabled: site.collections.enabled, source: site.collections.source },
  };
}
