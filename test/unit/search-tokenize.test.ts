// The search base's ASCII fast path splits and folds exactly as MiniSearch's
// default tokenizer and our processTerm do: the build and the browser must agree on
// every token, or a word written in a note would not be found.
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { asciiTerm, asciiTokens, processTerm, tokenize } from '../../shared/search/index-format.ts';

const minisearchTokenize = MiniSearch.getDefault('tokenize') as (text: string) => string[];

/** A deterministic stream of ASCII strings, every character among them, separators in runs. */
function* asciiSamples(): Generator<string> {
  for (let c = 0; c < 128; c++) {
    const ch = String.fromCharCode(c);
    yield ch;
    yield `a${ch}b`;
    yield `${ch}${ch}word${ch}`;
  }
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  for (let n = 0; n < 2000; n++) {
    let s = '';
    const length = next() % 40;
    for (let i = 0; i < length; i++) s += String.fromCharCode(next() % 3 === 0 ? ' .,-_\n\t!?\'"()[]{}#@/:;'.charCodeAt(next() % 22) : next() % 128);
    yield s;
  }
  yield '';
}

describe('the search tokenizer on ASCII text', () => {
  it('splits exactly as MiniSearch does (the Unicode separator), empty ends and tabs included', () => {
    for (const s of asciiSamples()) expect(asciiTokens(s), JSON.stringify(s)).toEqual(minisearchTokenize(s));
  });

  it('folds each token as processTerm does', () => {
    for (const s of asciiSamples()) for (const token of asciiTokens(s)!) expect(asciiTerm(token), JSON.stringify(token)).toEqual(processTerm(token));
  });

  it('leaves any other text to the regex: the same tokens either way', () => {
    for (const s of ['café au lait', 'كتاب الطالب، والمدرسة', 'a\u00a0b', 'x\u2014y', 'end ·']) {
      expect(asciiTokens(s)).toBeNull();
      expect(tokenize(s)).toEqual(minisearchTokenize(s));
    }
  });
});
