// The search index's base (shared/search/index-format.ts): every searchable note
// indexed as MiniSearch indexes it, at one moment, then split into files a query downloads a few
// of: the terms by their first two characters (shards), the field lengths BM25 needs.
// Made whole, from notes in path order, so the same notes always give the same files
// (a restart that finds nothing changed rewrites none of them).
import { createHash } from 'node:crypto';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { indexOptions, safeJson, SEARCH_DIR, SEARCH_FIELDS, shardKey, type SearchDoc, type ShardFile } from '../../shared/search/index-format.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { searchDocOf } from './search-docs.ts';

/** Bytes of terms a shard holds before the next key starts a new one (a key is never split). */
const SHARD_BYTES = 24 * 1024;

export interface IndexFile {
  /** Relative to the site folder; named by its content. */
  file: string;
  /** UTF-8 bytes of its content. */
  bytes: number;
  /**
   * Its text until the file is in the live folder (SearchIndex.release), then null: read back
   * from there when a patch needs it. A realistic 10,000-note base is about 17 MB of text a
   * builder held for the rare quiet moment that patches a few of its shards.
   */
  content: string | null;
}

export interface SearchBase {
  /** Base id of each note the base holds, with the note's hash when it was made. */
  members: Map<VaultPath, { id: number; hash: string }>;
  /** Note paths by base id. */
  paths: VaultPath[];
  avg: number[];
  lengths: IndexFile;
  /** Sorted by first key. */
  shards: { key: string; file: IndexFile }[];
}

export function indexFile(kind: string, content: string): IndexFile {
  const hash = createHash('sha1').update(content).digest('hex').slice(0, 12);
  return { file: `${SEARCH_DIR}/${kind}.${hash}.json`, bytes: Buffer.byteLength(content), content };
}

/** One term's postings while the base is made: per field, `[doc gap, frequency, …]` as the shard holds them. */
interface Postings {
  fields: (number[] | undefined)[];
  /** The last note each field's list names. */
  last: number[];
}

export interface IndexedDocs {
  /** `docs × fields` numbers: each field's count of distinct tokens (MiniSearch's field length). */
  lengths: number[];
  /** MiniSearch's average field lengths, computed as it computes them (the same floats). */
  avg: number[];
  /** Every term with its postings, in no particular order. */
  terms: ShardFile;
}

/**
 * The documents indexed as `new MiniSearch(indexOptions)` + `add` each + `toJSON` index them,
 * written straight into the shards' encoding: no search tree, no second copy of it as
 * plain objects (a 10,000-note build spent 0.8 s and 70 MB there). Ids are the documents'
 * positions. `test/unit/search-base.test.ts` holds the result equal to MiniSearch's.
 */
export function indexDocs(docs: SearchDoc[]): IndexedDocs {
  const indexer = new DocIndexer();
  for (const doc of docs) indexer.add(doc);
  return indexer.finish();
}

const { tokenize, processTerm } = indexOptions as Required<Pick<typeof indexOptions, 'tokenize' | 'processTerm'>>;

/** The terms one token gives a field (MiniSearch's processTerm answers one, several or none). */
function termsOfToken(token: string, field: string): string[] {
  const terms = processTerm(token, field);
  return Array.isArray(terms) ? terms : terms ? [terms] : [];
}

/** Every term a document gives the index, in any field (as the indexer below makes them). */
export function termsOf(doc: SearchDoc): Set<string> {
  const out = new Set<string>();
  for (const field of SEARCH_FIELDS) {
    const value = doc[field];
    if (value == null) continue;
    for (const token of tokenize(String(value), field)) for (const term of termsOfToken(token, field)) out.add(term);
  }
  return out;
}

/** One more occurrence of a term in field `field` of note `id` (ids come in order). */
function post(entry: Postings, field: number, id: number): void {
  const flat = entry.fields[field];
  if (!flat) {
    entry.fields[field] = [id, 1];
    entry.last[field] = id;
  } else if (entry.last[field] === id) flat[flat.length - 1]!++;
  else {
    flat.push(id - entry.last[field]!, 1);
    entry.last[field] = id;
  }
}

/** indexDocs one document at a time (ids in the order added): a base made in steps between edits (BaseJob). */
export class DocIndexer {
  private readonly lengths: number[] = [];
  private readonly avg: number[] = [];
  private readonly postings = new Map<string, Postings>();
  // Each distinct token once: the postings of its terms (processTerm depends on the token
  // alone), and the last field that counted it. Words repeat across thousands of notes: no
  // term folded again, looked up again, or set of tokens made per field.
  private readonly known = new Map<string, { posts: Postings[]; counted: number }>();
  private fieldRun = 0;
  private count = 0;

  add(doc: SearchDoc): void {
    const id = this.count++;
    for (let f = 0; f < SEARCH_FIELDS.length; f++) {
      const field = SEARCH_FIELDS[f]!;
      this.lengths.push(0);
      const value = doc[field];
      if (value == null) continue;
      const tokens = tokenize(String(value), field);
      const run = ++this.fieldRun;
      // MiniSearch counts distinct tokens as they come from the tokenizer (an empty field is one).
      let length = 0;
      for (let t = 0; t < tokens.length; t++) {
        const token = tokens[t]!;
        let seen = this.known.get(token);
        if (!seen) {
          this.known.set(token, (seen = { posts: termsOfToken(token, field).map((term) => this.postingsOf(term)), counted: 0 }));
        }
        if (seen.counted !== run) {
          seen.counted = run;
          length++;
        }
        for (const entry of seen.posts) post(entry, f, id);
      }
      this.lengths[id * SEARCH_FIELDS.length + f] = length;
      this.avg[f] = ((this.avg[f] || 0) * id + length) / (id + 1);
    }
  }

  private postingsOf(term: string): Postings {
    let entry = this.postings.get(term);
    if (!entry) this.postings.set(term, (entry = { fields: [], last: [] }));
    return entry;
  }

  finish(): IndexedDocs {
    const terms: ShardFile = [];
    for (const [term, entry] of this.postings) {
      const out: ShardFile[number] = [term];
      entry.fields.forEach((flat, f) => flat && out.push(f, flat));
      terms.push(out);
    }
    // Let go of what only adding needed before the shards are packed: a base is made near the builder's heap cap.
    this.postings.clear();
    this.known.clear();
    return { lengths: this.lengths, avg: this.avg, terms };
  }
}

/** About the bytes a term takes in its shard (numbers of a few digits and their commas): no second JSON pass. */
function termBytes(entry: ShardFile[number]): number {
  let bytes = entry[0].length + 8;
  for (let i = 2; i < entry.length; i += 2) bytes += 4 + (entry[i] as number[]).length * 4;
  return bytes;
}

/** The files of a base: what a full build's partner thread can make from the documents alone (search-job.ts). */
export type BaseFiles = Pick<SearchBase, 'avg' | 'lengths' | 'shards'>;

/** The base's files from its documents, in id order. */
export function baseFiles(docs: SearchDoc[]): BaseFiles {
  return drain(filesOf(indexDocs(docs)));
}

/** The base's files of indexed documents: the terms packed into shards by key, a pause after each shard (BaseJob). */
function* filesOf(indexed: IndexedDocs): Generator<void, BaseFiles> {
  // Terms grouped by shard key, keys in order, packed into files of about SHARD_BYTES.
  const byKey = new Map<string, ShardFile>();
  for (const entry of indexed.terms) {
    const key = shardKey(entry[0]);
    let group = byKey.get(key);
    if (!group) byKey.set(key, (group = []));
    group.push(entry);
  }
  yield;
  const shards: SearchBase['shards'] = [];
  let open: { key: string; terms: ShardFile; bytes: number } | null = null;
  for (const key of [...byKey.keys()].sort()) {
    const group = byKey.get(key)!.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    let bytes = 0;
    for (const entry of group) bytes += termBytes(entry);
    if (open && open.bytes + bytes > SHARD_BYTES) {
      shards.push({ key: open.key, file: indexFile('shard', safeJson(open.terms)) });
      open = null;
      yield;
    }
    open ??= { key, terms: [], bytes: 0 };
    open.terms.push(...group);
    open.bytes += bytes;
  }
  if (open) shards.push({ key: open.key, file: indexFile('shard', safeJson(open.terms)) });
  return { avg: indexed.avg, lengths: indexFile('lengths', safeJson(indexed.lengths)), shards };
}

/** A generator run to its end. */
export function drain<T>(work: Generator<void, T>): T {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}

/** A generator run until `deadline` (performance.now()): its result once it ends, else null. */
export function runUntil<T>(work: Generator<void, T>, deadline: number): T | null {
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    if (performance.now() >= deadline) return null;
  }
}

/** The base of `notes` (in id order) from its files, made here or elsewhere from the same notes. */
export function searchBaseOf(notes: NoteRecord[], files: BaseFiles): SearchBase {
  const members = new Map<VaultPath, { id: number; hash: string }>();
  notes.forEach((note, id) => members.set(note.path, { id, hash: note.hash }));
  return { members, paths: notes.map((n) => n.path), ...files };
}

export function buildSearchBase(notes: NoteRecord[]): SearchBase {
  return searchBaseOf(notes, baseFiles(notes.map(searchDocOf)));
}

/**
 * A new base made in steps (search-index.ts `tidyStep`), of the notes as they were when it
 * began: an edit made meanwhile is in the delta against it, as against any base.
 */
export class BaseJob {
  private readonly work: Generator<void, SearchBase>;

  /** `notes`: the records the base is made of (an edit since is a newer record). */
  constructor(readonly notes: NoteRecord[]) {
    this.work = made(notes);
  }

  /** Works until `deadline` (performance.now()); the base once it is made. */
  step(deadline: number): SearchBase | null {
    return runUntil(this.work, deadline);
  }
}

/** A base made with a pause after each note indexed and each shard packed. */
function* made(notes: NoteRecord[]): Generator<void, SearchBase> {
  const indexer = new DocIndexer();
  for (const note of notes) {
    indexer.add(searchDocOf(note));
    yield;
  }
  return searchBaseOf(notes, yield* filesOf(indexer.finish()));
}
