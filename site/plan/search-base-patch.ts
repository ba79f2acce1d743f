// A base brought up to date for notes edited since it was made, in place: each such note
// keeps its base id, its old text's words leave the postings of the shards that hold them,
// its new text's words enter them, and its field lengths and the averages are what a
// fresh build of the same notes computes. After an edit the delta serves the note's new
// text (inline in the manifest every query reads) and the shards still list the old text's
// words, so a word the owner deleted stays downloadable until this is done. Rewriting only
// the shards of the note's words costs a fraction of a whole new base, every searchable
// note indexed again, which a save of a large note made due at every pause.
import { safeJson, SEARCH_FIELDS, shardIndex, shardKey, type SearchDoc, type ShardFile } from '../../shared/search/index-format.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { entriesOf, indexDocs, termsOf } from './doc-indexer.ts';
import { drain, indexFile, runUntil, type IndexFile, type SearchBase } from './search-base.ts';

/** A base file's text: its own, or read back from the live folder once released (search-index.ts). */
export type FileText = (file: IndexFile) => string;

const heldText: FileText = (file) => {
  if (file.content === null) throw new Error(`the search index file ${file.file} is no longer held`);
  return file.content;
};

/** A base member edited since the base was made: its document as the shards hold it, and now. */
export interface MemberPatch {
  /** The document the base holds for it, made when the patch comes to it. */
  old: () => SearchDoc;
  now: SearchDoc;
}

/** A term's frequency in each field of one note (0: not in that field). */
type FieldCounts = number[];

/**
 * A field's postings (`[id, frequency, id gap, frequency, …]`) with the patched ids' entries
 * replaced by `adds` (`[id, frequency]` in id order): one walk, the lists of common words
 * being as long as the vault.
 */
function fieldPatched(flat: readonly number[], patched: ReadonlyMap<number, unknown>, adds: [number, number][]): number[] {
  const out: number[] = [];
  let last = 0;
  let next = 0;
  const emit = (id: number, count: number) => {
    out.push(id - last, count);
    last = id;
  };
  let id = 0;
  for (let i = 0; i < flat.length; i += 2) {
    id += flat[i]!;
    while (next < adds.length && adds[next]![0] < id) emit(...adds[next++]!);
    if (!patched.has(id)) emit(id, flat[i + 1]!);
  }
  while (next < adds.length) emit(...adds[next++]!);
  return out;
}

/** A term's entry with `counts` (base id → frequencies per field) put in place of what it held for those ids; null when no note holds it any more. */
function entryPatched(entry: ShardFile[number], counts: ReadonlyMap<number, FieldCounts>): ShardFile[number] | null {
  const held: (readonly number[])[] = SEARCH_FIELDS.map(() => []);
  for (let i = 1; i < entry.length; i += 2) held[entry[i] as number] = entry[i + 1] as number[];
  const ids = [...counts.keys()].sort((a, b) => a - b);
  const out: ShardFile[number] = [entry[0]];
  held.forEach((flat, f) => {
    const adds = ids.filter((id) => counts.get(id)![f]! > 0).map((id): [number, number] => [id, counts.get(id)![f]!]);
    const patched = fieldPatched(flat, counts, adds);
    if (patched.length > 0) out.push(f, patched);
  });
  return out.length > 1 ? out : null;
}

/** Each term a note's document gives, with its frequency per field (the indexer's own count, as a fresh build makes it). */
function countsOf(doc: SearchDoc): { counts: Map<string, FieldCounts>; lengths: number[] } {
  const indexed = indexDocs([doc]);
  const counts = new Map<string, FieldCounts>();
  for (const entry of entriesOf(indexed.terms)) {
    const fields: FieldCounts = SEARCH_FIELDS.map(() => 0);
    for (let i = 1; i < entry.length; i += 2) fields[entry[i] as number] = (entry[i + 1] as number[])[1]!;
    counts.set(entry[0], fields);
  }
  return { counts, lengths: indexed.lengths };
}

/** MiniSearch's average field lengths over `lengths` (`docs × fields`), summed in id order as a fresh build sums them. */
function averages(lengths: number[]): number[] {
  const avg: number[] = [];
  const fields = SEARCH_FIELDS.length;
  for (let id = 0; id * fields < lengths.length; id++) {
    for (let f = 0; f < fields; f++) avg[f] = ((avg[f] || 0) * id + lengths[id * fields + f]!) / (id + 1);
  }
  return avg;
}

/** What a patch makes of a base: its new files and averages. */
export type PatchedFiles = Pick<SearchBase, 'shards' | 'lengths' | 'avg'>;

/**
 * The base with each patched member's postings, lengths and the averages as its document
 * now gives them, a pause after each note read and each shard written. Only the shards
 * holding one of their old or new terms are new files; a term no note holds any more goes
 * whole; a new term joins the shard of its key, in order. The base has a shard at least.
 */
function* patchSteps(base: SearchBase, patches: ReadonlyMap<number, MemberPatch>, text: FileText): Generator<void, PatchedFiles> {
  const keys = base.shards.map((s): [string, string] => [s.key, '']);
  // Per shard: term → (base id → its frequencies per field now; zeros when the note no longer has it).
  const byShard = new Map<number, Map<string, Map<number, FieldCounts>>>();
  let firstKey = keys[0]![0];
  const countFor = (term: string, id: number): FieldCounts => {
    const key = shardKey(term);
    // A key before the first shard's joins that shard, whose first key becomes it.
    const at = Math.max(0, shardIndex(keys, key));
    if (key < firstKey) firstKey = key;
    let terms = byShard.get(at);
    if (!terms) byShard.set(at, (terms = new Map()));
    let ids = terms.get(term);
    if (!ids) terms.set(term, (ids = new Map()));
    let fields = ids.get(id);
    if (!fields) ids.set(id, (fields = SEARCH_FIELDS.map(() => 0)));
    return fields;
  };
  const lengths = JSON.parse(text(base.lengths)) as number[];
  for (const [id, patch] of patches) {
    for (const term of termsOf(patch.old())) countFor(term, id);
    yield;
    const now = countsOf(patch.now);
    for (const [term, fields] of now.counts) fields.forEach((count, f) => (countFor(term, id)[f] = count));
    now.lengths.forEach((length, f) => (lengths[id * SEARCH_FIELDS.length + f] = length));
    yield;
  }
  const shards: SearchBase['shards'] = [];
  for (const [at, shard] of base.shards.entries()) {
    const terms = byShard.get(at);
    if (!terms) {
      shards.push(shard);
      continue;
    }
    const entries: ShardFile = [];
    for (const entry of JSON.parse(text(shard.file)) as ShardFile) {
      const counts = terms.get(entry[0]);
      if (!counts) {
        entries.push(entry);
        continue;
      }
      terms.delete(entry[0]);
      const patched = entryPatched(entry, counts);
      if (patched) entries.push(patched);
    }
    for (const [term, counts] of terms) {
      const added = entryPatched([term], counts);
      if (added) entries.push(added);
    }
    entries.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    // A shard left with no term goes: no key of its range is in any note.
    if (entries.length > 0) shards.push({ key: at === 0 ? firstKey : shard.key, file: indexFile('shard', safeJson(entries)) });
    yield;
  }
  return { shards, lengths: indexFile('lengths', safeJson(lengths)), avg: averages(lengths) };
}

/** The base patched at once (null: it has no shard to patch, a new base is due). */
export function basePatched(base: SearchBase, patches: ReadonlyMap<number, MemberPatch>, text: FileText = heldText): PatchedFiles | null {
  return base.shards.length === 0 ? null : drain(patchSteps(base, patches, text));
}

/**
 * A base brought up to date in steps at quiet moments (search-index.ts `tidyStep`), for the
 * records edited members had when it began: an edit made meanwhile is against it, as against
 * any base. A base without shards cannot be patched (a new base is made instead).
 */
export class PatchJob {
  private readonly work: Generator<void, PatchedFiles>;

  /** `records`: each patched member's record, as the patch reads it. */
  constructor(base: SearchBase, readonly records: ReadonlyMap<number, NoteRecord>, patches: ReadonlyMap<number, MemberPatch>, text: FileText) {
    this.work = patchSteps(base, patches, text);
  }

  /** Works until `deadline` (performance.now()); the files once they are made. */
  step(deadline: number): PatchedFiles | null {
    return runUntil(this.work, deadline);
  }
}
