// The visitor search index in the browser (format: shared/search/index-format.ts). The
// manifest says where the base lives; a query downloads the base's field lengths once
// and the shards of its own words, and MiniSearch (loaded from those, minus the notes
// gone since, plus the notes changed since, indexed here) ranks the matches. Shards
// already fetched are kept for the next query.
import MiniSearch from 'minisearch';
import {
  indexOptions,
  META_CHUNK,
  prefixSearch,
  processQueryTerm,
  SEARCH_BOOST,
  SEARCH_FIELDS,
  shardFor,
  shardKey,
  tokenize,
  type MetaRow,
  type SearchManifest,
  type ShardFile,
} from '../../../shared/search/index-format.ts';

export interface Hit {
  id: number;
  score: number;
  /** The index's words that matched (folded), for highlighting. */
  words: string[];
}

/** A base file the manifest names is gone: the base was replaced since (open the manifest again). */
export class StaleIndex extends Error {}

type Plain = Parameters<typeof MiniSearch.loadJS>[0];
export type Postings = Record<number, Record<number, number>>;

const FIELD_IDS = Object.fromEntries(SEARCH_FIELDS.map((f, i) => [f, i]));

export class VisitorIndex {
  private shards = new Map<string, Promise<[string, Postings][]>>();
  private metaFiles = new Map<string, Promise<(MetaRow | null)[]>>();
  private lengths: Promise<BaseDocs> | null = null;
  /** The engine over the last query's shards (made again when a query needs others). */
  private engine: { shards: string; search: MiniSearch } | null = null;

  private constructor(
    private readonly manifest: SearchManifest,
    private readonly url: URL,
  ) {}

  /** Reads the manifest at `url` (served no-cache: revalidated each time, it changes with every edit; the page preloads it). */
  static async open(url: URL): Promise<VisitorIndex> {
    const res = await fetch(url);
    if (!res.ok) throw new Error(`search index: ${res.status}`);
    return new VisitorIndex((await res.json()) as SearchManifest, url);
  }

  private async file<T>(name: string): Promise<T> {
    const res = await fetch(new URL(name, this.url));
    if (res.status === 404) throw new StaleIndex(name);
    if (!res.ok) throw new Error(`search index: ${res.status}`);
    return (await res.json()) as T;
  }

  private shard(name: string): Promise<[string, Postings][]> {
    let pending = this.shards.get(name);
    if (!pending) {
      pending = this.file<ShardFile>(name).then(decodeShard);
      pending.catch(() => this.shards.delete(name));
      this.shards.set(name, pending);
    }
    return pending;
  }

  /** Every base note's id and field lengths (BM25 needs them for each match). */
  private baseDocs() {
    this.lengths ??= this.file<number[]>(this.manifest.lengths).then((flat) => baseDocsOf(this.manifest, flat));
    this.lengths.catch(() => (this.lengths = null));
    return this.lengths;
  }

  /** The shard files a query's words live in. */
  private shardsOf(query: string): string[] {
    const files = new Set<string>();
    for (const token of tokenize(query)) {
      const term = processQueryTerm(token);
      const file = term ? shardFor(this.manifest.shards, shardKey(term)) : null;
      if (file) files.add(file);
    }
    return [...files];
  }

  async search(query: string): Promise<Hit[]> {
    const files = this.shardsOf(query);
    if (files.length === 0 && this.manifest.delta.length === 0) return [];
    const [docs, ...shards] = await Promise.all([this.baseDocs(), ...files.map((f) => this.shard(f))]);
    // Only the shards this query reads: the smaller the engine, the sooner it is made.
    const key = files.sort().join(' ');
    if (this.engine?.shards !== key) this.engine = { shards: key, search: engineOf(this.manifest, docs, shards.flat()) };
    return this.engine.search
      .search(query, QUERY_OPTIONS)
      .map((r) => ({ id: r.id as number, score: r.score, words: Object.keys(r.match) }));
  }

  /** What each result shows, by id. */
  async meta(ids: number[]): Promise<Map<number, MetaRow>> {
    const out = new Map<number, MetaRow>();
    const { manifest } = this;
    const chunks = new Set<number>();
    for (const id of ids) {
      if (id >= manifest.docs) {
        const doc = manifest.delta[id - manifest.docs];
        if (doc) out.set(id, doc.meta);
      } else chunks.add(Math.floor(id / META_CHUNK));
    }
    await Promise.all(
      [...chunks].map(async (chunk) => {
        const name = manifest.meta[chunk]!;
        let pending = this.metaFiles.get(name);
        if (!pending) {
          pending = this.file<(MetaRow | null)[]>(name);
          pending.catch(() => this.metaFiles.delete(name));
          this.metaFiles.set(name, pending);
        }
        const rows = await pending;
        for (const id of ids) {
          if (Math.floor(id / META_CHUNK) !== chunk) continue;
          const row = rows[id % META_CHUNK];
          if (row) out.set(id, row);
        }
      }),
    );
    return out;
  }

  /** A result's page address, resolved beside the manifest (a site served under a path keeps it). */
  pageUrl(row: MetaRow): string {
    return new URL('.' + row[0], this.url).href;
  }
}

type BaseDocs = { ids: Record<number, number>; lengths: Record<number, number[]> };

/** The base's ids and field lengths as MiniSearch serializes them. */
export function baseDocsOf(manifest: SearchManifest, flat: number[]): BaseDocs {
  const ids: Record<number, number> = {};
  const lengths: Record<number, number[]> = {};
  const width = SEARCH_FIELDS.length;
  for (let id = 0; id < manifest.docs; id++) {
    ids[id] = id;
    lengths[id] = flat.slice(id * width, id * width + width);
  }
  return { ids, lengths };
}

/** MiniSearch over the base's loaded terms, less the notes gone since, plus the notes changed since (indexed here). */
export function engineOf(manifest: SearchManifest, docs: BaseDocs, terms: [string, Postings][]): MiniSearch {
  const plain = {
    documentCount: manifest.docs,
    nextId: manifest.docs,
    documentIds: docs.ids,
    fieldIds: FIELD_IDS,
    fieldLength: docs.lengths,
    // MiniSearch keeps this array and updates it as notes leave and join: its own copy.
    averageFieldLength: [...manifest.avg],
    storedFields: {},
    dirtCount: 0,
    index: terms,
    serializationVersion: 2,
  } as unknown as Plain;
  const engine = MiniSearch.loadJS(plain, indexOptions);
  engine.discardAll(manifest.gone);
  engine.addAll(manifest.delta.map(({ meta: _meta, ...doc }) => doc));
  return engine;
}

/** The query options: a query's words without their Arabic article, prefixes, every word required. */
export const QUERY_OPTIONS = { processTerm: processQueryTerm, prefix: prefixSearch, combineWith: 'AND', boost: SEARCH_BOOST } as const;

/** A shard's terms with their postings as MiniSearch serializes them. */
export function decodeShard(shard: ShardFile): [string, Postings][] {
  return shard.map(([term, ...fields]) => {
    const postings: Postings = {};
    for (let i = 0; i < fields.length; i += 2) {
      const flat = fields[i + 1] as number[];
      const docs: Record<number, number> = {};
      let id = 0;
      for (let j = 0; j < flat.length; j += 2) {
        id += flat[j]!;
        docs[id] = flat[j + 1]!;
      }
      postings[fields[i] as number] = docs;
    }
    return [term, postings];
  });
}
