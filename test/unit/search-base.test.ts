// The search base is written straight into the shards' encoding (site/plan/doc-indexer.ts
// `indexDocs`), not through a MiniSearch and its `toJSON`. The browser ranks it with
// MiniSearch's own scoring, so it must be exactly what MiniSearch makes of the same
// documents: field lengths, average field lengths (the same floats), every term's postings.
import MiniSearch from 'minisearch';
import { expect, it } from 'vitest';
import { entriesOf, indexDocs } from '../../site/plan/doc-indexer.ts';
import { indexOptions, SEARCH_FIELDS, type SearchDoc, type ShardFile } from '../../shared/search/index-format.ts';

const WORDS = [
  'garden', 'Gardens', 'gardening', 'river', 'stone', 'paper', 'ink', 'Café', 'crème', 'brûlée', 'a', 'g', '4242',
  'مدرسة', 'المدرسة', 'كِتَاب', 'الكتاب', 'أحمد', 'ـنـور', 'x-ray', "it's", 'e.g.', '—', '“quoted”', '🙂', '日本語',
];

function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function docOf(n: number): SearchDoc {
  const next = random(n + 7);
  const pick = (count: number, sep: string) => Array.from({ length: count }, () => WORDS[Math.floor(next() * WORDS.length)]!).join(sep);
  return {
    title: pick(1 + Math.floor(next() * 3), ' '),
    // Empty fields too: MiniSearch counts an empty field's one empty token in its length.
    headings: pick(Math.floor(next() * 3), '\n'),
    tags: pick(Math.floor(next() * 2), ' '),
    text: pick(Math.floor(next() * 60), next() < 0.5 ? ' ' : ', '),
  };
}

/** What MiniSearch itself makes of the documents, in the same shape. */
function miniSearchOf(docs: SearchDoc[]) {
  const index = new MiniSearch(indexOptions);
  docs.forEach((doc, id) => index.add({ id, ...doc }));
  const plain = index.toJSON();
  const lengths: number[] = [];
  for (let id = 0; id < docs.length; id++) for (let f = 0; f < SEARCH_FIELDS.length; f++) lengths.push((plain.fieldLength[id] as number[] | undefined)?.[f] ?? 0);
  const terms: ShardFile = plain.index.map(([term, fields]) => {
    const out: ShardFile[number] = [term];
    for (const [field, postings] of Object.entries(fields as Record<string, Record<string, number>>)) {
      const flat: number[] = [];
      let last = 0;
      for (const [doc, tf] of Object.entries(postings)) {
        flat.push(Number(doc) - last, tf);
        last = Number(doc);
      }
      out.push(Number(field), flat);
    }
    return out;
  });
  return { lengths, avg: plain.averageFieldLength, terms };
}

const byTerm = (terms: ShardFile) => [...terms].sort((a, b) => (a[0] < b[0] ? -1 : 1));

it('field lengths, average field lengths and every posting are MiniSearch’s own, to the last bit', () => {
  const docs = Array.from({ length: 3000 }, (_, i) => docOf(i));
  docs.push({ title: '', headings: '', tags: '', text: '' }, { title: 'garden garden garden', headings: 'garden', tags: 'garden', text: 'GARDEN, garden; gardén' });
  const ours = indexDocs(docs);
  const theirs = miniSearchOf(docs);
  expect(ours.lengths).toEqual(theirs.lengths);
  expect(ours.avg).toEqual(theirs.avg);
  expect(ours.avg.every((v, f) => Object.is(v, theirs.avg[f]))).toBe(true);
  expect(byTerm(entriesOf(ours.terms))).toEqual(byTerm(theirs.terms));
  expect(ours.terms.count).toBeGreaterThan(20);
  // Enough to fill several of the indexer's chunks of postings (a chunk holds 21,845).
  expect(ours.postings).toBeGreaterThan(50_000);
});
