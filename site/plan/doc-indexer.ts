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
  /** Every term with its postings, in no particular order. */
  terms: ShardFile;
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

/** A growable list of 32-bit integers, outside V8's heap (numbers a collection never walks). */
class IntList {
  items: Int32Array;
  length = 0;

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
  private lastPosting = new IntList(256, -1);
  private postingCount = new IntList(256);
  // Per posting: its note, the term's frequency there, the slot's posting before it (or -1).
  private note = new IntList(1024);
  private frequency = new IntList(1024);
  private before = new IntList(1024);

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
    const last = this.lastPosting.items[slot]!;
    if (last >= 0 && this.note.items[last] === id) {
      this.frequency.items[last]!++;
      return;
    }
    const at = this.note.length++;
    this.note.reach(at)[at] = id;
    this.frequency.reach(at)[at] = 1;
    this.before.reach(at)[at] = last;
    this.lastPosting.items[slot] = at;
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

  finish(): IndexedDocs {
    const terms: ShardFile = [];
    const last = this.lastPosting.items;
    const counts = this.postingCount.items;
    const note = this.note.items;
    const frequency = this.frequency.items;
    const before = this.before.items;
    for (let t = 0; t < this.terms.length; t++) {
      const out: ShardFile[number] = [this.terms[t]!];
      for (let f = 0; f < FIELDS; f++) {
        const slot = t * FIELDS + f;
        const n = counts[slot]!;
        if (n === 0) continue;
        // `[note gap, frequency, …]` in note order: the chain runs from the last posting back.
        const flat = new Array<number>(n * 2);
        let at = last[slot]!;
        for (let k = n - 1; k >= 0; k--) {
          const previous = before[at]!;
          flat[2 * k] = note[at]! - (previous >= 0 ? note[previous]! : 0);
          flat[2 * k + 1] = frequency[at]!;
          at = previous;
        }
        out.push(f, flat);
      }
      terms.push(out);
    }
    // Let go of what only adding needed before the shards are packed: a base is made near the builder's heap cap.
    this.termIds.clear();
    this.known.clear();
    this.lastPosting = this.postingCount = this.note = this.frequency = this.before = new IntList(0);
    return { lengths: this.lengths, avg: this.avg, terms };
  }
}
