// A quick pass gives the search index only the records it swapped (site-builder.ts), so an
// edit does not visit every note. What it writes must be what a whole plan over the same
// model and base writes: the same manifest (delta, gone), the same meta files, the same
// soft-limit signal. Checked edit by edit against the whole plan of the same index.
import { expect, it } from 'vitest';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { DELTA_SOFT, SearchIndex } from '../../site/plan/search-index.ts';
import type { PageContext } from '../../site/plan/page-context.ts';
import type { PlannedPage } from '../../site/plan/plan-types.ts';

function record(path: string, version: number, extra: Partial<NoteRecord> = {}): NoteRecord {
  return {
    path,
    hash: `${path}#${version}`,
    title: `Title of ${path} v${version}`,
    headings: [{ text: `Heading ${version}` }],
    tags: ['t' + (version % 3)],
    // (Not `searchText`: the first index to read a record takes it; the body is read again.)
    searchText: null,
    body: `Words of ${path}, version ${version}: zebra${version}.`,
    hidden: false,
    address: '/' + path.replace(/\.md$/, ''),
    page: false,
    date: { ms: Date.UTC(2025, 0, 1 + version) },
    lang: 'en',
    ...extra,
  } as unknown as NoteRecord;
}

/** The little of a PageContext the search index reads. */
function contextOf(all: NoteRecord[], invisible: Set<string>): PageContext {
  return {
    model: { all, isVisible: (n: NoteRecord) => !invisible.has(n.path) },
    frameSig: 'frame',
    url: (a: string) => a,
    addressOf: (n: NoteRecord) => n.address,
    fmt: { date: (ms: number) => new Date(ms).toISOString().slice(0, 10) },
    showsDate: (n: NoteRecord) => !n.page,
    // The vault's published files (none here: no base or canvas page to index).
    published: new Map(),
  } as unknown as PageContext;
}

/** What a page writes (a search file's text is read when it is written). */
const contentOf = (p: PlannedPage) => (typeof p.content === 'function' ? p.content() : (p.content ?? null));
const outputs = (pages: PlannedPage[]) => pages.map((p) => [p.address, p.sig, contentOf(p)]);

it('edit after edit, the records given alone write what a whole plan writes', () => {
  const paths = Array.from({ length: 300 }, (_, i) => `Notes/N${String(i).padStart(3, '0')}.md`);
  const all = paths.map((p) => record(p, 0));
  // Some notes are not searchable: private ones, a hidden page note.
  const invisible = new Set([paths[5]!, paths[77]!]);
  all[9] = record(paths[9]!, 0, { hidden: true });
  const ctx = contextOf(all, invisible);
  // The same notes give the same base: one index is only ever told the edits, the other plans whole each time.
  const told = new SearchIndex();
  const whole = new SearchIndex();
  expect(outputs(told.plan(ctx))).toEqual(outputs(whole.plan(ctx)));
  let version = 1;
  // Edits to notes in and out of the base, back to a base text, a note turning hidden.
  const edits = [3, 140, 3, 299, 0, 64, 65, 65, 140, 9, 200, 201, 202, 203, 204, 205, 206, 207, 208, 209, 210, 211, 3];
  for (const [n, i] of edits.entries()) {
    const back = n === 7; // note 65 goes back to the text the base holds
    const next = back ? record(paths[i]!, 0) : record(paths[i]!, version++, i === 140 && n > 7 ? { hidden: true } : {});
    all[i] = next;
    expect(outputs(told.plan(ctx, [next])), `after edit ${n}`).toEqual(outputs(whole.plan(ctx)));
    expect(told.tidyDue).toBe(whole.tidyDue);
  }
  // The soft limit was crossed on the way (more than 16 notes changed).
  expect(told.tidyDue).toBe(true);
});

/** Every term the base's shard files hold, as a visitor can download them. */
function shardTerms(pages: PlannedPage[]): string {
  return pages.filter((p) => p.address.includes('/shard.')).map((p) => contentOf(p) ?? '').join('\n');
}

/** The manifest's delta documents' texts. */
function deltaTexts(pages: PlannedPage[]): string[] {
  const manifest = pages.find((p) => p.address === '/search.json')!;
  return (JSON.parse(String(manifest.content)) as { delta: { text: string }[] }).delta.map((d) => d.text);
}

it("a note that leaves the index takes its words with it at once; an edited note is brought up to date in the base at the next quiet moment", () => {
  const paths = Array.from({ length: 40 }, (_, i) => `Notes/N${String(i).padStart(2, '0')}.md`);
  const all = paths.map((p) => record(p, 0));
  const invisible = new Set<string>();
  const ctx = contextOf(all, invisible);
  const index = new SearchIndex();
  all[7] = record(paths[7]!, 0, { body: 'A secret: confidentialmerger with acmecorp.' });
  all[12] = record(paths[12]!, 0, { body: 'Salaries: alice earns 250000.' });
  const first = shardTerms(index.plan(ctx));
  expect(first).toContain('confidentialmerger');
  expect(first).toContain('250000');
  // Edited, still published: the delta serves the new text; the base catches up when the builder is idle.
  all[7] = record(paths[7]!, 1, { body: 'Nothing to see here, platypusword.' });
  expect(deltaTexts(index.plan(ctx, [all[7]!]))).toEqual([expect.stringContaining('platypusword')]);
  expect(index.tidyDue).toBe(true);
  // Steps bring the base up to date for it (each step ends at its deadline, an edit can come
  // between): its old words out of the shards, its new ones in, the delta empty.
  let steps = 1;
  while (!index.tidyStep(ctx, -1)) steps++;
  expect(steps).toBeGreaterThan(2);
  const taken = index.plan(ctx);
  expect(shardTerms(taken)).not.toContain('confidentialmerger');
  expect(shardTerms(taken)).toContain('platypusword');
  expect(deltaTexts(taken)).toEqual([]);
  expect(index.tidyDue).toBe(false);
  expect(index.tidyStep(ctx, -1)).toBe(false);
  // Edited again while a patch is under way: the patch puts in the text it began with, the
  // newer text stays in the delta, and the next quiet moment brings the base up to it.
  all[7] = record(paths[7]!, 2, { body: 'Second thoughts: echidnaword.' });
  index.plan(ctx, [all[7]!]);
  expect(index.tidyStep(ctx, -1)).toBe(false);
  all[7] = record(paths[7]!, 3, { body: 'Third thoughts: numbatword.' });
  expect(deltaTexts(index.plan(ctx, [all[7]!]))).toEqual([expect.stringContaining('numbatword')]);
  while (!index.tidyStep(ctx, -1));
  const between = index.plan(ctx);
  expect(shardTerms(between)).toContain('echidnaword');
  expect(shardTerms(between)).not.toContain('platypusword');
  expect(deltaTexts(between)).toEqual([expect.stringContaining('numbatword')]);
  expect(index.tidyDue).toBe(true);
  while (!index.tidyStep(ctx, -1));
  const caughtUp = index.plan(ctx);
  expect(shardTerms(caughtUp)).toContain('numbatword');
  expect(shardTerms(caughtUp)).not.toContain('echidnaword');
  expect(deltaTexts(caughtUp)).toEqual([]);
  // Once the delta's new notes pass its soft limit, a new base is made in steps at quiet
  // moments: a step that ends early leaves the old base serving.
  all[3] = record(paths[3]!, 2, { body: 'Words the new base will hold: wombatfact.' });
  index.plan(ctx, [all[3]!]);
  for (let i = 40; i <= 40 + DELTA_SOFT.docs; i++) {
    all.push(record(`Notes/N${i}.md`, 1));
    index.plan(ctx);
  }
  expect(index.tidyDue).toBe(true);
  expect(index.tidyStep(ctx, -1)).toBe(false);
  expect(shardTerms(index.plan(ctx))).toContain('zebra0');
  // An edit made while the new base is under way is served from the delta; the base it
  // began from holds the note's words of then, which the next quiet moment brings up to date (no second base).
  all[3] = record(paths[3]!, 3, { body: 'Rewritten meanwhile: quokkafact.' });
  expect(JSON.stringify(index.plan(ctx, [all[3]!]))).toContain('quokkafact');
  while (!index.tidyStep(ctx, 0));
  const tidied = index.plan(ctx);
  expect(shardTerms(tidied)).not.toContain('confidentialmerger');
  expect(shardTerms(tidied)).toContain('wombatfact');
  expect(shardTerms(tidied)).not.toContain('quokkafact');
  expect(deltaTexts(tidied)).toEqual([expect.stringContaining('quokkafact')]);
  expect(index.tidyDue).toBe(true);
  while (!index.tidyStep(ctx, 0));
  const takenAgain = index.plan(ctx);
  expect(shardTerms(takenAgain)).not.toContain('wombatfact');
  expect(shardTerms(takenAgain)).toContain('quokkafact');
  expect(deltaTexts(takenAgain)).toEqual([]);
  expect(index.tidyDue).toBe(false);
  // Unpublished: gone from the base in the same pass, quick or whole.
  expect(shardTerms(index.plan(ctx))).toContain('250000');
  invisible.add(paths[12]!);
  const after = index.plan(ctx, [all[12]!]);
  expect(shardTerms(after)).not.toContain('250000');
  expect(shardTerms(after)).not.toContain('alice');
  expect(shardTerms(after)).toContain('zebra0');
});

it('once patches have grown the shards past PATCH_GROWTH_BYTES, the next quiet moment makes a new base: the words packed by size again', () => {
  const paths = Array.from({ length: 30 }, (_, i) => `Notes/N${String(i).padStart(2, '0')}.md`);
  const all = paths.map((p) => record(p, 0));
  const ctx = contextOf(all, new Set());
  const index = new SearchIndex();
  const before = index.plan(ctx);
  // New words of many first letters, more bytes than the limit: the patch puts them in the few shards there are.
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const words = Array.from({ length: 30_000 }, (_, i) => letters[i % 26]! + letters[Math.floor(i / 26) % 26]! + 'q' + i.toString(36));
  all[4] = record(paths[4]!, 1, { body: words.join(' ') });
  index.plan(ctx, [all[4]!]);
  while (!index.tidyStep(ctx, 5));
  const patched = index.plan(ctx);
  const shards = (pages: PlannedPage[]) => pages.filter((p) => p.address.includes('/shard.'));
  expect(shards(patched).length).toBe(shards(before).length);
  expect(deltaTexts(patched)).toEqual([]);
  expect(index.tidyDue).toBe(true);
  while (!index.tidyStep(ctx, 5));
  const rebased = index.plan(ctx);
  expect(index.tidyDue).toBe(false);
  expect(shards(rebased).length).toBeGreaterThan(shards(before).length * 4);
  // What an index made from these notes at once writes.
  expect(outputs(rebased)).toEqual(outputs(new SearchIndex().plan(ctx)));
});

it('once its files are in the live folder the index holds none of their texts: a quiet moment reads back what it patches, and makes a new base when a file is gone', () => {
  const paths = Array.from({ length: 40 }, (_, i) => `Notes/N${String(i).padStart(2, '0')}.md`);
  const all = paths.map((p) => record(p, 0));
  const ctx = contextOf(all, new Set());
  // The live folder: what each pass wrote, as the builder writes it (a page's content read when written).
  const live = new Map<string, string>();
  const written = new Set<string>();
  const reads: string[] = [];
  // A file is named by its content: one written before is not written again.
  const write = (pages: PlannedPage[]) => {
    for (const p of pages) if (!written.has(p.file)) live.set(p.file, String(contentOf(p)));
    for (const p of pages) written.add(p.file);
    return pages;
  };
  const released = new SearchIndex((file) => {
    reads.push(file);
    const text = live.get(file);
    if (text === undefined) throw new Error(`${file}: no such file`);
    return text;
  });
  const held = new SearchIndex();
  write(released.plan(ctx));
  held.plan(ctx);
  released.release();
  // Planned again, nothing is read: a page reads its text only when it is written.
  const again = released.plan(ctx);
  expect(reads).toEqual([]);
  expect(shardTerms(again)).toContain('zebra0');
  expect(reads.length).toBeGreaterThan(0);
  reads.length = 0;
  // An edit, patched at a quiet moment: the shards read back from the live folder, the result that of an index that kept them.
  all[7] = record(paths[7]!, 1, { body: 'Nothing to see here, platypusword.' });
  write(released.plan(ctx, [all[7]!]));
  held.plan(ctx, [all[7]!]);
  released.release();
  while (!released.tidyStep(ctx, -1));
  while (!held.tidyStep(ctx, -1));
  expect(reads.some((f) => f.includes('/shard.'))).toBe(true);
  expect(reads.some((f) => f.includes('/lengths.'))).toBe(true);
  expect(outputs(write(released.plan(ctx)))).toEqual(outputs(held.plan(ctx)));
  released.release();
  // A shard gone from the live folder: the step that needed it fails, and the next quiet moment makes a new base.
  for (const file of [...live.keys()]) if (file.includes('/shard.')) live.delete(file);
  all[8] = record(paths[8]!, 1, { body: 'Second edit: echidnaword.' });
  write(released.plan(ctx, [all[8]!]));
  released.release();
  expect(() => {
    while (!released.tidyStep(ctx, -1));
  }).toThrow(/no such file/);
  while (!released.tidyStep(ctx, -1));
  const rebuilt = write(released.plan(ctx));
  expect(shardTerms(rebuilt)).toContain('echidnaword');
  expect(shardTerms(rebuilt)).not.toContain('zebra8');
  expect(deltaTexts(rebuilt)).toEqual([]);
});

it('a base or canvas no longer published leaves the index’s memory of documents', () => {
  const all = [record('Notes/A.md', 0)];
  const published = new Map<string, unknown>([
    ['Maps/Trip.canvas', {}],
    ['Lists/Books.base', {}],
  ]);
  const texts: Record<string, string> = {
    'Maps/Trip.canvas': JSON.stringify({ nodes: [{ id: 'a', type: 'text', text: 'Lisbon tram', x: 0, y: 0, width: 10, height: 10 }], edges: [] }),
    'Lists/Books.base': 'views:\n  - type: table\n    name: Reading now\n',
  };
  const ctx = {
    ...contextOf(all, new Set()),
    model: { all, isVisible: () => true, byAddress: new Map(), resolver: { resolve: () => null } },
    published,
    frame: { lang: 'en' },
    attachments: { text: (p: string) => texts[p] ?? null },
  } as unknown as PageContext;
  const index = new SearchIndex();
  index.plan(ctx);
  expect(index.documents.size).toBe(2);
  const canvas = index.documents.searchable(ctx).find((r) => r.path === 'Maps/Trip.canvas');
  // The same record while its document holds: the index sees no change.
  expect(index.documents.searchable(ctx).find((r) => r.path === 'Maps/Trip.canvas')).toBe(canvas);
  published.delete('Maps/Trip.canvas');
  index.plan(ctx);
  expect(index.documents.size).toBe(1);
  expect(index.documents.searchable(ctx).map((r) => r.path)).toEqual(['Lists/Books.base']);
});
