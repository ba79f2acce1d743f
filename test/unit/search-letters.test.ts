// Latin letters with a stroke or a ligature have no Unicode decomposition, so dropping accents
// left them: `organizacje spoleczne` found nothing in a Polish vault (społeczne), nor `duoc` in
// Vietnamese (được), nor `strasse` in German (straße). They fold as Lucene's ASCIIFoldingFilter
// spells them, in the index and the query alike, and the passage marks the word as written.
// Hebrew writes its particles onto the word (הכספת, בהערה): `כספת` found only the bare word.
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { indexOptions, type SearchDoc } from '../../shared/search/index-format.ts';
import { QUERY_OPTIONS } from '../../site/client/search/engine.ts';
import { matchSpans } from '../../site/client/search/passage.ts';
import { foldText } from '../../shared/text-fold.ts';

const NOTES: SearchDoc[] = [
  { title: 'Doradztwo', headings: '', tags: 'organizacje-społeczne', text: 'Organizacje społeczne we Wrocławiu i Łodzi.' },
  { title: 'Liên kết', headings: '', tags: '', text: 'Liên kết nội bộ được định dạng ở Đà Nẵng.' },
  { title: 'Stadt', headings: '', tags: '', text: 'Die Straße in Ærøskøbing, ein Œuvre von Þór.' },
  { title: 'Plain', headings: '', tags: '', text: 'Nothing special here.' },
  { title: 'קטעי CSS', headings: '', tags: '', text: 'קטעי CSS נשמרים בתיקייה של הכספת, ובהערה שלך.' },
  { title: 'בסיס', headings: '', tags: '', text: 'כספת חדשה ליד ההערה.' },
];

function search(query: string): string[] {
  const engine = new MiniSearch<SearchDoc & { id: number }>(indexOptions);
  engine.addAll(NOTES.map((doc, id) => ({ ...doc, id })));
  return engine.search(query, QUERY_OPTIONS).map((r) => NOTES[r.id]!.title);
}

describe('letters with a stroke or a ligature', () => {
  it('fold to the letters a reader types without them', () => {
    expect(foldText('Społeczne WROCŁAW')).toBe('spoleczne wroclaw');
    expect(foldText('được ĐÀ NẴNG')).toBe('duoc da nang');
    expect(foldText('Straße ẞ Søren Æble Œuvre Þór')).toBe('strasse ss soren aeble oeuvre thor');
    // The line breaks stay where they were.
    expect(foldText('ł\nß\n').split('\n')).toHaveLength(3);
  });

  it('are found typed either way', () => {
    expect(search('organizacje spoleczne')).toEqual(['Doradztwo']);
    expect(search('społeczne')).toEqual(['Doradztwo']);
    expect(search('wroclawiu lodzi')).toEqual(['Doradztwo']);
    expect(search('duoc dinh dang')).toEqual(['Liên kết']);
    expect(search('da nang')).toEqual(['Liên kết']);
    expect(search('strasse aeroskobing')).toEqual(['Stadt']);
    expect(search('oeuvre thor')).toEqual(['Stadt']);
  });

  it('a match marks the word as written', () => {
    const line = 'Organizacje społeczne we Wrocławiu.';
    const [from, to] = matchSpans(line, new Set(['spoleczne']))[0]!;
    expect(line.slice(from, to)).toBe('społeczne');
    const german = 'Die Straße hier.';
    const [a, b] = matchSpans(german, new Set(['strasse']))[0]!;
    expect(german.slice(a, b)).toBe('Straße');
  });
});

describe('Hebrew particles written onto the word', () => {
  it('are found with and without them, and the passage marks the word as written', () => {
    expect(search('כספת').sort()).toEqual(['בסיס', 'קטעי CSS']);
    expect(search('הכספת').sort()).toEqual(['בסיס', 'קטעי CSS']);
    expect(search('הערה').sort()).toEqual(['בסיס', 'קטעי CSS']);
    expect(search('תיקייה')).toEqual(['קטעי CSS']);
    expect(search('שבת')).toEqual([]);
    const line = 'נשמרים בתיקייה של הכספת.';
    const [from, to] = matchSpans(line, new Set(['ספת']))[0]!;
    expect(line.slice(from, to)).toBe('הכספת');
  });
});
