// Site health names each link or embed into a heading or block its note does not have
// (shared/model/anchor-links.ts), by the renderer's own rule, and keeps the list current
// through the quick pass's swaps: a heading renamed in one note changes the warnings of the
// notes that point into it, as a fresh derivation of the model would.
import { describe, expect, it } from 'vitest';
import { withAnchorWarnings } from '../../shared/model/anchor-links.ts';
import type { BuildWarning } from '../../shared/model/build-warnings.ts';
import { modelSettings } from '../../shared/model/model-settings.ts';
import { swapRecord } from '../../shared/model/model-swap.ts';
import { buildRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { deriveSiteModel, modelShape, type SiteModel } from '../../shared/model/site-model.ts';
import { defaultSettings, siteSettingsOf } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';

const env = { siteName: null, siteTagline: null, homeNote: null, siteFooter: null, siteLang: null, publicLayout: null };
const settings = modelSettings(siteSettingsOf(defaultSettings(), env), { excludeTags: [] });
const note = (path: string, body: string, publish = true) =>
  buildRecord({ path: path as VaultPath, text: `---\npublish: ${publish}\ndate: 2026-01-01\n---\n${body}\n`, createdMs: Date.UTC(2026, 0, 1), fileMs: 0 });
const anchorKinds = new Set<BuildWarning['kind']>(['missing-heading', 'missing-block']);
const anchorsOf = (model: SiteModel) => withAnchorWarnings(model).filter((w) => anchorKinds.has(w.kind));
const derive = (records: NoteRecord[]) => deriveSiteModel(records, settings);

const TARGET = note('Guide/Target.md', '# Target\n\n## Install\n\nSteps to take. ^steps\n\n## Usage\n\n### Options\n\nSome.\n\n## Intro\n\n## Intro\n\n%%\n## Hidden\n%%\n\n## [[Other|Shown]] words\n\n- an item ^item-1\n  - nested');

describe('links and embeds into headings and blocks that are not there', () => {
  it('names each one, with the link as written, the note it points into, and whether it is an embed', () => {
    const pointers = note('Pointers.md', '[[Target#Install]] [[Target#Instal]] [[Target#^steps]] [[Target#^nope]] [[#Here]] [[#Not here]] [[Target#Instal|again]]\n\n## Here\n\n![[Target#Usage]]\n\n![[Target#Usages]]\n\n![[Target#^gone]]');
    const list = anchorsOf(derive([TARGET, pointers])).filter((w) => w.note === 'Pointers.md');
    // By kind, then sentence (an embed's before a link's).
    expect(list).toEqual([
      { note: 'Pointers.md', kind: 'missing-heading', message: 'embeds ![[Target#Usages]], but Guide/Target.md has no heading "Usages": nothing is shown', target: 'Guide/Target.md', link: 'Target#Usages', variant: 'embed' },
      { note: 'Pointers.md', kind: 'missing-heading', message: 'links to "#Not here", but the note itself has no heading "Not here"', target: 'Pointers.md', link: '#Not here' },
      { note: 'Pointers.md', kind: 'missing-heading', message: 'links to "Target#Instal", but Guide/Target.md has no heading "Instal"', target: 'Guide/Target.md', link: 'Target#Instal' },
      { note: 'Pointers.md', kind: 'missing-block', message: 'embeds ![[Target#^gone]], but Guide/Target.md has no block ^gone: nothing is shown', target: 'Guide/Target.md', link: 'Target#^gone', variant: 'embed' },
      { note: 'Pointers.md', kind: 'missing-block', message: 'links to "Target#^nope", but Guide/Target.md has no block ^nope', target: 'Guide/Target.md', link: 'Target#^nope' },
    ]);
  });

  it('finds a heading as the page does: its title, a heading path, a heading holding a link, a list item’s block id', () => {
    const fine = note('Fine.md', '[[Target#Target]] [[Target#Usage#Options]] [[Target#Wrong#Options]] [[Target#Other Shown words]] [[Target#Shown words]] [[Target#^item-1]] [[Target#Intro-1]]');
    expect(anchorsOf(derive([TARGET, fine]))).toEqual([]);
  });

  // Obsidian's link suggestions name a heading with its punctuation as spaces: study notes held these.
  it('finds a heading as Obsidian’s link suggestions name it: punctuation and marks as spaces', () => {
    const code = note('Code.md', '###### **dict_search:**\n\ntext\n\n## \\_\\_iter\\_\\_()\n\nmore\n\n[[#**dict_search **|lookup]] [[#_ _iter _ _()]] [[#Step 1 Install]]\n\n## Step 1: Install');
    expect(anchorsOf(derive([code]))).toEqual([]);
    const html = code.prepared!.html;
    expect(html).toContain('href="#dict_search"');
    expect(html).toContain('href="#__iter__"');
  });

  it('a block id ending an embed’s line names the embed: the link lands on it', () => {
    const embeds = note('Embeds.md', 'Before.\n\n![[Target#Usage]] ^emb1\n\nSee [[#^emb1]].');
    expect(anchorsOf(derive([TARGET, embeds]))).toEqual([]);
    expect(embeds.prepared!.html).toMatch(/<div id="\^emb1">\n\u0000\d+\u0000<\/div>/);
  });

  it('a heading inside a private comment is not there; `#Intro-1` is a link’s way to the second "Intro", not an embed’s', () => {
    const odd = note('Odd.md', '[[Target#Hidden]]\n\n![[Target#Intro-1]]');
    expect(anchorsOf(derive([TARGET, odd])).map((w) => [w.link, w.variant])).toEqual([
      ['Target#Intro-1', 'embed'],
      ['Target#Hidden', undefined],
    ]);
  });

  it('says nothing of a note visitors cannot reach (its own warning says so), nor of a private note’s links', () => {
    const hidden = note('Hidden.md', '## Only', false);
    const model = derive([TARGET, hidden, note('A.md', '[[Hidden#Nope]] [[Missing#Nope]]'), note('Private.md', '[[Target#Nope]]', false)]);
    expect(anchorsOf(model)).toEqual([]);
    expect(withAnchorWarnings(model).filter((w) => w.note === 'A.md').map((w) => w.kind)).toEqual(['missing-link', 'unpublished-link']);
  });

  it('counts a note’s warnings past twenty with the rest of its own, as one list', () => {
    const many = note('Many.md', Array.from({ length: 25 }, (_, i) => `[[Target#Gone ${i}]]`).join(' ') + ' [[Nowhere]]');
    const list = withAnchorWarnings(derive([TARGET, many])).filter((w) => w.note === 'Many.md');
    expect(list).toHaveLength(21);
    expect(list[0]!.kind).toBe('missing-link');
    expect(list[20]).toMatchObject({ note: 'Many.md', more: 6, message: 'and 6 more warnings (6 missing-heading)' });
  });
});

describe('kept current through an edit that keeps the model’s shape', () => {
  const linker = note('Linker.md', '[[Target#Install]] and ![[Target#^steps]]');
  const other = note('Other.md', 'Nothing pointed.');

  /** Swaps `after` in the way the quick pass does, and checks the list against a fresh derivation of the same records. */
  function swap(model: SiteModel, records: NoteRecord[], after: NoteRecord): NoteRecord[] {
    const i = records.findIndex((r) => r.path === after.path);
    expect(modelShape(after)).toBe(modelShape(records[i]!));
    expect(swapRecord(model, records[i]!, after)).toBe(true);
    const next = records.with(i, after);
    expect(anchorsOf(model)).toEqual(anchorsOf(derive(next)));
    return next;
  }

  it('a heading and a block renamed in the note linked: the linking note’s warnings come, then go', () => {
    let records = [TARGET, linker, other];
    const model = derive(records);
    expect(anchorsOf(model)).toEqual([]);
    const renamed = note('Guide/Target.md', TARGET.body.replace('## Install', '## Setup').replace('^steps', '^first-steps'));
    records = swap(model, records, renamed);
    expect(anchorsOf(model).map((w) => [w.note, w.link])).toEqual([
      ['Linker.md', 'Target#Install'],
      ['Linker.md', 'Target#^steps'],
    ]);
    records = swap(model, records, note('Guide/Target.md', renamed.body.replace('## Setup', '## Install')));
    expect(anchorsOf(model).map((w) => w.link)).toEqual(['Target#^steps']);
    records = swap(model, records, TARGET);
    expect(anchorsOf(model)).toEqual([]);
  });

  it('the linking note edited: a new anchor is checked, one removed is forgotten, and the note linked answers for it after', () => {
    let records = [TARGET, linker, other];
    const model = derive(records);
    // Links to the same notes (the shape holds), into other headings.
    records = swap(model, records, note('Linker.md', '[[Target#Nope]] and ![[Target#^steps]]'));
    expect(anchorsOf(model).map((w) => w.link)).toEqual(['Target#Nope']);
    records = swap(model, records, note('Linker.md', '[[Target]] and ![[Target#^steps]]'));
    expect(anchorsOf(model)).toEqual([]);
    // Its anchor into the embed's block is still known: the block renamed warns.
    records = swap(model, records, note('Guide/Target.md', TARGET.body.replace('^steps', '^other')));
    expect(anchorsOf(model).map((w) => w.link)).toEqual(['Target#^steps']);
  });

  it('a note nobody points into, edited, changes nothing and makes no new list', () => {
    const records = [TARGET, linker, other];
    const model = derive(records);
    const first = withAnchorWarnings(model);
    swap(model, records, note('Other.md', 'Still nothing pointed, edited.'));
    expect(withAnchorWarnings(model)).toBe(first);
  });

  it('the model’s own list changed in place (a plan adds to it) is merged again, even at the same length', () => {
    const model = derive([TARGET, note('Linker.md', '[[Target#Nope]] [[Gone]]')]);
    expect(withAnchorWarnings(model).map((w) => w.kind)).toContain('missing-link');
    const swapped: BuildWarning = { note: 'Linker.md', kind: 'unreadable-image', message: 'an image', target: 'a.png' };
    const i = model.warnings.findIndex((w) => w.note === 'Linker.md');
    model.warnings.splice(i, 1, swapped);
    expect(withAnchorWarnings(model).filter((w) => w.note === 'Linker.md').map((w) => w.kind)).toEqual(['missing-heading', 'unreadable-image']);
  });
});

describe('a note of thousands of broken links holds a few warnings, not thousands', () => {
  it('each check keeps its first twenty whole and counts the rest by kind; the list says the same', async () => {
    const { linkWarnings } = await import('../../shared/model/build-warnings.ts');
    const { embedWarnings } = await import('../../shared/model/embeds.ts');
    const body = [
      ...Array.from({ length: 10_000 }, (_, i) => `[[Gone ${i}]] [[Target#Nope ${i}]] [[Target#^nope${i}]]`),
      ...Array.from({ length: 100 }, (_, i) => `![[Lost ${i}]]`),
    ].join('\n');
    const flood = note('Flood.md', body);
    const model = derive([TARGET, flood]);
    const counted = (list: BuildWarning[]) => list.map((w) => [w.kind, w.more ?? 1] as const);
    const links = linkWarnings(flood, model);
    expect(links).toHaveLength(21);
    expect(counted(links).at(-1)).toEqual(['missing-link', 9_980]);
    const embeds = embedWarnings(flood, model);
    expect(embeds).toHaveLength(21);
    expect(embeds.at(-1)).toMatchObject({ kind: 'missing-embed', more: 80, message: 'and 80 more warnings (80 missing-embed)' });
    const listed = withAnchorWarnings(model).filter((w) => w.note === 'Flood.md');
    expect(listed).toHaveLength(21);
    // Lists capped apart and merged: each kind still counted as it was (the model's own list was capped before the anchors joined it).
    expect(listed.at(-1)).toMatchObject({ more: 30_080, message: 'and 30080 more warnings (9980 missing-link, 100 missing-embed, 10000 missing-heading, 10000 missing-block)' });
  });
});
