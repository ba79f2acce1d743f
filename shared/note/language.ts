// The language of a note (spec D.1, D.7 twins): Arabic or English, told by the
// script its words are written in, unless the frontmatter names a `lang`.
import type { Frontmatter } from './frontmatter.ts';

export type NoteLanguage = string;

const ARABIC = /[\u0600-\u06FF\u0750-\u077F\u08A0-\u08FF\uFB50-\uFDFF\uFE70-\uFEFF]/gu;
const LATIN = /[A-Za-z\u00C0-\u024F]/g;
const RTL_LANGUAGES = new Set(['ar', 'fa', 'he', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ku', 'ckb']);

/** Primary subtag of a BCP 47 code (`ar-EG` → `ar`), or null when it is not one. */
export function primaryLanguage(code: unknown): string | null {
  if (typeof code !== 'string') return null;
  const m = /^\s*([a-zA-Z]{2,3})(?:[-_][A-Za-z0-9-]*)?\s*$/.exec(code);
  return m ? m[1]!.toLowerCase() : null;
}

/** `ar` when Arabic letters outnumber Latin ones in `text`, else `en`. */
export function scriptLanguage(text: string): 'ar' | 'en' {
  const sample = text.length > 4000 ? text.slice(0, 4000) : text;
  const arabic = sample.match(ARABIC)?.length ?? 0;
  const latin = sample.match(LATIN)?.length ?? 0;
  return arabic > latin ? 'ar' : 'en';
}

export function noteLanguage(data: Frontmatter, title: string, body: string): NoteLanguage {
  return primaryLanguage(data.lang) ?? primaryLanguage(data.language) ?? scriptLanguage(`${title}\n${body.replace(/```[\s\S]*?```/g, '')}`);
}

export function directionOf(language: string | null | undefined): 'rtl' | 'ltr' {
  return RTL_LANGUAGES.has(primaryLanguage(language) ?? '') ? 'rtl' : 'ltr';
}
