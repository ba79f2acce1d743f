// The search tokenizer splits exactly as MiniSearch's default tokenizer does, on any
// text: the build and the browser must agree on every token, or a word written in a note
// would not be found. It classifies each character once instead of running the regex.
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { tokenize } from '../../shared/search/index-format.ts';
import { seeded } from '../helpers/seeded.ts';

const minisearchTokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** A deterministic stream of strings drawn from `pool`, separators in runs, every single character first. */
function* samples(pool: string[], count: number): Generator<string> {
  for (const ch of pool) {
    yield ch;
    yield `a${ch}b`;
    yield `${ch}${ch}word${ch}`;
  }
  const next = seeded(7);
  for (let n = 0; n < count; n++) {
    let s = '';
    const length = next(40);
    for (let i = 0; i < length; i++) s += pool[next(pool.length)];
    yield s;
  }
  yield '';
}

const ASCII = Array.from({ length: 128 }, (_, c) => String.fromCharCode(c));
// Letters, marks, digits and separators beyond ASCII: Latin, Arabic, CJK, spaces and dashes,
// line and paragraph separators, astral letters and punctuation, lone surrogates.
const UNICODE = [
  ...ASCII,
  'é', 'ü', 'ß', '\u0301', 'ك', 'ت', 'ا', 'ل', '،', '؟', '\u064b', '日', '本', '。', '、', '\u00a0', '\u2003', '\u2014', '\u2013',
  '\u2028', '\u2029', '«', '»', '“', '”', '·', '…', '🙂', '𝐀', '\u{10100}', '\u{1F4A9}', '\ud800', '\udc00', '\ufeff', '٣',
];

describe('the search tokenizer', () => {
  it('splits ASCII text exactly as MiniSearch does (the Unicode separator), empty ends and tabs included', () => {
    for (const s of samples(ASCII, 2000)) expect(tokenize(s), JSON.stringify(s)).toEqual(minisearchTokenize(s));
  });

  it('splits any other text exactly as MiniSearch does: accents, Arabic, CJK, astral characters, lone surrogates', () => {
    for (const s of samples(UNICODE, 4000)) expect(tokenize(s), JSON.stringify(s)).toEqual(minisearchTokenize(s));
  });
});
