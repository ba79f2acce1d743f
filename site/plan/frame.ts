// The site-wide values every page is rendered with, from the one site settings view
// (siteSettingsOf: settings.json first, the environment for what it leaves unset,
// then the defaults), read once per frame.
import { createHash } from 'node:crypto';
import type { Config } from '../../shared/config.ts';
import { directionOf, primaryLanguage } from '../../shared/note/language.ts';
import { siteSettingsOf, type CalendarDisplay, type FeedContent, type Settings } from '../../shared/settings.ts';
import type { ModelSettings } from '../../shared/model/site-model.ts';
import { modelSettings } from '../../shared/model/model-settings.ts';
import { formatters, numberLocale, stringsFor, type Formatters, type Strings } from './i18n.ts';

/** Stands for the absolute base URL in built files; replaced per request (spec D.7). */
export const BASE_TOKEN = '__SERVICE_BASE_URL__';
/** The same, inside a query string (share links). */
export const BASE_TOKEN_ENCODED = '__SERVICE_BASE_URL_ENC__';

export interface SiteFrame {
  name: string;
  tagline: string | null;
  logo: string | null;
  lang: string;
  dir: 'rtl' | 'ltr';
  footer: string;
  layout: 'default' | 'blog' | 'designed';
  homeMode: 'note' | 'dashboard';
  banner: string | null;
  gradient: string;
  shareButtons: boolean;
  /** An article shows its properties panel (setting publishing.properties). */
  properties: boolean;
  languageFilter: boolean;
  /** Feed items carry the excerpt, or the whole article too. */
  feedContent: FeedContent;
  /** CONTRACT §10: the calendar of every date a visitor reads. */
  calendar: CalendarDisplay;
  collections: { enabled: boolean; showOnHome: boolean; showInNav: boolean; source: 'tags' | 'folders' };
  blogLocale: string;
  /** The locale the browser formats counts in (search results): interface language, BLOG_LOCALE's digits. */
  numberLocale: string;
  comments: boolean;
  year: number;
  base: string;
  baseEncoded: string;
  strings: Strings;
  model: ModelSettings;
}

/** A gradient made from a string, so every site and card has its own (spec D.3). */
export function gradientOf(seed: string): string {
  // A note's card is on several list pages: its gradient is worked out once.
  let made = gradients.get(seed);
  if (made === undefined) {
    if (gradients.size >= 100_000) gradients.clear();
    gradients.set(seed, (made = makeGradient(seed)));
  }
  return made;
}

const gradients = new Map<string, string>();

function makeGradient(seed: string): string {
  const h = createHash('sha1').update(seed).digest();
  const a = (h[0]! * 360) / 256;
  const b = (a + 40 + (h[1]! % 80)) % 360;
  const angle = 100 + (h[2]! % 80);
  // Hues from the seed; saturation and lightness from blog.css, calm and darker in dark mode (white hero text stays readable).
  return `linear-gradient(${Math.round(angle)}deg, hsl(${Math.round(a)} var(--s-grad-s, 30%) var(--s-grad-l1, 42%)), hsl(${Math.round(b)} var(--s-grad-s, 30%) var(--s-grad-l2, 30%)))`;
}

export function siteFrame(settings: Settings, config: Config, base = BASE_TOKEN, now = new Date()): SiteFrame {
  const site = siteSettingsOf(settings, config);
  const lang = primaryLanguage(site.language) ?? 'en';
  const year = now.getUTCFullYear();
  const footerTemplate = site.footer ?? '© {year} {siteName}';
  // The footer's year in BLOG_LOCALE's digits, like every number a visitor reads.
  const yearText = formatters(lang, config.blogLocale, site.calendar).year(year);
  return {
    name: site.siteName,
    tagline: site.tagline,
    logo: site.logo,
    lang,
    dir: directionOf(lang),
    footer: footerTemplate.replaceAll('{year}', yearText).replaceAll('{siteName}', site.siteName),
    layout: site.layout,
    homeMode: site.home.mode,
    banner: site.home.banner,
    gradient: gradientOf(site.siteName),
    shareButtons: site.publishing.shareButtons,
    properties: site.publishing.properties === 'shown',
    languageFilter: site.publishing.languageFilter,
    feedContent: site.publishing.feedContent,
    calendar: site.calendar,
    collections: site.collections,
    blogLocale: config.blogLocale,
    numberLocale: numberLocale(lang, config.blogLocale),
    comments: site.comments.enabled,
    year,
    base,
    baseEncoded: base === BASE_TOKEN ? BASE_TOKEN_ENCODED : encodeURIComponent(base),
    strings: stringsFor(lang),
    model: modelSettings(site, config),
  };
}

/** The attributes of a sentence in the site's language set in a note's text, which may be in the other direction. */
export const siteLanguageAttrs = (frame: SiteFrame): string => ` lang="${frame.lang}" dir="${frame.dir}"`;

/** Changes whenever anything a page is rendered with changes. */
export function frameSig(frame: SiteFrame): string {
  const { strings: _s, ...rest } = frame;
  return createHash('sha1').update(JSON.stringify(rest)).digest('hex').slice(0, 16);
}

export function frameFormatters(frame: SiteFrame): Formatters {
  return formatters(frame.lang, frame.blogLocale, frame.calendar);
}
