// The one place that reaches past MiniSearch's public API (written against 7.2), so the
// search page keeps one engine for its whole life instead of loading a new one per query
// (engine.ts). Three things, all of MiniSearch's own state:
//   - its documents (`_documentIds`, `_idToShortId`, `_fieldLength`, …), set once from the
//     base's field lengths, where `loadJS` would first turn every id into a string and back;
//   - its postings (`_index`: a SearchableMap of term → field id → short id → frequency);
//   - its query without the result object `search` makes for every match (`executeQuery`:
//     short id → score, the query's words matched, the index's words matched).
// The ranking stays MiniSearch's. test/unit/search-engine.test.ts pins all three: a
// MiniSearch upgrade that changes them fails there, not in a visitor's browser; the version
// is pinned exactly (test/unit/library-pins.test.ts).
// Retired when MiniSearch can load documents without terms and query postings it is handed through its public API.
import MiniSearch, { type Options, type SearchOptions } from 'minisearch';
import type SearchableMap from 'minisearch/SearchableMap';

/** A term's postings: field id → short id → term frequency. */
export type TermData = Map<number, Map<number, number>>;

/** What MiniSearch knows of one match before `search` turns it into a result. */
export interface RawHit {
  score: number;
  /** The query's words this document matched (MiniSearch multiplies the score by their count). */
  terms: string[];
  /** The index's words that matched, with their fields. */
  match: Record<string, string[]>;
}

interface Inside {
  _documentIds: Map<number, unknown>;
  _idToShortId: Map<unknown, number>;
  _fieldLength: Map<number, number[]>;
  _avgFieldLength: number[];
  _documentCount: number;
  _nextId: number;
  _index: SearchableMap<TermData>;
  executeQuery(query: string, options: SearchOptions): Map<number, RawHit>;
}

const inside = (engine: MiniSearch): Inside => engine as unknown as Inside;

/**
 * A MiniSearch holding `count` documents with ids 0 to count - 1 (their own short ids), the
 * field lengths of each (`lengths[id * width + field]`) and these average lengths; no terms.
 * What `loadJS` makes of the same documents and an empty index.
 */
export function engineOfDocs<T>(options: Options<T>, count: number, width: number, lengths: ArrayLike<number>, avg: number[]): MiniSearch<T> {
  const engine = new MiniSearch<T>(options);
  const ids = new Map<number, number>();
  const fieldLength = new Map<number, number[]>();
  for (let id = 0; id < count; id++) {
    ids.set(id, id);
    const own = new Array<number>(width);
    for (let f = 0; f < width; f++) own[f] = lengths[id * width + f]!;
    fieldLength.set(id, own);
  }
  const state = inside(engine);
  state._documentIds = ids;
  state._idToShortId = new Map(ids);
  state._fieldLength = fieldLength;
  state._avgFieldLength = [...avg];
  state._documentCount = count;
  state._nextId = count;
  return engine;
}

/** The postings the engine holds (what `add` put there). */
export function postingsOf(engine: MiniSearch): SearchableMap<TermData> {
  return inside(engine)._index;
}

/**
 * MiniSearch's query over exactly `terms`, put in its index in this order (the order it
 * meets prefix matches in, which breaks ties, follows it): its raw results by short id.
 */
export function queryOver(engine: MiniSearch, terms: Iterable<[string, TermData]>, query: string, options: SearchOptions): Map<number, RawHit> {
  const state = inside(engine);
  // The engine's own SearchableMap, emptied (the package's separate export would be a second copy in search.js).
  state._index.clear();
  for (const [term, data] of terms) state._index.set(term, data);
  return state.executeQuery(query, options);
}
