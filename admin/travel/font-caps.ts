// spec 8: an uploaded font is mirrored into the vault only up to 5 MB per file, and
// once the folder would pass 40 MB the remaining files stay behind, each named with
// its reason. Files already in the vault keep their place; then the oldest uploads.
import { FONT_FILE_CAP, FONT_FILE_COUNT_CAP, FONT_FOLDER_CAP, FONTS_INDEX } from './items.ts';
import type { TravelProblem } from './report-types.ts';

export interface LocalFont {
  rel: string;
  size: number;
  mtimeMs: number;
  /** True when the vault already holds this exact file. */
  inVault: boolean;
}

export interface FontPlan {
  allowed: Set<string>;
  leftBehind: TravelProblem[];
}

export interface FontCaps {
  fileCap: number;
  folderCap: number;
  countCap: number;
}

export const DEFAULT_FONT_CAPS: FontCaps = { fileCap: FONT_FILE_CAP, folderCap: FONT_FOLDER_CAP, countCap: FONT_FILE_COUNT_CAP };

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function planFonts(fonts: LocalFont[], caps: FontCaps = DEFAULT_FONT_CAPS): FontPlan {
  const allowed = new Set<string>();
  const leftBehind: TravelProblem[] = [];
  const ordered = [...fonts].sort(
    (a, b) => Number(b.inVault) - Number(a.inVault) || a.mtimeMs - b.mtimeMs || (a.rel < b.rel ? -1 : a.rel > b.rel ? 1 : 0),
  );
  let total = 0;
  let count = 0;
  const leave = (font: LocalFont, code: string, reason: string) =>
    leftBehind.push({ item: 'fonts', file: font.rel, side: 'device', code, reason });
  for (const font of ordered) {
    if (font.rel === FONTS_INDEX) {
      // The index names the faces; it is tiny and always travels.
      allowed.add(font.rel);
      continue;
    }
    if (font.size > caps.fileCap) {
      leave(font, 'file_cap', `is ${mb(font.size)}, over the ${mb(caps.fileCap)} limit for one font file; it stays on this device`);
    } else if (total + font.size > caps.folderCap) {
      leave(font, 'folder_cap', `would take the fonts folder in the vault past ${mb(caps.folderCap)}; it stays on this device`);
    } else if (count >= caps.countCap) {
      leave(font, 'count_cap', `the fonts folder already holds ${caps.countCap} files; it stays on this device`);
    } else {
      total += font.size;
      count++;
      allowed.add(font.rel);
    }
  }
  leftBehind.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return { allowed, leftBehind };
}
