// CONTRACT §9, and its speed: the search page keeps one engine (site/client/search/engine.ts)
// and gives each query only its own words' postings. Its answers must be MiniSearch's over the
// whole index: the same notes, the same scores to the last bit, the same order (ties
// included), with notes edited or gone since the base and notes added since. The index here
// is made by the real builder (site/plan/search-base.ts) and cut into its real shards.
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import { termsOf } from '../../site/plan/doc-indexer.ts';
import { buildSearchBase } from '../../site/plan/search-base.ts';
import { basePatched } from '../../site/plan/search-base-patch.ts';
import { PageEngine, QUERY_OPTIONS, queryWords, type Hit } from '../../site/client/search/engine.ts';
import { engineOfDocs, postingsOf, queryOver } from '../../site/client/search/minisearch-internals.ts';
import { baseDocsOf, decodeShard, engineOf } from '../../site/client/search/whole-index.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { indexOptions, SEARCH_FIELDS, shardIndex, shardKey, shardsHolding, type DeltaDoc, type SearchDoc, type SearchManifest, type ShardFile } from '../../shared/search/index-format.ts';

const WORDS = [
  'garden', 'gardens', 'gardening', 'gardener', 'garage', 'gate', 'river', 'rivers', 'stone', 'stones', 'paper', 'papers',
  'ink', 'light', 'lighthouse', 'Café', 'crème', 'brûlée', 'a', 'g', '4242', 'city', 'memory', 'time',
  'مدرسة', 'المدرسة', 'كِتَاب', 'الكتاب', 'أحمد', 'نور',
];

/** A small deterministic generator (the same notes every run). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function docOf(n: number, extra: string[] = []): SearchDoc {
  const next = random(n + 1);
  const pick = (count: number) => Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]!);
  return {
    title: pick(1 + Math.floor(next() * 3)).join(' '),
    headings: pick(Math.floor(next() * 3)).join('\n'),
    tags: pick(Math.floor(next() * 2)).join(' '),
    text: [...pick(10 + Math.floor(next() * 40)), ...extra].join(' '),
  };
}

/** What the builder reads of a note (search-docs.ts): its path, hash and searchable text. */
function noteOf(path: string, hash: string, doc: SearchDoc): NoteRecord {
  return { path, hash, title: doc.title, headings: doc.headings ? doc.headings.split('\n').map((text) => ({ text })) : [], tags: doc.tags ? doc.tags.split(' ') : [], searchText: doc.text, body: '' } as unknown as NoteRecord;
}

interface Site {
  manifest: SearchManifest;
  lengths: number[];
  shards: ShardFile[];
  /** How it was made: the base, each note's document in it, the edited ones and their new documents. */
  made?: { base: ReturnType<typeof buildSearchBase>; docs: SearchDoc[]; edited: number[]; changed: SearchDoc[] };
}

/**
 * 240 notes (the last 40 repeat the first 40 word for word, so scores tie), a base made of
 * them, then: 12 notes edited (some gaining words only the changed notes hold, `gardenia`
 * among the `garden` words), 6 deleted, 6 added, as search-index.ts writes the manifest.
 */
function site(): Site {
  const docs = Array.from({ length: 240 }, (_, i) => docOf(i % 200, i % 50 === 7 ? ['obsolete'] : []));
  const notes = docs.map((doc, i) => noteOf(`Notes/${String(i).padStart(3, '0')}.md`, `h${i}`, doc));
  const base = buildSearchBase(notes);
  const edited = [7, 57, 107, 157, 207, 3, 30, 99, 120, 160, 220, 239];
  const deleted = [11, 12, 150, 199, 210, 238];
  const changed: SearchDoc[] = edited.map((i, k) => docOf(1000 + k, k % 3 === 0 ? ['zebraword', 'gardenia'] : k % 3 === 1 ? ['garden', 'rivulet'] : ['0001']));
  const added: SearchDoc[] = Array.from({ length: 6 }, (_, k) => docOf(2000 + k, ['gardenia', 'zebraword']));
  const delta: DeltaDoc[] = [...changed, ...added].map((doc, k) => ({ id: notes.length + k, ...doc, meta: [`/n/${k}`, doc.title, '', '', 'en'] }));
  const manifest: SearchManifest = {
    v: 1,
    docs: notes.length,
    avg: base.avg,
    lengths: base.lengths.file,
    shards: base.shards.map((s) => [s.key, s.file.file]),
    meta: [],
    metaBytes: 0,
    gone: [...edited, ...deleted].sort((a, b) => a - b),
    delta,
  };
  return { manifest, lengths: JSON.parse(base.lengths.content!) as number[], shards: base.shards.map((s) => JSON.parse(s.file.content!) as ShardFile), made: { base, docs, edited, changed } };
}

/** MiniSearch over the whole index at once, the gone notes' postings left out (as MiniSearch's vacuum leaves them). */
function wholeIndex({ manifest, lengths, shards }: Site): MiniSearch {
  const gone = new Set(manifest.gone);
  return engineOf(manifest, baseDocsOf(manifest, lengths), shards.flatMap((s) => decodeShard(s, gone)));
}

/** The page's way: only the shards holding the query's words. */
function pageRank(engine: PageEngine, { manifest, shards }: Site, query: string) {
  const at = new Set(queryWords(query).flatMap((w) => shardsHolding(manifest.shards, w.term, w.prefix)));
  return engine.rank(query, [...at].map((i) => ({ at: i, terms: shards[i]! })));
}

const asHits = (results: ReturnType<MiniSearch['search']>): Hit[] => results.map((r) => ({ id: r.id as number, score: r.score, words: Object.keys(r.match) }));

const QUERIES = [
  'garden', 'gard', 'ga', 'gardenia', 'garden gardens', 'river stone', 'riv sto', 'paper ink', 'light', 'cafe', 'CAFÉ', 'creme brulee',
  'مدرسة', 'المدرسة', 'كتاب', 'احمد', 'نور garden', 'zebraword', 'rivulet', 'obsolete', 'a', 'g', '4242', 'nothing-here', '…', 'garden garden',
];

describe('the page engine ranks as MiniSearch over the whole index', () => {
  const data = site();
  const reference = wholeIndex(data);

  it('every query: the same notes, scores and order (ties included), with edits, deletions and additions since the base', () => {
    const engine = new PageEngine(data.manifest, data.lengths);
    let tied = 0;
    let found = 0;
    for (const query of QUERIES) {
      const theirs = asHits(reference.search(query, QUERY_OPTIONS));
      const mine = pageRank(engine, data, query);
      expect(mine.slice(0, mine.length), query).toEqual(theirs);
      found += theirs.length;
      tied += theirs.filter((h, i) => i > 0 && h.score === theirs[i - 1]!.score).length;
    }
    // The data exercises what it claims to: many matches, exact ties, the changed notes.
    expect(found).toBeGreaterThan(1000);
    expect(tied).toBeGreaterThan(50);
    expect(asHits(reference.search('zebraword', QUERY_OPTIONS)).map((h) => h.id)).toContain(data.manifest.docs + 14);
    expect(asHits(reference.search('obsolete', QUERY_OPTIONS))).toEqual([]);
  });

  it('one engine answers query after query the same as a fresh one (nothing a query reads is changed by it)', () => {
    const engine = new PageEngine(data.manifest, data.lengths);
    const first = QUERIES.map((q) => pageRank(engine, data, q).slice(0, 30));
    const again = [...QUERIES].reverse().map((q) => pageRank(engine, data, q).slice(0, 30)).reverse();
    expect(again).toEqual(first);
  });

  it('results a page at a time: the first page picked without sorting them all, the later ones sorted, in one order', () => {
    const engine = new PageEngine(data.manifest, data.lengths);
    for (const query of ['garden', 'a', 'river stone']) {
      const theirs = asHits(reference.search(query, QUERY_OPTIONS));
      expect(theirs.length).toBeGreaterThan(70);
      const picked = pageRank(engine, data, query);
      expect([0, 10, 20, 30, 40].flatMap((from) => picked.slice(from, from + 10))).toEqual(theirs.slice(0, 50));
      const sorted = pageRank(engine, data, query);
      expect([...sorted.slice(60, 70), ...sorted.slice(0, 10)]).toEqual([...theirs.slice(60, 70), ...theirs.slice(0, 10)]);
    }
  });

  it('a base brought up to date in place for its edited notes (a quiet moment’s work) is a fresh base of the notes as they are now, term for term', () => {
    const { base, docs, edited, changed } = data.made!;
    const patches = new Map(edited.map((id, k) => [id, { old: () => docs[id]!, now: changed[k]! }]));
    const patched = basePatched(base, patches)!;
    const nowDocs = docs.map((doc, id) => (edited.includes(id) ? changed[edited.indexOf(id)]! : doc));
    const fresh = buildSearchBase(nowDocs.map((doc, i) => noteOf(`Notes/${String(i).padStart(3, '0')}.md`, `n${i}`, doc)));
    const terms = (shards: { file: { content: string | null } }[]) => new Map(shards.flatMap((s) => JSON.parse(s.file.content!) as ShardFile).map((entry) => [entry[0], entry]));
    const mine = terms(patched.shards);
    expect(mine).toEqual(terms(fresh.shards));
    expect(patched.lengths.content).toBe(fresh.lengths.content);
    expect(patched.avg.every((a, f) => Object.is(a, fresh.avg[f]))).toBe(true);
    // The data holds what it claims: words only the old texts had, new words, one before the first shard's key.
    expect(terms(base.shards).has('obsolete')).toBe(true);
    expect(mine.has('obsolete')).toBe(false);
    expect(terms(base.shards).has('zebraword')).toBe(false);
    expect(mine.has('0001')).toBe(true);
    expect(shardKey('0001') < base.shards[0]!.key).toBe(true);
    // Each term is in the shard a page looks in for its key, in the order a fresh build writes.
    const keys = patched.shards.map((s): [string, string] => [s.key, s.file.file]);
    patched.shards.forEach((shard, at) => {
      const entries = JSON.parse(shard.file.content!) as ShardFile;
      for (const entry of entries) expect(shardIndex(keys, shardKey(entry[0])), entry[0]).toBe(at);
      expect(entries.map((e) => e[0])).toEqual(entries.map((e) => e[0]).sort((a, b) => (a < b ? -1 : 1)));
    });
    // A page over it answers every query as over the fresh base.
    const site = (b: typeof patched): Site => ({
      manifest: { ...data.manifest, avg: b.avg, gone: [], delta: [], shards: b.shards.map((s) => [s.key, s.file.file]) },
      lengths: JSON.parse(b.lengths.content!) as number[],
      shards: b.shards.map((s) => JSON.parse(s.file.content!) as ShardFile),
    });
    const [after, made] = [site(patched), site(fresh)];
    const now = new PageEngine(after.manifest, after.lengths);
    const theirs = new PageEngine(made.manifest, made.lengths);
    for (const query of QUERIES) expect(pageRank(now, after, query).slice(0, 1000), query).toEqual(pageRank(theirs, made, query).slice(0, 1000));
  });

  it('a base whose notes have not changed since: the same as MiniSearch loaded from it', () => {
    const { manifest, lengths, shards } = data;
    const clean = { manifest: { ...manifest, gone: [], delta: [] }, lengths, shards };
    const engine = new PageEngine(clean.manifest, lengths);
    const whole = wholeIndex(clean);
    for (const query of QUERIES) expect(pageRank(engine, clean, query).slice(0, 1000), query).toEqual(asHits(whole.search(query, QUERY_OPTIONS)));
  });
});

describe('the MiniSearch internals the page engine uses (minisearch-internals.ts): a MiniSearch upgrade that changes them fails here', () => {
  const docs = [
    { id: 0, title: 'Garden', headings: '', tags: 'plants', text: 'a garden of stone' },
    { id: 1, title: 'River', headings: 'Stones', tags: '', text: 'river stones in the garden garden' },
    { id: 2, title: 'Paper', headings: '', tags: 'ink', text: 'paper and ink' },
  ];
  const width = SEARCH_FIELDS.length;

  it('its documents: an engine of ids and field lengths is what loadJS makes of them', () => {
    const built = new MiniSearch(indexOptions);
    built.addAll(docs);
    const plain = built.toJSON();
    const lengths = docs.flatMap((d) => Array.from({ length: width }, (_, f) => (plain.fieldLength[d.id] as number[])[f] ?? 0));
    const mine = engineOfDocs(indexOptions, docs.length, width, lengths, plain.averageFieldLength).toJSON();
    const loaded = MiniSearch.loadJS({ ...plain, index: [] }, indexOptions).toJSON();
    expect(mine).toEqual(loaded);
    expect(mine.documentCount).toBe(3);
    expect(mine.nextId).toBe(3);
  });

  it('its postings: term → field id → short id → frequency', () => {
    const engine = new MiniSearch(indexOptions);
    engine.addAll(docs);
    const garden = postingsOf(engine).get('garden')!;
    expect(garden).toBeInstanceOf(Map);
    expect(garden.get(SEARCH_FIELDS.indexOf('title'))).toEqual(new Map([[0, 1]]));
    expect(garden.get(SEARCH_FIELDS.indexOf('text'))).toEqual(new Map([[0, 1], [1, 2]]));
  });

  it('its query: raw results that MiniSearch`s own search turns into its answer', () => {
    const engine = new MiniSearch(indexOptions);
    engine.addAll(docs);
    const postings = [...postingsOf(engine)];
    for (const query of ['garden', 'gar sto', 'ink', 'river garden']) {
      const theirs = engine.search(query, QUERY_OPTIONS);
      const raw = queryOver(engine, postings, query, QUERY_OPTIONS);
      const mine = [...raw].map(([id, hit]) => ({ id, score: hit.score * (hit.terms.length || 1), terms: Object.keys(hit.match), queryTerms: hit.terms, match: hit.match }));
      mine.sort((a, b) => b.score - a.score);
      expect(mine, query).toEqual(theirs);
    }
  });
});
