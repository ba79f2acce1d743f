// Latin letters with a stroke or a ligature have no Unicode decomposition, so dropping accents
// left them: `organizacje spoleczne` found nothing in a Polish vault (społeczne), nor `duoc` in
// Vietnamese (được), nor `strasse` in German (straße). They fold as Lucene's ASCIIFoldingFilter
// spells them, in the index and the query alike, and the passage marks the word as written.
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
