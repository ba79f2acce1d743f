// Documents indexed as `new MiniSearch(indexOptions)` + `add` each + `toJSON` index them,
// written straight into the shards' encoding (search-base.ts packs them): no search tree,
// no second copy of it as plain objects. Ids are the order documents are added in.
// `test/unit/search-base.test.ts` holds the result equal to MiniSearch's.
import { indexOptions, SEARCH_FIELDS, type SearchDoc, type ShardFile } from '../../shared/search/index-format.ts';

export interface IndexedDocs {
  /** `docs × fields` numbers: each field's count of distinct tokens (MiniSearch's field length). */
  lengths: number[];
  /** MiniSearch's average field lengths, computed as it computes them (the same floats). */
  avg: number[];
  /** Every term, in no particular order. */
  terms: IndexedTerms;
  /** How many postings (a term in a field of a note) the terms hold. */
  postings: number;
}

/**
 * The terms of indexed documents by number, each term's postings made when its shard is
 * packed: made all at once, a realistic 10,000-note base's two million postings were some
 * 40 MB of arrays beside the builder's model at its peak (docs/dev/performance.md).
 */
export interface IndexedTerms {
  readonly count: number;
  term(id: number): string;
  /** About the bytes the term's entry takes in its shard (numbers of a few digits and their commas): no JSON made. */
  bytes(id: number): number;
  /** The term with its postings, `[term, field, [note gap, frequency, …], …]`. */
  entry(id: number): ShardFile[number];
}

/** Every term's entry at once: a note's own few for a patch (search-base-patch.ts), or a test's. */
export function entriesOf(terms: IndexedTerms): ShardFile {
  return Array.from({ length: terms.count }, (_, id) => terms.entry(id));
}

const { tokenize, processTerm } = indexOptions as Required<Pick<typeof indexOptions, 'tokenize' | 'processTerm'>>;
const FIELDS = SEARCH_FIELDS.length;

/** The terms one token gives a field (MiniSearch's processTerm answers one, several or none). */
function termsOfToken(token: string, field: string): string[] {
  const terms = processTerm(token, field);
  return Array.isArray(terms) ? terms : terms ? [terms] : [];
}

/** The documents indexed in one go (ids are their positions). */
export function indexDocs(docs: SearchDoc[]): IndexedDocs {
  const indexer = new DocIndexer();
  for (const doc of docs) indexer.add(doc);
  return indexer.finish();
}

/** Every term a document gives the index, in any field (as DocIndexer makes them). */
export function termsOf(doc: SearchDoc): Set<string> {
  const out = new Set<string>();
  for (const field of SEARCH_FIELDS) {
    const value = doc[field];
    if (value == null) continue;
    for (const token of tokenize(String(value), field)) for (const term of termsOfToken(token, field)) out.add(term);
  }
  return out;
}

/** A growable list of 32-bit integers, outside V8's heap (numbers a collection never walks): a term's slots, a few numbers a term, grown by copying. */
class IntList {
  items: Int32Array;

  constructor(capacity: number, fill = 0) {
    this.items = new Int32Array(capacity).fill(fill);
  }

  /** Room for `index` (grown by half, new items `fill`). */
  reach(index: number, fill = 0): Int32Array {
    if (index < this.items.length) return this.items;
    const grown = new Int32Array(Math.max(index + 1, Math.ceil(this.items.length * 1.5))).fill(fill);
    grown.set(this.items);
    return (this.items = grown);
  }
}

const CHUNK_BITS = 16;
const CHUNK_MASK = (1 << CHUNK_BITS) - 1;

/**
 * The postings' numbers, three a posting, outside V8's heap, grown a chunk at a time: a list
 * grown by copying left its old copies to the collector, some 40 MB of a realistic 10,000-note
 * base's two million postings at once.
 */
class PostingList {
  private readonly chunks: Int32Array[] = [];
  /** Postings made. */
  length = 0;

  /** Number `k` (0: note, 1: frequency, 2: posting before) of posting `at`. */
  get(at: number, k: number): number {
    const i = 3 * at + k;
    return this.chunks[i >>> CHUNK_BITS]![i & CHUNK_MASK]!;
  }

  set(at: number, k: number, value: number): void {
    const i = 3 * at + k;
    this.chunks[i >>> CHUNK_BITS]![i & CHUNK_MASK] = value;
  }

  /** A new posting; its number. */
  add(note: number, frequency: number, before: number): number {
    const at = this.length++;
    const i = 3 * at;
    while (this.chunks.length <= (i + 2) >>> CHUNK_BITS) this.chunks.push(new Int32Array(1 << CHUNK_BITS));
    this.set(at, 0, note);
    this.set(at, 1, frequency);
    this.set(at, 2, before);
    return at;
  }
}

/**
 * indexDocs one document at a time (ids in the order added): a base made in steps between
 * edits (search-base.ts, BaseJob). A term's occurrences in one field of one note are one
 * posting `(note, frequency)`, kept in flat integer lists and chained to the posting of the
 * same term and field before it: growing an array per term and field made a realistic 10,000-note
 * base's postings (two million) in half-filled copies the collector moved, twice as slow.
 */
export class DocIndexer {
  private readonly lengths: number[] = [];
  private readonly avg: number[] = [];
  private readonly termIds = new Map<string, number>();
  private readonly terms: string[] = [];
  // Each distinct token once: the slots (term × field, field 0) of its terms (processTerm
  // depends on the token alone), and the last field that counted it. Words repeat across
  // thousands of notes: no term folded again, looked up again, or set made per field.
  private readonly known = new Map<string, { slots: number[]; counted: number }>();
  private fieldRun = 0;
  private count = 0;
  // Per slot: its last posting (or -1) and how many it has.
  private readonly lastPosting = new IntList(256, -1);
  private readonly postingCount = new IntList(256);
  // Per posting: its note, the term's frequency there, the slot's posting before it (or -1).
  private readonly postings = new PostingList();

  add(doc: SearchDoc): void {
    const id = this.count++;
    for (let f = 0; f < FIELDS; f++) {
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
        if (!seen) this.known.set(token, (seen = { slots: termsOfToken(token, field).map((term) => this.slotOf(term)), counted: 0 }));
        if (seen.counted !== run) {
          seen.counted = run;
          length++;
        }
        for (let s = 0; s < seen.slots.length; s++) this.post(seen.slots[s]! + f, id);
      }
      this.lengths[id * FIELDS + f] = length;
      this.avg[f] = ((this.avg[f] || 0) * id + length) / (id + 1);
    }
  }

  /** One more occurrence in note `id` of the term and field of `slot` (ids come in order). */
  private post(slot: number, id: number): void {
    const postings = this.postings;
    const last = this.lastPosting.items[slot]!;
    if (last >= 0 && postings.get(last, 0) === id) {
      postings.set(last, 1, postings.get(last, 1) + 1);
      return;
    }
    this.lastPosting.items[slot] = postings.add(id, 1, last);
    this.postingCount.items[slot]!++;
  }

  /** The term's first slot (its field 0), made on its first occurrence. */
  private slotOf(term: string): number {
    let id = this.termIds.get(term);
    if (id === undefined) {
      this.termIds.set(term, (id = this.terms.length));
      this.terms.push(term);
      this.lastPosting.reach((id + 1) * FIELDS - 1, -1);
      this.postingCount.reach((id + 1) * FIELDS - 1);
    }
    return id * FIELDS;
  }

  /** The documents added, their terms' postings made as each is asked for (IndexedTerms). */
  finish(): IndexedDocs {
    // What only adding needed goes before the shards are packed: a base is made near the builder's heap cap.
    this.termIds.clear();
    this.known.clear();
    const { terms, postings } = this;
    const last = this.lastPosting.items;
    const counts = this.postingCount.items;
    return {
      lengths: this.lengths,
      avg: this.avg,
      postings: postings.length,
      terms: {
        count: terms.length,
        term: (id) => terms[id]!,
        bytes(id) {
          let bytes = terms[id]!.length + 8;
          for (let f = 0; f < FIELDS; f++) {
            const n = counts[id * FIELDS + f]!;
            if (n > 0) bytes += 4 + n * 8;
          }
          return bytes;
        },
        entry(id) {
          const out: ShardFile[number] = [terms[id]!];
          for (let f = 0; f < FIELDS; f++) {
            const n = counts[id * FIELDS + f]!;
            if (n === 0) continue;
            // `[note gap, frequency, …]` in note order: the chain runs from the last posting back.
            const flat = new Array<number>(n * 2);
            let at = last[id * FIELDS + f]!;
            for (let k = n - 1; k >= 0; k--) {
              const previous = postings.get(at, 2);
              flat[2 * k] = postings.get(at, 0) - (previous >= 0 ? postings.get(previous, 0) : 0);
              flat[2 * k + 1] = postings.get(at, 1);
              at = previous;
            }
            out.push(f, flat);
          }
          return out;
        },
      },
    };
  }
}
