// Instance settings (CONTRACT §5): SERVICE_DATA/settings.json, read by both the
// admin and the public site. Missing keys take their defaults; the git token is
// never here (it lives in git-credentials.json).
import { promises as fs } from 'node:fs';
import { log } from './log.ts';
import { dataPath, DATA_FILES, type DataPath } from './data-path.ts';
import { CALENDAR_DISPLAYS, FEED_CONTENTS, PROPERTIES_PANELS } from './settings/validate.ts';
import { siteLanguageTag } from './settings/languages.ts';

export type CalendarDisplay = (typeof CALENDAR_DISPLAYS)[number];
export type FeedContent = (typeof FEED_CONTENTS)[number];
/** The article's properties panel: `off` (the default) or `shown`. */
export type PropertiesPanel = (typeof PROPERTIES_PANELS)[number];

export type SyncInterval = 0 | 5 | 15 | 30 | 60 | 360 | 1440;
/** `all`: every comment waits; `known`: a name and email with an approved comment skip the queue; `none`: none waits. */
export type CommentModeration = 'all' | 'known' | 'none';
export const COMMENT_MODERATION: readonly CommentModeration[] = ['all', 'known', 'none'];

export interface Settings {
  siteName: string | null;
  tagline: string | null;
  logo: string | null;
  language: string | null;
  homeNote: string | null;
  footer: string | null;
  folders: { templates: string };
  typography: Record<string, unknown>;
  /** `display` (CONTRACT §10) and free-form keys. */
  calendars: { display?: CalendarDisplay | null } & Record<string, unknown>;
  home: { mode: 'note' | 'dashboard'; banner: string | null };
  publishing: { layout: 'default' | 'blog' | 'designed' | null; shareButtons: boolean; languageFilter: boolean; feedContent: FeedContent; properties: PropertiesPanel };
  collections: { enabled: boolean; showOnHome: boolean; showInNav: boolean; source: 'tags' | 'folders' };
  versions: { keep: boolean | null };
  /** CONTRACT §8: comments and mentions under articles, and how they are moderated. */
  comments: { enabled: boolean; moderation: CommentModeration };
  sync: {
    enabled: boolean;
    remoteUrl: string | null;
    branch: string;
    pullFirst: boolean;
    intervalMinutes: SyncInterval;
    username: string | null;
  };
}

export function defaultSettings(): Settings {
  return {
    siteName: null,
    tagline: null,
    logo: null,
    language: null,
    homeNote: null,
    footer: null,
    folders: { templates: 'Templates' },
    typography: {},
    calendars: {},
    home: { mode: 'note', banner: null },
    publishing: { layout: null, shareButtons: true, languageFilter: false, feedContent: 'excerpt', properties: 'off' },
    collections: { enabled: false, showOnHome: true, showInNav: false, source: 'tags' },
    versions: { keep: null },
    comments: { enabled: false, moderation: 'all' },
    sync: { enabled: false, remoteUrl: null, branch: 'main', pullFirst: false, intervalMinutes: 0, username: null },
  };
}

export function settingsFile(dataDir: string): DataPath {
  return dataPath(dataDir, DATA_FILES.settings);
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Fills what the stored object lacks from the defaults, one level of groups deep. */
export function withDefaults(stored: unknown): Settings {
  const base = defaultSettings() as unknown as Record<string, unknown>;
  if (!isPlainObject(stored)) return base as unknown as Settings;
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(stored)) {
    const fallback = base[key];
    out[key] = isPlainObject(fallback) && isPlainObject(value) ? { ...fallback, ...value } : value;
  }
  return out as unknown as Settings;
}

/** Reads settings.json, re-reading only when the file's mtime changed. */
export function createSettingsReader(dataDir: string) {
  const file = settingsFile(dataDir);
  let cached: { mtimeMs: number; settings: Settings } | null = null;
  return async function readSettings(): Promise<Settings> {
    let mtimeMs: number;
    try {
      mtimeMs = (await fs.stat(file)).mtimeMs;
    } catch {
      cached = null;
      return defaultSettings();
    }
    if (cached && cached.mtimeMs === mtimeMs) return cached.settings;
    try {
      const settings = withDefaults(JSON.parse(await fs.readFile(file, 'utf8')));
      cached = { mtimeMs, settings };
      return settings;
    } catch (err) {
      log.warnOnce(`settings:${mtimeMs}`, `settings.json is unreadable; using defaults: ${(err as Error).message}`);
      return cached?.settings ?? defaultSettings();
    }
  };
}

/**
 * The site settings as this instance uses them: every default and normalisation
 * applied once, here. The public frame, the site model and the settings panel all
 * read this view.
 */
export interface SiteSettings {
  siteName: string;
  tagline: string | null;
  homeNote: string | null;
  footer: string | null;
  language: string;
  layout: 'default' | 'blog' | 'designed';
  logo: string | null;
  templatesFolder: string;
  home: { mode: 'note' | 'dashboard'; banner: string | null };
  /** `properties`: whether an article shows its frontmatter's properties panel. */
  publishing: { shareButtons: boolean; languageFilter: boolean; feedContent: FeedContent; properties: PropertiesPanel };
  collections: { enabled: boolean; showOnHome: boolean; showInNav: boolean; source: 'tags' | 'folders' };
  /** CONTRACT §10: the calendar of every date a visitor reads (feeds and sitemaps stay Gregorian). */
  calendar: CalendarDisplay;
  /** CONTRACT §8: on when COMMENTS=on or the setting says so. */
  comments: { enabled: boolean; moderation: CommentModeration };
  /** Keys whose value comes from this server's environment (spec 2.1: they do not travel). */
  fromEnv: string[];
  /** Keys the environment (or a flag) set while a saved value wins: [key, the environment's, the saved one]. */
  outvoted: [string, string, string][];
}

/** The environment's site values (spec 2.1), as shared/config.ts reads them. */
export interface SiteEnv {
  siteName: string | null;
  siteTagline: string | null;
  homeNote: string | null;
  siteFooter: string | null;
  siteLang: string | null;
  publicLayout: 'default' | 'blog' | 'designed' | null;
  /** COMMENTS=on. */
  comments?: boolean;
}

/**
 * spec 2.1: a value from the environment belongs to this server alone until it is
 * saved in settings (settings.json, and so the vault). A saved value therefore wins;
 * the environment fills what settings.json leaves unset.
 */
export function siteSettingsOf(settings: Settings, env: SiteEnv): SiteSettings {
  const fromEnv: string[] = [];
  const outvoted: [string, string, string][] = [];
  const pick = <T>(key: string, saved: T | null | undefined, fromEnvValue: T | null, fallback: T): T => {
    if (saved !== null && saved !== undefined && saved !== '') {
      if (fromEnvValue !== null && fromEnvValue !== undefined && String(fromEnvValue) !== String(saved)) outvoted.push([key, String(fromEnvValue), String(saved)]);
      return saved;
    }
    if (fromEnvValue !== null && fromEnvValue !== undefined) {
      fromEnv.push(key);
      return fromEnvValue;
    }
    return fallback;
  };
  const { home, publishing, collections, calendars, comments } = settings;
  return {
    siteName: pick('siteName', settings.siteName, env.siteName, 'My notes'),
    tagline: pick('tagline', settings.tagline, env.siteTagline, null),
    homeNote: pick('homeNote', settings.homeNote, env.homeNote, null),
    footer: pick('footer', settings.footer, env.siteFooter, null),
    // A language the list does not know (saved before the list existed) counts as unset.
    language: pick('language', typeof settings.language === 'string' ? siteLanguageTag(settings.language) : null, env.siteLang, 'en'),
    layout: pick('publishing.layout', publishing?.layout, env.publicLayout, 'default'),
    logo: settings.logo ?? null,
    templatesFolder: settings.folders?.templates || 'Templates',
    home: { mode: home?.mode === 'dashboard' ? 'dashboard' : 'note', banner: home?.banner ?? null },
    publishing: {
      shareButtons: publishing?.shareButtons !== false,
      languageFilter: publishing?.languageFilter === true,
      feedContent: publishing?.feedContent === 'full' ? 'full' : 'excerpt',
      properties: publishing?.properties === 'shown' ? 'shown' : 'off',
    },
    collections: {
      enabled: collections?.enabled === true,
      showOnHome: collections?.showOnHome !== false,
      showInNav: collections?.showInNav === true,
      source: collections?.source === 'folders' ? 'folders' : 'tags',
    },
    calendar: CALENDAR_DISPLAYS.find((c) => c === calendars?.display) ?? 'gregorian',
    comments: {
      enabled: comments?.enabled === true || pick('comments.enabled', null, env.comments === true ? true : null, false),
      moderation: COMMENT_MODERATION.includes(comments?.moderation as CommentModeration) ? comments!.moderation : 'all',
    },
    fromEnv,
    outvoted,
  };
}

/** The sync settings as the sync service uses them: the defaults applied once, here (spec 2.9). */
export interface SyncSettings {
  enabled: boolean;
  remoteUrl: string | null;
  branch: string;
  pullFirst: boolean;
  /** 0 is Manual. */
  intervalMinutes: number;
  username: string | null;
}

export function syncSettingsOf(settings: Settings): SyncSettings {
  const sync = settings.sync ?? ({} as Partial<Settings['sync']>);
  const minutes = Number(sync.intervalMinutes);
  return {
    enabled: sync.enabled === true,
    remoteUrl: typeof sync.remoteUrl === 'string' && sync.remoteUrl !== '' ? sync.remoteUrl : null,
    branch: typeof sync.branch === 'string' && sync.branch !== '' ? sync.branch : 'main',
    pullFirst: sync.pullFirst === true,
    intervalMinutes: Number.isFinite(minutes) && minutes > 0 ? minutes : 0,
    username: typeof sync.username === 'string' && sync.username !== '' ? sync.username : null,
  };
}

// Validation, saving and the admin view live beside this file.
export {
  CALENDAR_DISPLAYS,
  FEED_CONTENTS,
  PROPERTIES_PANELS,
  SYNC_INTERVALS,
  SettingsError,
  validateSettingsPatch,
  validateStoredSettings,
  type SettingsChecks,
  type ValidPatch,
} from './settings/validate.ts';
export { mergeSettings, readStoredSettings, saveSettingsPatch, withSettingsLock } from './settings/save.ts';
export { settingsView, type SettingsView, type SiteEnvironment } from './settings/view.ts';
export { SITE_LANGUAGES, siteLanguageName, siteLanguageTag, type SiteLanguage } from './settings/languages.ts';
