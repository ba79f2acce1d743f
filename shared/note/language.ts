// The language of a note (spec D.1, D.7 twins): Arabic, Hebrew or English, told by the
// script its words are written in, unless the frontmatter names a `lang`.
import type { Frontmatter } from './frontmatter.ts';

export type NoteLanguage = string;

const RTL_LANGUAGES = new Set(['ar', 'fa', 'he', 'ur', 'ps', 'sd', 'ug', 'yi', 'dv', 'ku', 'ckb']);

/** Primary subtag of a BCP 47 code (`ar-EG` → `ar`), or null when it is not one. */
export function primaryLanguage(code: unknown): string | null {
  if (typeof code !== 'string') return null;
  const m = /^\s*([a-zA-Z]{2,3})(?:[-_][A-Za-z0-9-]*)?\s*$/.exec(code);
  return m ? m[1]!.toLowerCase() : null;
}

function isArabic(c: number): boolean {
  return (c >= 0x0600 && c <= 0x06ff) || (c >= 0x0750 && c <= 0x077f) || (c >= 0x08a0 && c <= 0x08ff) || (c >= 0xfb50 && c <= 0xfdff) || (c >= 0xfe70 && c <= 0xfeff);
}

function isLatin(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0xc0 && c <= 0x24f);
}

function isHebrew(c: number): boolean {
  return (c >= 0x05d0 && c <= 0x05ea) || (c >= 0xfb1d && c <= 0xfb4f);
}

/** Arabic, Hebrew and Latin letters in `text`'s first 4,000 characters. */
function letterCounts(text: string): { arabic: number; hebrew: number; latin: number } {
  const end = Math.min(text.length, 4000);
  let arabic = 0;
  let hebrew = 0;
  let latin = 0;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x41) continue;
    if (isLatin(c)) latin++;
    else if (isArabic(c)) arabic++;
    else if (isHebrew(c)) hebrew++;
  }
  return { arabic, hebrew, latin };
}

/** The script most letters of `text` (its first 4,000 characters) are in: `ar`, `he`, else `en`. */
export function scriptLanguage(text: string): 'ar' | 'he' | 'en' {
  const { arabic, hebrew, latin } = letterCounts(text);
  if (arabic > latin && arabic >= hebrew) return 'ar';
  return hebrew > latin && hebrew > arabic ? 'he' : 'en';
}

/**
 * What of a note's source a reader does not read as its words: code, comments, HTML tags,
 * web and email addresses, link destinations, a wikilink's target when an alias is shown.
 * All of it is Latin letters, so a short Arabic note with a few links read as English.
 * Each part that could fail after scanning far is bounded or stops at the next delimiter:
 * an unbounded `\S+@\S+` took 1.9 s on one 50 KB word, its time growing with the square
 * (test/unit/blog-note.test.ts holds a megabyte of such text to well under a second).
 */
const NOT_PROSE =
  /```[\s\S]*?```|`[^`\n]*`|%%[\s\S]*?%%|<[a-z/!][^<>\n]{0,500}>|(?<![a-z0-9+.-])[a-z][a-z0-9+.-]{0,31}:\/\/\S*|\bwww\.\S*|(?<!\S)[^\s@]{1,64}@[^\s@]+|\]\([^()\s]{0,2048}\)|\[\[[^[\]|\n]{0,300}\|/gi;

/**
 * A letter of a script written right to left. The admin's editor gives each line the direction
 * of its first strong character with it, and a published note holding one gives each block
 * the browser's same rule (block-direction.ts).
 */
export const RTL_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Adlam}\p{Script=Samaritan}\p{Script=Mandaic}]/u;

export function noteLanguage(data: Frontmatter, title: string, body: string): NoteLanguage {
  const named = primaryLanguage(data.lang) ?? primaryLanguage(data.language);
  if (named) return named;
  // Most notes hold no right-to-left letter, and need no count.
  if (!RTL_LETTER.test(title) && !RTL_LETTER.test(body)) return 'en';
  return scriptLanguage(`${title}\n${body.replace(NOT_PROSE, ' ')}`);
}

export function directionOf(language: string | null | undefined): 'rtl' | 'ltr' {
  return RTL_LANGUAGES.has(primaryLanguage(language) ?? '') ? 'rtl' : 'ltr';
}
