// The search index's base (shared/search/index-format.ts): every searchable note
// indexed by MiniSearch at one moment, then split into files a query downloads a few
// of: the terms by their first two characters (shards), the field lengths BM25 needs.
// Made whole, from notes in path order, so the same notes always give the same files
// (a restart that finds nothing changed rewrites none of them).
import { createHash } from 'node:crypto';
import MiniSearch from 'minisearch';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { indexOptions, safeJson, SEARCH_DIR, SEARCH_FIELDS, shardKey, type ShardFile } from '../../shared/search/index-format.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { searchDocOf } from './search-docs.ts';

/** Bytes of terms a shard holds before the next key starts a new one (a key is never split). */
const SHARD_BYTES = 24 * 1024;

export interface IndexFile {
  /** Relative to the site folder; named by its content. */
  file: string;
  content: string;
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
  return { file: `${SEARCH_DIR}/${kind}.${hash}.json`, content };
}

type Postings = Record<string, Record<string, number>>;

/** A term's postings per field as `[fieldId, [doc gap, frequency, …]]` pairs (ids ascend: integer keys keep their order). */
function encodeTerm(term: string, fields: Postings): ShardFile[number] {
  const out: ShardFile[number] = [term];
  for (const [fieldId, docs] of Object.entries(fields)) {
    const flat: number[] = [];
    let last = 0;
    for (const [doc, tf] of Object.entries(docs)) {
      const id = Number(doc);
      flat.push(id - last, tf);
      last = id;
    }
    out.push(Number(fieldId), flat);
  }
  return out;
}

/** About the bytes a term takes in its shard (numbers of a few digits and their commas): no second JSON pass. */
function termBytes(entry: ShardFile[number]): number {
  let bytes = entry[0].length + 8;
  for (let i = 2; i < entry.length; i += 2) bytes += 4 + (entry[i] as number[]).length * 4;
  return bytes;
}

export function buildSearchBase(notes: NoteRecord[]): SearchBase {
  const index = new MiniSearch(indexOptions);
  const members = new Map<VaultPath, { id: number; hash: string }>();
  notes.forEach((note, id) => {
    index.add({ id, ...searchDocOf(note) });
    members.set(note.path, { id, hash: note.hash });
  });
  const plain = index.toJSON();
  const lengths: number[] = [];
  for (let id = 0; id < notes.length; id++) {
    const own = plain.fieldLength[id] as number[] | undefined;
    for (let f = 0; f < SEARCH_FIELDS.length; f++) lengths.push(own?.[f] ?? 0);
  }
  // Terms grouped by shard key, keys in order, packed into files of about SHARD_BYTES.
  const byKey = new Map<string, ShardFile>();
  for (const [term, fields] of plain.index) {
    const key = shardKey(term);
    let group = byKey.get(key);
    if (!group) byKey.set(key, (group = []));
    group.push(encodeTerm(term, fields as Postings));
  }
  const shards: SearchBase['shards'] = [];
  let open: { key: string; terms: ShardFile; bytes: number } | null = null;
  const close = () => {
    if (open) shards.push({ key: open.key, file: indexFile('shard', safeJson(open.terms)) });
    open = null;
  };
  for (const key of [...byKey.keys()].sort()) {
    const group = byKey.get(key)!.sort((a, b) => (a[0] < b[0] ? -1 : 1));
    let bytes = 0;
    for (const entry of group) bytes += termBytes(entry);
    if (open && open.bytes + bytes > SHARD_BYTES) close();
    open ??= { key, terms: [], bytes: 0 };
    open.terms.push(...group);
    open.bytes += bytes;
  }
  close();
  return {
    members,
    paths: notes.map((n) => n.path),
    avg: plain.averageFieldLength,
    lengths: indexFile('lengths', safeJson(lengths)),
    shards,
  };
}
