// What travels with the vault (spec 2.3, Appendix C): each file the mirror carries
// between SERVICE_DATA and the vault's `.service/`, and how a copy is vetted before
// it is adopted. Everything else in the data directory stays on the device: the git
// token, the admin password, versions, comments, feeds.db, the font catalog's files.

/** The report's items, in the order the 'What travels' panel shows them. */
export type TravelItemId = 'site' | 'designs' | 'css' | 'fonts' | 'layouts' | 'books' | 'annotations' | 'prefs';

export type Vetting = 'settings' | 'json' | 'text' | 'binary';

export interface MirroredFile {
  item: Exclude<TravelItemId, 'fonts' | 'prefs'>;
  /** Path relative to both SERVICE_DATA and `.service/`. */
  rel: string;
  vetting: Vetting;
}

/** Single files, always carried when present (also those this version does not write itself). */
export const MIRRORED_FILES: MirroredFile[] = [
  { item: 'site', rel: 'settings.json', vetting: 'settings' },
  { item: 'designs', rel: 'designs.json', vetting: 'json' },
  { item: 'css', rel: 'custom.css', vetting: 'text' },
  { item: 'layouts', rel: 'layouts.json', vetting: 'json' },
  { item: 'books', rel: 'books.json', vetting: 'json' },
  { item: 'annotations', rel: 'annotations.json', vetting: 'json' },
];

/** Uploaded fonts: a folder, with an index naming each face (spec 2.2). */
export const FONTS_DIR = 'fonts/custom';
export const FONTS_INDEX = 'fonts/custom/index.json';

/** Device preferences: merged per key, never copied whole (spec 8). */
export const PREFS_FILE = 'prefs.json';

/** The folder inside the vault. */
export const SERVICE_DIR = '.service';

/** spec 8: per-file and whole-folder caps for uploaded fonts mirrored into the vault. */
export const FONT_FILE_CAP = 5 * 1024 * 1024;
export const FONT_FOLDER_CAP = 40 * 1024 * 1024;
/** A folder with more files than this is not a font folder; the rest stay behind. */
export const FONT_FILE_COUNT_CAP = 500;

export const ITEM_LABELS: Record<TravelItemId, string> = {
  site: 'Site',
  designs: 'Designs',
  css: 'Custom CSS',
  fonts: 'Fonts',
  layouts: 'Layouts',
  books: 'Books',
  annotations: 'Annotations',
  prefs: 'Preferences',
};

export const ITEM_ORDER: TravelItemId[] = ['site', 'designs', 'css', 'fonts', 'layouts', 'books', 'annotations', 'prefs'];

/** Vetting rule of a file under the fonts folder: the index is JSON, faces are bytes. */
export function fontVetting(rel: string): Vetting {
  return rel === FONTS_INDEX ? 'json' : 'binary';
}

/** A file name the mirror will handle: no control characters, not one of our temp files. */
export function isCarriableName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name.length > 0 && name.length <= 200 && !/[\u0000-\u001f\u007f\\]/.test(name) && !name.startsWith('.~vs-');
}
