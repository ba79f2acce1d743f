// The search index's base (shared/search/index-format.ts): every searchable note
// indexed as MiniSearch indexes it, at one moment, then split into files a query downloads a few
// of: the terms by their first two characters (shards), the field lengths BM25 needs.
// Made whole, from notes in path order, so the same notes always give the same files
// (a restart that finds nothing changed rewrites none of them).
import { createHash } from 'node:crypto';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { safeJson, SEARCH_DIR, shardKey, type SearchDoc, type ShardFile } from '../../shared/search/index-format.ts';
import { DocIndexer, indexDocs, type IndexedDocs } from './doc-indexer.ts';
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

/**
 * A base as a generation remembers it beside its files (site/write/generation.ts), so a restart's
 * catch-up pass compares each note with it instead of indexing every note again: the paths
 * and hashes of its notes by id, its averages, its files as [file, bytes] (their texts are the
 * live folder's), and how much patches have grown its shards.
 */
export interface RememberedBase {
  paths: string[];
  hashes: string[];
  avg: number[];
  lengths: [string, number];
  shards: [string, string, number][];
  patchGrowth: number;
}

export function indexFile(kind: string, content: string): IndexFile {
  const hash = createHash('sha1').update(content).digest('hex').slice(0, 12);
  return { file: `${SEARCH_DIR}/${kind}.${hash}.json`, bytes: Buffer.byteLength(content), content };
}

/** The files of a base: what the build thread of a full build can make from the documents alone (search-job.ts). */
export type BaseFiles = Pick<SearchBase, 'avg' | 'lengths' | 'shards'>;

/** The base's files from its documents, in id order. */
export function baseFiles(docs: SearchDoc[]): BaseFiles {
  return drain(filesOf(indexDocs(docs)));
}

/** The base's files of indexed documents: the terms packed into shards by key, a pause after each shard (BaseJob). */
function* filesOf(indexed: IndexedDocs): Generator<void, BaseFiles> {
  // Terms grouped by shard key, keys in order, packed into files of about SHARD_BYTES; a
  // term's postings are made as its shard is packed.
  const { terms } = indexed;
  const byKey = new Map<string, number[]>();
  for (let id = 0; id < terms.count; id++) {
    const key = shardKey(terms.term(id));
    let group = byKey.get(key);
    if (!group) byKey.set(key, (group = []));
    group.push(id);
  }
  yield;
  const shards: SearchBase['shards'] = [];
  let open: { key: string; terms: ShardFile; bytes: number } | null = null;
  for (const key of [...byKey.keys()].sort()) {
    const group = byKey.get(key)!.sort((a, b) => (terms.term(a) < terms.term(b) ? -1 : 1));
    let bytes = 0;
    for (const id of group) bytes += terms.bytes(id);
    if (open && open.bytes + bytes > SHARD_BYTES) {
      shards.push({ key: open.key, file: indexFile('shard', safeJson(open.terms)) });
      open = null;
      yield;
    }
    open ??= { key, terms: [], bytes: 0 };
    for (const id of group) open.terms.push(terms.entry(id));
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
