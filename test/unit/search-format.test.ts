// CONTRACT §9: how the visitor search reads words, on both sides (shared/search/index-format.ts).
import { describe, expect, it } from 'vitest';
import { processQueryTerm, processTerm, shardFor, shardKey, shardsHolding, tokenize } from '../../shared/search/index-format.ts';

const indexed = (text: string) => tokenize(text).flatMap((t) => processTerm(t) ?? []);

describe('words as the index holds them', () => {
  it('English: case and accents folded', () => {
    expect(indexed('Crème BRÛLÉE, Café—naïve')).toEqual(['creme', 'brulee', 'cafe', 'naive']);
  });

  it('Arabic: diacritics and tatweel removed, alef, yeh and teh marbuta forms made one', () => {
    expect(indexed('أَحْمَد إبراهيم آمنة كـتـاب مستشفى مدرسة')).toEqual(['احمد', 'ابراهيم', 'امنه', 'كتاب', 'مستشفي', 'مدرسه']);
  });

  // A Persian garden: `نرمافزار` found no `نرم‌افزار`, `مزرعه` no `مزرعۀ`, and an Arabic keyboard's `كتاب` no `کتاب`.
  it('Persian and Urdu: the zero-width non-joiner taken out, ی ے → ي, ک → ك, ۀ ہ → ه; a query typed either way finds the word', () => {
    expect(indexed('نرم‌افزار مزرعۀ کتاب یادداشت')).toEqual(['نرمافزار', 'مزرعه', 'كتاب', 'يادداشت']);
    for (const [written, typed] of [['نرم‌افزار', 'نرمافزار'], ['مزرعۀ', 'مزرعه'], ['کتاب', 'كتاب'], ['یادداشت', 'يادداشت'], ['ہے', 'هي']]) {
      expect(processQueryTerm(typed), typed).toBe(processTerm(written));
    }
  });

  it('the Arabic article: indexed with and without it, dropped from a query; short words keep it', () => {
    expect(indexed('المَدرسةِ الله ألم')).toEqual(['المدرسه', 'مدرسه', 'الله', 'الم']);
    expect(processQueryTerm('المدرسة')).toBe('مدرسه');
    expect(processQueryTerm('مدرسة')).toBe('مدرسه');
    expect(processQueryTerm('الله')).toBe('الله');
    expect(processQueryTerm('')).toBeNull();
  });

  it('the particles written onto a word (و, ب, ك, ف with the article, ل with it, a lone و): indexed with and without them, dropped from a query', () => {
    expect(indexed('والكِتاب بالقلم كالعادة فالأمر للتجربة وكتب')).toEqual(['والكتاب', 'كتاب', 'بالقلم', 'قلم', 'كالعاده', 'عاده', 'فالامر', 'امر', 'للتجربه', 'تجربه', 'وكتب', 'كتب']);
    for (const [query, looked] of [['والكتاب', 'كتاب'], ['الكتاب', 'كتاب'], ['كتاب', 'كتاب'], ['للتجربة', 'تجربه'], ['التجربة', 'تجربه'], ['تجربة', 'تجربه']]) expect(processQueryTerm(query!), query).toBe(looked);
    // The longest particle the word starts with decides, and three letters must stay: these are words of their own.
    expect(indexed('والد بالغ لله وزن')).toEqual(['والد', 'بالغ', 'لله', 'وزن']);
  });
});

describe('shards', () => {
  it('a term lives under its first two characters; a query finds its shard by them', () => {
    expect(shardKey('garden')).toBe('ga');
    expect(shardKey('a')).toBe('a');
    expect(shardKey('😀x')).toBe('😀x');
    const shards: [string, string][] = [['0', 'a'], ['ga', 'b'], ['ka', 'c']];
    expect(shardFor(shards, 'ga')).toBe('b');
    expect(shardFor(shards, 'gz')).toBe('b');
    expect(shardFor(shards, 'kb')).toBe('c');
    expect(shardFor([['b', 'x']], 'a')).toBeNull();
  });

  it('the shards a query word reads: those of its key; a one-character prefix (of two code units) reads every key starting with it', () => {
    const shards: [string, string][] = [['0', 'a'], ['ga', 'b'], ['ka', 'c'], ['😀', 'd'], ['😀m', 'e'], ['😀z', 'f'], ['😁', 'g']];
    expect(shardsHolding(shards, 'garden', true)).toEqual([1]);
    expect(shardsHolding(shards, 'ga', true)).toEqual([1]);
    expect(shardsHolding(shards, 'g', false)).toEqual([0]);
    expect(shardsHolding(shards, '😀', true)).toEqual([3, 4, 5]);
    expect(shardsHolding(shards, '😀n', true)).toEqual([4]);
    expect(shardsHolding([['😀a', 'x'], ['😀b', 'y'], ['😁', 'z']], '😀', true)).toEqual([0, 1]);
    expect(shardsHolding(shards, '!', false)).toEqual([]);
  });
});
