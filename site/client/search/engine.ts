// The search page's engine (CONTRACT §9): one MiniSearch for the page's life. It is made
// once, when the base's field lengths arrive: every base note, less the notes gone since,
// plus the notes changed since (indexed here, once). Each query then gives it the postings
// of just the words that query reads, decoded from their shards once and kept: the gone
// notes left out, the changed notes' postings after the base's, the terms in the order a
// MiniSearch over the whole index holds them. So MiniSearch ranks (BM25, our boosts, even
// its ties) as it would over the whole index, and a query costs what its own words cost.
import type MiniSearch from 'minisearch';
import type { SearchOptions } from 'minisearch';
import {
  indexOptions,
  prefixSearch,
  processQueryTerm,
  processTerm,
  SEARCH_BOOST,
  SEARCH_FIELDS,
  tokenizeQuery,
  type SearchManifest,
  type ShardFile,
} from '../../../shared/search/index-format.ts';
import { engineOfDocs, postingsOf, queryOver, type RawHit, type TermData } from './minisearch-internals.ts';

/** The query options: a query's words without their Arabic article, prefixes, every word required. */
export const QUERY_OPTIONS = { tokenize: tokenizeQuery, processTerm: processQueryTerm, prefix: prefixSearch, combineWith: 'AND', boost: SEARCH_BOOST } as const;

/** A query's word as MiniSearch looks it up: folded, and whether the longer words it starts match too. */
export interface QueryWord {
  term: string;
  prefix: boolean;
}

/** The words of a query, as MiniSearch reads them with QUERY_OPTIONS. */
export function queryWords(query: string): QueryWord[] {
  const words: QueryWord[] = [];
  for (const token of tokenizeQuery(query)) {
    const term = processQueryTerm(token);
    if (term) words.push({ term, prefix: prefixSearch(term) });
  }
  return words;
}

const finds = (word: QueryWord, term: string) => (word.prefix ? term.startsWith(word.term) : term === word.term);
const wanted = (words: QueryWord[], term: string) => words.some((w) => finds(w, term));

/**
 * Every word of a query must match. When the notes holding them all are few next to those
 * holding one of them, MiniSearch is told to score only those (`boostDocument` 0 skips a
 * note before it is scored, 1 leaves its score as it was; a term's rarity is still counted
 * over its whole posting list): the same results and scores, without scoring thousands
 * of notes the last word rules out.
 */
function queryOptions(words: QueryWord[], terms: [string, TermData][]): SearchOptions {
  if (words.length < 2) return QUERY_OPTIONS;
  const postings = words.map((w) => terms.filter(([t]) => finds(w, t)).flatMap(([, data]) => [...data.values()]));
  const sizes = postings.map((maps) => maps.reduce((n, m) => n + m.size, 0));
  const rarest = sizes.indexOf(Math.min(...sizes));
  // Words about as common as each other: too little to gain for what finding the common notes costs.
  if (sizes[rarest]! * 2 > Math.max(...sizes)) return QUERY_OPTIONS;
  const notes = new Set<number>();
  for (const m of postings[rarest]!) for (const id of m.keys()) notes.add(id);
  postings.forEach((maps, i) => {
    if (i !== rarest) for (const id of notes) if (!maps.some((m) => m.has(id))) notes.delete(id);
  });
  // Scoring a few more notes costs less than asking about each.
  if (notes.size * 2 > Math.max(...sizes)) return QUERY_OPTIONS;
  return { ...QUERY_OPTIONS, boostDocument: (id: number) => (notes.has(id) ? 1 : 0) };
}

export interface Hit {
  id: number;
  score: number;
  /** The index's words that matched (folded), for highlighting. */
  words: string[];
}

/**
 * A query's matches in MiniSearch's order: score (times the number of the query's words
 * matched), best first, ties in the order MiniSearch met them. Only what is shown is put
 * in order and made a Hit: the first page is picked in one pass, the rest sorted on demand.
 */
export class Ranked {
  static readonly none = new Ranked(new Map());
  /** Every match in order, once a page past the first pick is asked for. */
  private sorted: Scored[] | null = null;

  constructor(private readonly raw: Map<number, RawHit>) {}

  get length(): number {
    return this.raw.size;
  }

  /** The best `count` matches in order, in one pass (a match never passes one met before it with the same score). */
  private best(count: number): Scored[] {
    const top: Scored[] = [];
    for (const [id, hit] of this.raw) {
      const score = hit.score * (hit.terms.length || 1);
      if (top.length === count) {
        if (!(score > top[count - 1]!.score)) continue;
        top.pop();
      }
      let at = top.length;
      while (at > 0 && score > top[at - 1]!.score) at--;
      top.splice(at, 0, { id, score });
    }
    return top;
  }

  slice(from: number, to: number): Hit[] {
    let page: Scored[];
    if (!this.sorted && to <= FIRST_PICK) page = this.best(to).slice(from);
    else {
      // As MiniSearch's `search` sorts them (a stable sort).
      this.sorted ??= [...this.raw].map(([id, hit]) => ({ id, score: hit.score * (hit.terms.length || 1) })).sort((a, b) => b.score - a.score);
      page = this.sorted.slice(from, to);
    }
    return page.map(({ id, score }) => ({ id, score, words: Object.keys(this.raw.get(id)!.match) }));
  }
}

interface Scored {
  id: number;
  score: number;
}

/** Up to this many first matches are picked without sorting them all. */
const FIRST_PICK = 50;

/** A shard the query needs, with its place in the manifest (the whole index holds terms in that order). */
export interface LoadedShard {
  at: number;
  terms: ShardFile;
}

export class PageEngine {
  private readonly engine: MiniSearch;
  private readonly docs: number;
  private readonly gone: Set<number>;
  /** The changed notes' postings by term, terms in the order MiniSearch first met them. */
  private readonly delta = new Map<string, TermData>();
  /** Base terms decoded so far. */
  private readonly decoded = new Map<string, TermData>();

  /** `lengths`: the base's field lengths, `docs × fields` numbers. */
  constructor(manifest: SearchManifest, lengths: ArrayLike<number>) {
    this.docs = manifest.docs;
    this.gone = new Set(manifest.gone);
    manifest.delta.forEach((doc, i) => {
      // MiniSearch gives a changed note the next short id: it must be the note's id.
      if (doc.id !== manifest.docs + i) throw new Error('search index: delta ids out of order');
    });
    if (lengths.length !== manifest.docs * SEARCH_FIELDS.length) throw new Error('search index: field lengths do not match');
    const met = new Set<string>();
    const record = (token: string) => {
      const terms = processTerm(token);
      if (Array.isArray(terms)) for (const t of terms) met.add(t);
      else if (terms) met.add(terms);
      return terms;
    };
    this.engine = engineOfDocs({ ...indexOptions, processTerm: record }, manifest.docs, SEARCH_FIELDS.length, lengths, manifest.avg);
    // In this order, as over the whole index: the averages MiniSearch keeps come out the same.
    this.engine.discardAll(manifest.gone);
    this.engine.addAll(manifest.delta.map(({ meta: _meta, ...doc }) => doc));
    const postings = postingsOf(this.engine);
    for (const term of met) this.delta.set(term, postings.get(term)!);
  }

  /** Ranks `query` over the base terms of `shards` (every shard holding its words) and the changed notes. */
  rank(query: string, shards: LoadedShard[]): Ranked {
    const words = queryWords(query);
    if (words.length === 0) return Ranked.none;
    const base: { at: number; i: number; entry: ShardFile[number] }[] = [];
    const inBase = new Set<string>();
    for (const { at, terms } of shards) {
      terms.forEach((entry, i) => {
        if (!wanted(words, entry[0])) return;
        base.push({ at, i, entry });
        inBase.add(entry[0]);
      });
    }
    base.sort((a, b) => a.at - b.at || a.i - b.i);
    const terms: [string, TermData][] = base.map(({ entry }) => [entry[0], this.decode(entry)]);
    // Terms only changed notes hold come after every base term, as they do over the whole index.
    for (const [term, data] of this.delta) if (!inBase.has(term) && wanted(words, term)) terms.push([term, data]);
    return new Ranked(queryOver(this.engine, terms, query, queryOptions(words, terms)));
  }

  /** A base term's postings as MiniSearch keeps them: the notes gone since left out, the changed notes' after. */
  private decode(entry: ShardFile[number]): TermData {
    const term = entry[0];
    let data = this.decoded.get(term);
    if (data) return data;
    data = new Map();
    for (let i = 1; i + 1 < entry.length; i += 2) {
      const flat = entry[i + 1];
      if (!Array.isArray(flat)) continue;
      const docs = new Map<number, number>();
      let id = 0;
      for (let j = 0; j + 1 < flat.length; j += 2) {
        id += flat[j]!;
        if (id < this.docs && !this.gone.has(id)) docs.set(id, flat[j + 1]!);
      }
      data.set(entry[i] as number, docs);
    }
    for (const [field, docs] of this.delta.get(term) ?? []) {
      const own = data.get(field);
      if (!own) data.set(field, new Map(docs));
      else for (const [id, tf] of docs) own.set(id, tf);
    }
    this.decoded.set(term, data);
    return data;
  }
}
