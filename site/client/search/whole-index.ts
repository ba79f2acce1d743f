// MiniSearch over the whole index at once, loaded as MiniSearch loads an index it wrote
// (`loadJS`): the search bench's baseline (a site that ships one index file) and the
// reference the page's engine (engine.ts) is tested against. The search page never uses it.
import MiniSearch from 'minisearch';
import { indexOptions, SEARCH_FIELDS, type SearchManifest, type ShardFile } from '../../../shared/search/index-format.ts';

type Plain = Parameters<typeof MiniSearch.loadJS>[0];
type Postings = Record<number, Record<number, number>>;
type BaseDocs = { ids: Record<number, number>; lengths: Record<number, number[]> };

const FIELD_IDS = Object.fromEntries(SEARCH_FIELDS.map((f, i) => [f, i]));

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

/** A shard's terms with their postings as MiniSearch serializes them; the notes in `leaveOut` left out (a vacuumed index). */
export function decodeShard(shard: ShardFile, leaveOut: ReadonlySet<number> = new Set()): [string, Postings][] {
  return shard.map(([term, ...fields]) => {
    const postings: Postings = {};
    for (let i = 0; i < fields.length; i += 2) {
      const flat = fields[i + 1] as number[];
      const docs: Record<number, number> = {};
      let id = 0;
      for (let j = 0; j < flat.length; j += 2) {
        id += flat[j]!;
        if (!leaveOut.has(id)) docs[id] = flat[j + 1]!;
      }
      postings[fields[i] as number] = docs;
    }
    return [term, postings];
  });
}

/** MiniSearch over the base's terms, less the notes gone since, plus the notes changed since (indexed here). */
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
