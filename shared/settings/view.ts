// What the settings panel is shown: the saved settings, with each value this
// server's environment supplies filled in and named in `fromEnv` (spec 2.1: such a
// value belongs to this server alone until it is saved).
import type { Settings, SiteEnv, SiteSettings } from '../settings.ts';
import { siteSettingsOf } from '../settings.ts';

export type SiteEnvironment = SiteEnv;

/** The site values in effect on this server (saved, else environment, else default), for the panel to show. */
export type EffectiveSiteValues = Pick<SiteSettings, 'siteName' | 'tagline' | 'homeNote' | 'footer' | 'language' | 'layout'>;

export type SettingsView = Settings & { fromEnv: string[]; effective: EffectiveSiteValues };

export function settingsView(settings: Settings, env: SiteEnvironment): SettingsView {
  const site = siteSettingsOf(settings, env);
  const view: SettingsView = {
    ...settings,
    publishing: { ...settings.publishing },
    comments: { ...settings.comments },
    sync: { ...settings.sync },
    fromEnv: site.fromEnv,
    effective: {
      siteName: site.siteName,
      tagline: site.tagline,
      homeNote: site.homeNote,
      footer: site.footer,
      language: site.language,
      layout: site.layout,
    },
  };
  for (const key of site.fromEnv) {
    if (key === 'siteName') view.siteName = site.siteName;
    else if (key === 'tagline') view.tagline = site.tagline;
    else if (key === 'homeNote') view.homeNote = site.homeNote;
    else if (key === 'footer') view.footer = site.footer;
    else if (key === 'language') view.language = site.language;
    else if (key === 'publishing.layout') view.publishing.layout = site.layout;
    else if (key === 'comments.enabled') view.comments.enabled = true;
  }
  // spec 2.2: settings.json never holds the token; an old file that did is not echoed.
  delete (view.sync as Record<string, unknown>).token;
  return view;
}
