// Links and embeds into a heading (`[[Note#Heading]]`, `[[#Heading]]`) or a block
// (`[[Note#^id]]`) their note does not have: the link lands on no heading, the embed shows
// nothing. Checked by the renderer's own rule (headings.ts `findHeading`) against the headings
// and block ids of the note's one parse (analyze.ts). An edit keeping the model's shape may
// still rename a heading, so the index knows which notes point into each note: a save checks
// the edited note and those again, never the vault.
import type { Address } from './addresses.ts';
import { mergeWarnings, NoteWarnings, type BuildWarning, sameWarnings } from './build-warnings.ts';
import type { LinkResolver } from './links.ts';
import type { NoteRecord } from './note-record.ts';
import { findHeading, hasHeadingId, headingId } from '../note/obsidian/headings.ts';
import { blockRef } from '../wikilinks.ts';
import type { VaultPath } from '../vault-path.ts';

/** What the checks read of the model. */
export interface AnchorView {
  resolver: LinkResolver;
  isVisible(note: NoteRecord): boolean;
  byAddress: ReadonlyMap<Address, NoteRecord>;
}

const blockSets = new WeakMap<string[], Set<string>>();

/** Whether the note has a block of this id: a set per record, so a note of thousands of anchors costs no more each. */
function hasBlock(note: NoteRecord, id: string): boolean {
  let set = blockSets.get(note.blockIds);
  if (!set) blockSets.set(note.blockIds, (set = new Set(note.blockIds)));
  return set.has(id);
}

/** Whether `subpath` (`block`: its block id, if it names one) names a heading or block of `note`, as its page (a link) or an embed finds one. */
function lands(note: NoteRecord, subpath: string[], block: string | null, embed: boolean): boolean {
  if (block !== null) return hasBlock(note, block);
  if (findHeading(note.headings, subpath) >= 0) return true;
  // A link falls back on the last segment's id (headings.ts `headingAnchor`): `#Intro-1` is the second "Intro".
  const id = headingId(subpath[subpath.length - 1]!);
  return !embed && id !== '' && hasHeadingId(note.headings, id);
}

function warningOf(note: NoteRecord, other: NoteRecord, target: string, subpath: string[], block: string | null, embed: boolean): BuildWarning {
  const written = `${target}#${subpath.join('#')}`;
  const where = other === note ? 'the note itself' : other.path;
  const missing = block !== null ? `no block ^${block}` : `no heading "${subpath[subpath.length - 1]}"`;
  const message = embed ? `embeds ![[${written}]], but ${where} has ${missing}: nothing is shown` : `links to "${written}", but ${where} has ${missing}`;
  const warning: BuildWarning = { note: note.path, kind: block !== null ? 'missing-block' : 'missing-heading', message, target: other.path, link: written };
  if (embed) warning.variant = 'embed';
  return warning;
}

/** A note's anchors that land nowhere, and the other notes they point into (visible ones only: a missing or unpublished note has warnings of its own). */
function check(note: NoteRecord, view: AnchorView): { list: BuildWarning[]; into: Set<VaultPath> } {
  const found = new NoteWarnings(note.path);
  const into = new Set<VaultPath>();
  const one = (target: string, subpath: string[], embed: boolean) => {
    const other = target === '' ? note : view.resolver.resolve(target, note);
    if (!other || !view.isVisible(other)) return;
    if (other !== note) into.add(other.path);
    const block = blockRef(subpath);
    if (!lands(other, subpath, block, embed)) found.add(block !== null ? 'missing-block' : 'missing-heading', () => warningOf(note, other, target, subpath, block, embed));
  };
  for (const anchor of note.anchors) {
    const hash = anchor.indexOf('#');
    one(anchor.slice(0, hash), anchor.slice(hash + 1).split('#'), false);
  }
  const seen = new Set<string>();
  for (const ref of note.transclusions) {
    const key = `${ref.target}#${ref.subpath.join('#')}`;
    if (ref.subpath.length === 0 || seen.has(key)) continue;
    seen.add(key);
    one(ref.target, ref.subpath, true);
  }
  return { list: found.list(), into };
}

const pointsInto = (note: NoteRecord) => note.anchors.length > 0 || note.transclusions.some((t) => t.subpath.length > 0);

/** The anchor warnings of every visible note, kept current through the quick pass's swaps (model-swap.ts). */
export class AnchorIndex {
  private readonly lists = new Map<VaultPath, BuildWarning[]>();
  /** A note's path → the addresses of the visible notes whose anchors point into it. */
  private readonly linkers = new Map<VaultPath, Set<Address>>();
  private readonly targets = new Map<VaultPath, { address: Address; into: Set<VaultPath> }>();
  /** Moves whenever a note's list changes: the model's merged list is made again then. */
  version = 0;

  constructor(visible: Iterable<NoteRecord>, view: AnchorView) {
    for (const note of visible) if (pointsInto(note)) this.take(note, view);
  }

  /** Every warning, note by note (not capped: the model's list caps them with its own). */
  list(): BuildWarning[] {
    return [...this.lists.values()].flat();
  }

  /** A visible note's newer record (same shape) took its place: it and the notes pointing into it are checked again. */
  swapped(after: NoteRecord, view: AnchorView): void {
    this.take(after, view);
    // A copy: checking a linker takes it out of the set and puts it back.
    for (const address of [...(this.linkers.get(after.path) ?? [])]) {
      const linker = view.byAddress.get(address);
      if (linker && linker.path !== after.path) this.take(linker, view);
    }
  }

  private take(note: NoteRecord, view: AnchorView): void {
    const { list, into } = check(note, view);
    const before = this.lists.get(note.path) ?? [];
    if (!sameWarnings(before, list)) this.version++;
    if (list.length) this.lists.set(note.path, list);
    else this.lists.delete(note.path);
    const old = this.targets.get(note.path);
    for (const p of old?.into ?? []) this.linkers.get(p)?.delete(old!.address);
    if (into.size) this.targets.set(note.path, { address: note.address, into });
    else this.targets.delete(note.path);
    for (const p of into) (this.linkers.get(p) ?? this.linkers.set(p, new Set()).get(p)!).add(note.address);
  }
}

const merged = new WeakMap<object, { base: BuildWarning[]; version: number; list: BuildWarning[] }>();

const sameItems = (a: readonly BuildWarning[], b: readonly BuildWarning[]) => a.length === b.length && a.every((w, i) => w === b[i]);

/**
 * The model's warnings with its anchors', capped per note as one list; made again only when
 * either changed (a save asks at every pass, and the list is sorted whole). The model's own
 * list is compared item by item: a plan adds to it in place.
 */
export function withAnchorWarnings(model: { warnings: BuildWarning[]; anchors: AnchorIndex }): BuildWarning[] {
  const known = merged.get(model);
  if (known && known.version === model.anchors.version && sameItems(known.base, model.warnings)) return known.list;
  const list = mergeWarnings(model.warnings, model.anchors.list());
  merged.set(model, { base: [...model.warnings], version: model.anchors.version, list });
  return list;
}
