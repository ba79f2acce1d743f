// The search tokenizer splits exactly as its one expression says (MiniSearch's default, with
// math, currency and modifier symbols added), on any text: the build and the browser must
// agree on every token, or a word written in a note would not be found. It classifies each
// character once instead of running the expression. A word of Chinese or Japanese is then
// read as its characters and their pairs (search-unspaced.test.ts).
import { describe, expect, it } from 'vitest';
import { tokenize, WORD_RUN } from '../../shared/search/index-format.ts';
import { hasUnspaced, splitUnspaced } from '../../shared/search/unspaced.ts';
import { seeded } from '../helpers/seeded.ts';

const words = (text: string) => text.split(/[\n\r\p{Z}\p{P}\p{Sm}\p{Sc}\p{Sk}]+/u);
const reference = (text: string) =>
  words(text).flatMap((word) => {
    if (!hasUnspaced(word)) return [word];
    const out: string[] = [];
    splitUnspaced(word, false, out);
    return out;
  });

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
  // Symbols: math, currency, modifier (separators) and other (kept): ± × → € £ ¥ ˆ ´ ° © ™ ✓ and astral ones.
  '±', '×', '→', '€', '£', '¥', 'ˆ', '´', '°', '©', '™', '✓', '\u{1D6C1}', '\u{1F3FB}',
];

describe('the search tokenizer', () => {
  it('splits ASCII text exactly as the expression does (the Unicode separator), empty ends and tabs included', () => {
    for (const s of samples(ASCII, 2000)) expect(tokenize(s), JSON.stringify(s)).toEqual(reference(s));
  });

  it('splits any other text as the expression does (accents, Arabic, CJK, symbols, astral characters, lone surrogates), then Chinese and Japanese words into characters and pairs', () => {
    for (const s of samples(UNICODE, 4000)) expect(tokenize(s), JSON.stringify(s)).toEqual(reference(s));
  });

  it('splits a word at the symbols a reader reads as gaps, and keeps emoji and other symbols in their word', () => {
    expect(tokenize('key=value $HOME a+b x^2 a|b <tag> ~/x €5 a→b')).toEqual(['key', 'value', 'HOME', 'a', 'b', 'x', '2', 'a', 'b', 'tag', 'x', '5', 'a', 'b']);
    expect(tokenize('25°C ©2026 🚀launch ✓done')).toEqual(['25°C', '©2026', '🚀launch', '✓done']);
  });

  it("a result's passage reads the words the expression reads (every one but the empty ones)", () => {
    for (const s of samples(UNICODE, 2000)) expect([...s.matchAll(WORD_RUN)].map((m) => m[0]), JSON.stringify(s)).toEqual(words(s).filter((t) => t !== ''));
  });
});
