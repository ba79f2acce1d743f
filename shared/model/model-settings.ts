// The settings the site model depends on, from settings.json and the environment
// (effectiveSite: a saved value wins, the environment fills the rest).
import type { Config } from '../config.ts';
import { primaryLanguage } from '../note/language.ts';
import { effectiveSite, type Settings } from '../settings.ts';
import type { ModelSettings } from './site-model.ts';

export function modelSettings(settings: Settings, config: Config): ModelSettings {
  const site = effectiveSite(settings, config);
  return {
    templatesFolder: settings.folders?.templates || 'Templates',
    excludeTags: config.excludeTags,
    language: primaryLanguage(site.language) ?? 'en',
    homeNote: site.homeNote,
    collections: {
      enabled: settings.collections?.enabled === true,
      source: settings.collections?.source === 'folders' ? 'folders' : 'tags',
    },
  };
}
