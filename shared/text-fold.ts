// Text folded for search (CONTRACT §9): case and accents folded for Latin
// scripts (é → e), Arabic diacritics and tatweel removed, and the alef, yeh and
// teh marbuta forms made one (أ إ آ ٱ → ا, ى → ي, ة → ه); Persian and Urdu letters folded
// to the Arabic ones a reader may type instead (ی ے → ي, ک → ك, ۀ ہ → ه, as Lucene's Persian
// normalizer folds them), and the zero-width non-joiner inside a word (نرم‌افزار) taken out.
// Latin letters with a stroke or ligature, which have no decomposition to drop (ł đ ø æ œ ß þ), are
// spelt as a reader types them without the accent (Lucene's ASCIIFoldingFilter): `spoleczne` finds `społeczne`.
// Folding never adds or removes a line break, so a folded text has the same lines as the original.

// The marks that accent a letter (Latin, Greek, Cyrillic, Hebrew points, Arabic harakat), not
// those that are part of one: Japanese voicing (タグ is not タク), the vowel signs of Indic scripts.
const COMBINING = /[\u0300-\u036f\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g;
const TATWEEL = /\u0640/g;
const UNDECOMPOSED: Record<string, string> = { ł: 'l', ŀ: 'l', đ: 'd', ð: 'd', ø: 'o', æ: 'ae', œ: 'oe', ß: 'ss', þ: 'th', ı: 'i', ħ: 'h', ŧ: 't' };
const UNDECOMPOSED_LETTER = /[łŀđðøæœßþıħŧ]/g;
const ALEF = /[\u0622\u0623\u0625\u0671\u0672\u0673]/g;

// Text with nothing but ASCII folds to its lower case (most of an English vault: the index's hot path).
// eslint-disable-next-line no-control-regex
const ASCII = /^[\u0000-\u007f]*$/;

export function foldText(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase();
  const folded = text
    .normalize('NFKD')
    .replace(COMBINING, '')
    .replace(TATWEEL, '')
    .replace(ALEF, '\u0627')
    .replace(/[\u0649\u06cc\u06d2]/g, '\u064A')
    .replace(/[\u0629\u06c0\u06c1\u06d5]/g, '\u0647')
    .replace(/\u06a9/g, '\u0643')
    .replace(/\u200c/g, '')
    .toLowerCase()
    .replace(UNDECOMPOSED_LETTER, (ch) => UNDECOMPOSED[ch]!);
  // The marks that stay go back on their letters, so `タク` is no prefix of `タグ`.
  return folded.normalize('NFC');
}

/** The words of a query, folded; quotes keep a phrase together (`"two nets"`). */
export function queryTerms(query: string): string[] {
  const terms: string[] = [];
  for (const m of foldText(query).matchAll(/"([^"]+)"|(\S+)/g)) {
    const term = (m[1] ?? m[2] ?? '').trim();
    if (term) terms.push(term);
  }
  return terms;
}
