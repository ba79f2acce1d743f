// The notes' records kept between runs, in the data directory: a restart's
// catch-up pass restores the record of every note whose file still has the stamp it was
// read with, and parses only the notes changed while the server was down (at 10,000 notes
// the parses were most of a 15 s pass). Written after a whole read of the vault (a first
// build, a catch-up pass), off the answer's path; a note edited since is parsed again.
//
// The data directory is input too: a file not whole, of other code, Node or vault, is no
// cache, and each record is taken field by field, checked, or not at all (a wrong type
// must never stop a start; where a note lives is made again from its path).
import { closeSync, openSync, promises as fs, readSync } from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { isTempFile, writeFileAtomic } from '../../shared/atomic-write.ts';
import { keptOf, restoreRecord, type FactFields, type KeptFields, type KeptRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { isNotePath, parseVaultPath, type VaultPath } from '../../shared/vault-path.ts';
import { log } from '../../shared/log.ts';
import { isTextHash } from '../../shared/note/text-hash.ts';

/** node:v8, loaded when the cache is read or written (only the server's builder does). */
const v8 = () => createRequire(import.meta.url)('node:v8') as typeof import('node:v8');

const CACHE_FILE = 'records.v8';
const FORMAT = 1;
/**
 * Records serialized at a time: the file is written batch by batch, never held whole, and each
 * batch (about 70 KB) stays under the C library's mmap threshold (128 KB), so its buffers come
 * from the heap's free space and go back to it, rather than raising the threshold for good.
 */
const BATCH = 20;
/** The largest batch read back (a length past it is a file not ours). */
const MAX_BATCH_BYTES = 512 * 1024 * 1024;

/** What the records were made by and from: anything else, and they are not used. */
export interface CacheKey {
  vault: string;
  code: string;
}

interface Header extends CacheKey {
  format: number;
  node: string;
}

type Check = (value: unknown) => boolean;
const isString: Check = (v) => typeof v === 'string';
const isBoolean: Check = (v) => typeof v === 'boolean';
const orNull = (check: Check): Check => (v) => v === null || check(v);
const listOf = (check: Check): Check => (v) => Array.isArray(v) && v.every(check);
const isStrings = listOf(isString);
const hasOwn = (v: object, key: string) => Object.prototype.hasOwnProperty.call(v, key);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.getPrototypeOf(v) === Object.prototype;

/** Frontmatter as a parse makes it: plain objects, lists, text, numbers, dates; no `__proto__` of its own. */
function isPlainData(v: unknown, depth = 0): boolean {
  if (depth > 32) return false;
  if (v === null || v === undefined || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' || v instanceof Date) return true;
  if (Array.isArray(v)) return v.every((item) => isPlainData(item, depth + 1));
  return isObject(v) && !hasOwn(v, '__proto__') && Object.values(v).every((item) => isPlainData(item, depth + 1));
}

const shaped = (fields: Record<string, Check>): Check => (v) => isObject(v) && Object.entries(fields).every(([key, check]) => check(v[key]));

// Every field a record keeps, checked (TypeScript holds these tables to the record's fields).
const KEPT: Record<keyof KeptFields, Check> = {
  hash: isTextHash,
  stamp: isString,
  data: (v) => isObject(v) && isPlainData(v),
  raw: isString,
  frontmatterProblem: orNull(isString),
  body: isString,
  title: isString,
  publish: isBoolean,
  page: isBoolean,
  aliases: isStrings,
  cssClasses: isStrings,
  folderSlugs: isStrings,
  lang: isString,
  twinRef: orNull(isString),
  description: orNull(isString),
  icon: orNull(isString),
  hidden: isBoolean,
  collection: isBoolean,
};

const FACTS: Record<keyof FactFields, Check> = {
  tags: isStrings,
  excerpt: isString,
  words: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  links: isStrings,
  embeds: isStrings,
  transclusions: listOf(shaped({ target: isString, subpath: isStrings, alias: orNull(isString) })),
  anchors: isStrings,
  blockIds: isStrings,
  headings: listOf(shaped({ level: (v) => Number.isInteger(v), text: isString, id: isString, source: (v) => v === undefined || isString(v) })),
  titleId: orNull(isString),
  math: isBoolean,
  mathCut: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  markupCut: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  conflicts: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  mermaid: isBoolean,
  banner: orNull(isString),
};

/** A fresh object of the table's fields, each checked; null when one fails. */
function taken<T>(value: unknown, table: Record<string, Check>): T | null {
  if (!isObject(value)) return null;
  const out: Record<string, unknown> = {};
  for (const [key, check] of Object.entries(table)) {
    if (!check(value[key])) return null;
    out[key] = value[key];
  }
  return out as T;
}

/** A note's path inside the vault, as the walk names one. */
function isKeptPath(p: unknown): p is string {
  try {
    return typeof p === 'string' && parseVaultPath(p) === p && isNotePath(p);
  } catch {
    return false;
  }
}

/** One cached entry, [vault path, kept fields, facts or null], as a record to restore; null when anything is off. */
function entryOf(entry: unknown): [string, KeptRecord] | null {
  if (!Array.isArray(entry) || entry.length !== 3 || !isKeptPath(entry[0])) return null;
  const fields = taken<KeptFields>(entry[1], KEPT);
  const facts = entry[2] === null ? null : taken<FactFields>(entry[2], FACTS);
  if (!fields || (entry[2] !== null && !facts)) return null;
  return [entry[0], { fields, facts }];
}

export class RecordCache {
  private readonly file: string;

  /** `dir`: a folder of its own (the records hold every note's text, so never the site's folder). */
  constructor(private readonly dir: string) {
    this.file = path.join(dir, CACHE_FILE);
  }

  /** The records kept for this vault and code, by vault path; empty when there are none to trust. */
  load(key: CacheKey): Map<string, KeptRecord> {
    const out = new Map<string, KeptRecord>();
    let fd: number | null = null;
    try {
      fd = openSync(this.file, 'r');
      const next = batchReader(fd);
      const header = next() as Partial<Header> | null;
      if (header?.format !== FORMAT || header.node !== process.version || header.vault !== key.vault || header.code !== key.code) return out;
      for (let batch = next(); batch !== null; batch = next()) {
        if (!Array.isArray(batch)) return new Map();
        for (const item of batch) {
          const entry = entryOf(item);
          if (entry) out.set(entry[0], entry[1]);
        }
      }
      return out;
    } catch {
      return new Map(); // missing, cut short or not ours: no cache
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }

  /** The whole vault was read since the records were last kept (a full build, a catch-up pass). */
  due = false;

  /**
   * Keeps every record read whole from a settled file (one with a stamp), batch by batch, temp
   * file and rename, when the whole vault was read since the last time: not after each save.
   */
  async writeDue(key: CacheKey, records: Iterable<NoteRecord>): Promise<void> {
    if (!this.due) return;
    this.due = false;
    // A write cut short (the process killed) left its temp file: nothing else writes in this folder.
    for (const name of await fs.readdir(this.dir).catch(() => [])) if (isTempFile(name)) await fs.rm(path.join(this.dir, name), { force: true });
    const list = [...records].filter((r) => r.stamp !== null);
    const header: Header = { format: FORMAT, node: process.version, vault: key.vault, code: key.code };
    // Not kept, the next start parses every note: slower, never wrong.
    await writeFileAtomic(this.file, batches(header, list), { mkdir: true }).catch((err) => log.warn(`could not keep the notes' records for the next start: ${(err as Error).message}`));
  }
}

/** The record kept of the note at a path, as it was when kept (undated: what its text gave is all a search base reads). */
export const keptVersions = (kept: ReadonlyMap<string, KeptRecord>) => (p: string): NoteRecord | undefined => {
  const record = kept.get(p);
  return record && restoreRecord(p as VaultPath, record, { createdMs: null, fileMs: 0, changedMs: null });
};

/** The file's parts, each a 4-byte length and a serialized value: the header, then batches of entries. */
function* batches(header: Header, records: NoteRecord[]): Generator<Uint8Array> {
  const { serialize } = v8();
  function* framed(value: unknown) {
    const body = serialize(value);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(body.length);
    yield length;
    yield body;
  }
  yield* framed(header);
  for (let i = 0; i < records.length; i += BATCH) {
    yield* framed(records.slice(i, i + BATCH).map((r) => {
      const { fields, facts } = keptOf(r);
      return [r.path, fields, facts];
    }));
  }
}

/** Reads the values of a framed file one at a time: null at its end; throws on a part cut short. */
function batchReader(fd: number): () => unknown {
  const { deserialize } = v8();
  let position = 0;
  const exactly = (n: number): Buffer | null => {
    const buf = Buffer.allocUnsafe(n);
    let got = 0;
    while (got < n) {
      const read = readSync(fd, buf, got, n - got, position + got);
      if (read === 0) break;
      got += read;
    }
    if (got === 0 && n > 0) return null;
    if (got !== n) throw new Error('cut short');
    position += n;
    return buf;
  };
  return () => {
    const length = exactly(4);
    if (length === null) return null;
    const n = length.readUInt32BE(0);
    if (n > MAX_BATCH_BYTES) throw new Error('not a batch');
    const body = exactly(n);
    if (body === null) throw new Error('cut short');
    return deserialize(body);
  };
}
