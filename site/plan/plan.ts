// The whole site as a list of outputs with signatures, and the difference
// between two plans: what to render, what to copy, what to delete.
import { PlanMemory } from './plan-memory.ts';
import { fileAddress, isInSitesFolder, isReservedAddress, isWritableFile, RESERVED_ADDRESSES, type Address } from '../../shared/model/addresses.ts';
import { mergeWarnings, type BuildWarning } from '../../shared/model/build-warnings.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import type { SiteModel } from '../../shared/model/site-model.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { drawingExports, isAttachmentTarget, isDrawingTarget } from '../../shared/wikilinks.ts';
import { attachmentStamp, type AttachmentIndex } from '../read/attachments.ts';
import type { DiscussionMap } from './discussion.ts';
import type { ImageVariants } from '../render/image-variants.ts';
import type { SiteFrame } from './frame.ts';
import { PageContext } from './page-context.ts';
import { planArticles } from './plan-articles.ts';
import { isDocumentPath } from './documents.ts';
import { planDocuments } from './plan-documents.ts';
import { planLists } from './plan-lists.ts';
import { planOutputs } from './plan-outputs.ts';
import type { PageFamily, PlannedPage } from './plan-types.ts';

/** The vault's own stylesheet, which every page loads (CONTRACT §7). */
export const VAULT_STYLESHEET = 'publish.css';

export interface Asset {
  address: Address;
  file: string;
  content: string | Uint8Array;
  /** Published only when a page needs it: KaTeX's files for math, mermaid's script for diagrams. */
  need?: 'math' | 'mermaid';
}

export interface SitePlan {
  pages: Map<Address, PlannedPage>;
  ctx: PageContext;
  /** The page families by key (plan-types.ts), for re-planning a few after an edit. */
  families: Map<string, PageFamily>;
  /**
   * Which families show each note's text (vault path → family keys, each once). Lists, not
   * sets: a set of a note's twenty-odd keys took twice the memory, about 5 MB of a realistic
   * 10,000-note builder's live heap.
   */
  readers: Map<VaultPath, string[]>;
}

/**
 * Adds a family's readings to the index of readers. `known`: the family may be there already
 * (planned before), so each note's list is searched; a new one's key can only repeat at the
 * end of a list (one family is indexed at a time), so a whole site's index stays linear.
 */
function indexReaders(readers: Map<VaultPath, string[]>, family: PageFamily, known: boolean): void {
  for (const note of family.reads) {
    const keys = readers.get(note.path);
    if (!keys) readers.set(note.path, [family.key]);
    else if (keys[keys.length - 1] !== family.key && !(known && keys.includes(family.key))) keys.push(family.key);
  }
}

export function planSite(
  model: SiteModel,
  frame: SiteFrame,
  frameSig: string,
  attachments: AttachmentIndex,
  assets: Asset[],
  discussion: DiscussionMap | null = null,
  images: ImageVariants | null = null,
  feedIds: PageContext['feedIds'] = null,
  memory: PlanMemory = new PlanMemory(),
): SitePlan {
  // CONTRACT §7: the vault root's publish.css is loaded after the blog's stylesheet on every page.
  const vaultCss = attachments.get(VAULT_STYLESHEET) ? VAULT_STYLESHEET : null;
  const ctx = new PageContext(model, frame, vaultCss ? `${frameSig}\u0000${vaultCss}` : frameSig, attachments, discussion, images, memory);
  ctx.publishCss = vaultCss ? ctx.publish(vaultCss) : null;
  ctx.feedIds = feedIds;
  const pages = new Map<Address, PlannedPage>();
  const families = new Map<string, PageFamily>();
  const readers = new Map<VaultPath, string[]>();
  // Documents after articles: the notes' links and embeds have published them (documents.ts).
  for (const family of [...planArticles(ctx), ...planDocuments(ctx), ...planLists(ctx), ...planOutputs(ctx)]) {
    // The first claim of an address wins (a note's article over a list page of the same address).
    // A page no file can hold is left out (the model refuses the names it knows of: this is the net).
    if (family.pages.some((page) => pages.has(page.address) || !isWritableFile(page.file))) continue;
    for (const page of family.pages) pages.set(page.address, page);
    const known = families.has(family.key);
    families.set(family.key, family);
    indexReaders(readers, family, known);
  }
  // Large files no page links are not written (mermaid's script is 3.5 MB).
  const needed = new Set<string>();
  for (const note of model.visible) {
    if (note.math) needed.add('math');
    if (note.mermaid) needed.add('mermaid');
  }
  for (const asset of assets) {
    if (asset.need && !needed.has(asset.need)) continue;
    pages.set(asset.address, { address: asset.address, file: asset.file, content: asset.content, kind: 'asset', type: 'file', sig: asset.file, view: () => null });
  }
  // Registered while the pages above were planned: every attachment a visible note shows.
  ctx.imageUrl(frame.banner, null);
  ctx.imageUrl(frame.logo, null);
  const files = new Set([...pages.values()].map((page) => page.file));
  const shadowed: BuildWarning[] = [];
  for (const [p, encoded] of ctx.published) {
    if (isDocumentPath(p)) continue; // a page of its own, never copied as it is
    const address = fileAddress(p);
    const file = address.slice(1);
    const info = attachments.get(p);
    if (pages.has(address) || files.has(file) || isReservedAddress(address)) {
      // A note that took an attachment's address (`img.png.md`, or its permalink) is served
      // there and the picture its notes show is not: said, not silent (a reviewer's find).
      const taker = model.byAddress.get(address);
      if (taker && info) shadowed.push({ note: taker.path, kind: 'duplicate-address', message: `its address ${address} is also the attachment ${p}, which notes show: the note is served there and the attachment is not published`, target: p, address, variant: 'attachment' });
      // In a folder the site keeps for itself (`_s`, `_img`…): the picture is missing from its page, said so.
      else if (info && isInSitesFolder(address) && ctx.shownBy.has(p)) shadowed.push({ note: ctx.shownBy.get(p)!.path, kind: 'reserved-address', message: `shows ${p}, which is not published: its address ${address} belongs to the site`, target: p, address, variant: 'attachment' });
      continue;
    }
    if (!info) continue;
    // A path the site's folder cannot hold (over MAX_FILE_BYTES): left out and said, rather than the write stopping the build.
    if (!isWritableFile(file)) {
      if (ctx.shownBy.has(p)) shadowed.push({ note: ctx.shownBy.get(p)!.path, kind: 'reserved-address', message: `shows ${p}, which is not published: its path is too long for a file of the site`, target: p, address, variant: 'not_a_file' });
      continue;
    }
    planImageCopies(ctx, p, pages, shadowed);
    pages.set(address, {
      address,
      file,
      kind: 'attachment',
      type: 'file',
      sig: `${attachmentStamp(info)}:${encoded}`,
      view: () => null,
      source: p,
    });
  }
  ctx.imagesClosed = true;
  addWarnings(model, [...shadowed, ...missingAttachments(model, attachments), ...siteFilesInVault(attachments), ...caseClashes(model, pages)]);
  return { pages, ctx, families, readers };
}

/**
 * A note's page whose file differs from another page's only in case (`Folder.html` beside the
 * site's `folder.html`, two notes `a.md` and `A.md`): served apart, but a site written to a disk
 * that ignores case (macOS, Windows) keeps one of the two files. Said on a whole plan, as every
 * snapshot's is; the pages stay, each served at its own address.
 */
/** The note a page is of: its article's, or for a vault folder's page the first note in the folder. */
function ownerOf(model: SiteModel, page: PlannedPage): NoteRecord | undefined {
  const note = model.byAddress.get(page.address);
  if (note || page.kind !== 'folder') return note;
  return model.visible.find((n) => n.address.startsWith(page.address + '/'));
}

function caseClashes(model: SiteModel, pages: Map<Address, PlannedPage>): BuildWarning[] {
  const byFolded = new Map<string, PlannedPage>();
  const warnings: BuildWarning[] = [];
  for (const page of pages.values()) {
    const folded = page.file.normalize('NFC').toLowerCase();
    const other = byFolded.get(folded);
    if (!other) {
      byFolded.set(folded, page);
      continue;
    }
    const [owner, otherOwner] = [ownerOf(model, page), ownerOf(model, other)];
    const named = owner ?? otherOwner;
    if (!named) continue;
    const [mine, against] = named === owner ? [page, other] : [other, page];
    const whose = mine.kind === 'folder' ? "its folder's page" : 'its page';
    warnings.push({ note: named.path, kind: 'duplicate-address', message: `${whose} ${mine.address} (the file ${mine.file}) differs from the page ${against.address} (${against.file}) only in case: a copy of the site on a disk that ignores case (macOS, Windows) keeps one of them`, target: against.address, address: mine.address, variant: 'case' });
  }
  return warnings;
}

function addWarnings(model: SiteModel, warnings: BuildWarning[]): void {
  if (warnings.length === 0) return;
  model.warnings.splice(0, model.warnings.length, ...mergeWarnings(model.warnings, warnings));
}

/**
 * A whole build's plan (a snapshot's, a server's first), once the image copies it waited for
 * are made: their states and copies taken in, in place of planning the site again. Its views
 * are made as its pages render, after this, and its signatures once it has answered
 * (plan-types.ts DueSigs): both read the images as they are now.
 */
export function adoptImages(plan: SitePlan): SitePlan {
  const { ctx } = plan;
  const warnings: BuildWarning[] = [];
  for (const [p, state] of ctx.imageStates) {
    const info = ctx.attachments.get(p);
    if (state.kind !== 'pending' || !info || !ctx.images) continue;
    // Not asked again: one whose copies could not be written stays as it is, no work started after the wait.
    const settled = ctx.images.settledState(p, info);
    if (!settled) continue;
    ctx.imageStates.set(p, settled);
    planImageCopies(ctx, p, plan.pages, warnings);
  }
  addWarnings(ctx.model, warnings);
  return plan;
}

/** The smaller copies of a published raster image, once made (a page shows them only then), or a warning when it is no usable image. */
function planImageCopies(ctx: PageContext, p: string, pages: Map<Address, PlannedPage>, warnings: BuildWarning[]): void {
  if (!ctx.shownBy.has(p)) return;
  const state = ctx.imageState(p);
  if (state?.kind === 'original' && state.warn) {
    const note = ctx.shownBy.get(p);
    if (note) warnings.push({ note: note.path, kind: 'unreadable-image', message: `the image ${p} is shown as it is, without smaller copies: ${state.reason}`, target: p, detail: state.reason });
  }
  if (state?.kind !== 'ready') return;
  for (const variant of state.variants) {
    const address = ('/' + variant.file) as Address;
    pages.set(address, { address, file: variant.file, kind: 'imageVariant', type: 'file', sig: variant.file, view: () => null, source: ctx.images!.fileOf(variant) });
  }
}

/** Images and files a visible note shows or links that are not in the vault: the reader meets a broken picture. */
function missingAttachments(model: SiteModel, attachments: AttachmentIndex): BuildWarning[] {
  const warnings: BuildWarning[] = [];
  for (const note of model.visible) {
    for (const written of new Set(note.embeds)) {
      const target = written.replace(/[#?][^]*$/, '');
      if (!isAttachmentTarget(target) || attachments.resolve(written, note) !== null) continue;
      // A drawing whose note is in the vault lacks its export; one with no note at all is missing.
      if (isDrawingTarget(target) && model.resolver.resolve(target, note)) {
        warnings.push({ note: note.path, kind: 'missing-attachment', message: `shows or links the Excalidraw drawing ${written}, which has no exported picture beside it (${drawingExports(target)[0]!.replace(/^.*\//, '')}): turn on the plugin's Auto-export SVG`, link: written, variant: 'drawing' });
      } else warnings.push({ note: note.path, kind: 'missing-attachment', message: `shows or links ${written}, which is not in the vault`, link: written });
    }
  }
  return warnings;
}

/**
 * A file at the vault's root the site writes itself (`robots.txt`, `sitemap.xml`, a feed): not
 * published, and said, since a Hugo site's static folder would serve it. The vault's
 * favicon is the one the site serves (CONTRACT §7).
 */
function siteFilesInVault(attachments: AttachmentIndex): BuildWarning[] {
  const warnings: BuildWarning[] = [];
  for (const address of RESERVED_ADDRESSES) {
    const p = address.slice(1) as VaultPath;
    if (address === '/favicon.ico' || !attachments.get(p)) continue;
    warnings.push({ note: p, kind: 'reserved-address', message: `is not published: its address ${address} belongs to the site, which writes its own`, address: address as Address });
  }
  return warnings;
}

/** A note's records either side of an edit the quick pass swapped in. */
export interface SwappedNote {
  before: NoteRecord;
  after: NoteRecord;
}

/** Families left for later that may show an edited note only through links: their keys, with the notes' records either side. */
export type FacesToCompare = Map<string, Map<VaultPath, SwappedNote>>;

/** Whether a family shows of `swap`'s note what it did (only its links, and those alike): then it stays as it is. */
export function sameFace(plan: SitePlan, key: string, swap: SwappedNote): boolean {
  const face = plan.families.get(key)?.linkedFace;
  if (!face) return false;
  const was = face(swap.before);
  return was !== null && was === face(swap.after);
}

/**
 * The families reading the notes at `paths` planned again (their pages are new objects;
 * `plan` is left as it is), but those `waits` leaves for later: their keys, and in `faces`
 * those whose comparison of what they show waits too (an index note's thousand targets: two
 * parses' worth of link sentences, which no one who saved waits on). The model already holds
 * the notes' newer records.
 */
export function replanReaders(
  plan: SitePlan,
  paths: Iterable<VaultPath>,
  alsoKeys: string[] = [],
  swapped = new Map<VaultPath, SwappedNote>(),
  waits: (key: string) => boolean = () => false,
): { now: PageFamily[]; waiting: string[]; faces: FacesToCompare } {
  const changed = new Set(paths);
  const keys = new Set<string>(alsoKeys);
  const faces: FacesToCompare = new Map();
  for (const p of changed) {
    const swap = swapped.get(p);
    for (const key of plan.readers.get(p) ?? []) {
      if (keys.has(key)) continue;
      if (swap && plan.families.get(key)?.linkedFace && waits(key)) {
        const notes = faces.get(key) ?? faces.set(key, new Map()).get(key)!;
        notes.set(p, swap);
        continue;
      }
      // A family showing the note only through links stays when what it shows of it did.
      if (swap && sameFace(plan, key, swap)) continue;
      keys.add(key);
    }
  }
  for (const key of keys) faces.delete(key);
  const stale: PageFamily[] = [];
  for (const key of keys) {
    const family = plan.families.get(key);
    if (family) stale.push(family);
  }
  // What was worked out from these notes is stale: their older records' own views, and what
  // other notes' views took from them. The rest the families read is as it was.
  for (const family of stale) plan.ctx.forget(family.reads.filter((r) => changed.has(r.path)));
  plan.ctx.forget(dependentsOf(plan.ctx.model, changed));
  return { now: stale.filter((f) => !waits(f.key)).map((family) => family.replan()), waiting: stale.filter((f) => waits(f.key)).map((f) => f.key), faces };
}

/**
 * The notes whose remembered views took something from the notes at `paths` beyond their
 * shape: the notes linking to them (an anchor comes from the headings), and every note
 * embedding one of those, however deep (its text, its links' anchors). The model's
 * backlinks hold both linking and embedding notes; a note embedding nothing is no embedder.
 */
export function dependentsOf(model: SiteModel, paths: Iterable<VaultPath>): Set<NoteRecord> {
  const out = new Set<NoteRecord>();
  const queue: NoteRecord[] = [];
  const reach = (r: NoteRecord) => {
    if (out.has(r)) return;
    out.add(r);
    queue.push(r);
  };
  for (const p of paths) for (const r of model.backlinks.get(p) ?? []) reach(r);
  while (queue.length) {
    for (const r of model.backlinks.get(queue.pop()!.path) ?? []) if (r.transclusions.length > 0) reach(r);
  }
  return out;
}

/** Takes re-planned families into the plan (after their files are in place). */
export function adoptFamilies(plan: SitePlan, families: PageFamily[]): void {
  for (const family of families) {
    const before = plan.families.get(family.key);
    plan.families.set(family.key, family);
    for (const page of family.pages) plan.pages.set(page.address, page);
    // A list page reads thousands of notes: indexed again only when what it reads changed.
    if (!before || !sameReads(before.reads, family.reads)) indexReaders(plan.readers, family, true);
  }
}

/** Whether two families read the same notes (by path: an edit swaps a record, not what is read). */
function sameReads(a: readonly NoteRecord[], b: readonly NoteRecord[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && a[i]!.path !== b[i]!.path) return false;
  return true;
}

export interface PlanDiff {
  /** Outputs whose signature is new or changed. */
  changed: PlannedPage[];
  /** Addresses gone since the previous plan, with the file each had ('' : the address stays, its file changed). */
  removed: { address: Address | ''; file: string }[];
}

export function diffPlans(previous: Map<Address, Pick<PlannedPage, 'sig' | 'file'>> | null, next: Map<Address, PlannedPage>): PlanDiff {
  const changed: PlannedPage[] = [];
  const removed: { address: Address | ''; file: string }[] = [];
  for (const [address, page] of next) {
    const before = previous?.get(address);
    if (!before || before.sig !== page.sig || before.file !== page.file) changed.push(page);
  }
  if (previous) {
    for (const [address, page] of previous) {
      const now = next.get(address);
      if (!now) removed.push({ address, file: page.file });
      else if (now.file !== page.file) removed.push({ address: '', file: page.file });
    }
  }
  return { changed, removed };
}
