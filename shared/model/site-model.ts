// What visitors may see, derived from the store in one pass: posts newest first,
// static pages, neighbours, Related, twins, topics, collections or categories.
// Both the public site and GET /api/posts read this model.
import type { VaultPath } from '../vault-path.ts';
import { conflictCopyOf, isInFolder } from '../vault-names.ts';
import { claimsFrontPage, FRONT_PAGE, isReservedAddress, isWritableAddress, type Address } from './addresses.ts';
import { BuildWarnings, conflictWarning, frontmatterWarning, linkWarnings, longTextWarnings, markupWarning, mathWarning, type BuildWarning } from './build-warnings.ts';
import { buildCategories, type Category } from './categories.ts';
import { embedWarnings } from './embeds.ts';
import { AnchorIndex } from './anchor-links.ts';
import { buildCollections, type Collection } from './collections.ts';
import { backlinkIndex, createLinkResolver, relatedIndex, twinIndex, type LinkResolver } from './links.ts';
import type { NoteRecord } from './note-record.ts';
import { buildTopics, type TopicIndex } from './topics.ts';
import { textCompare } from '../natural-order.ts';

export interface ModelSettings {
  /** Folder whose notes are never public (settings `folders.templates`). */
  templatesFolder: string;
  excludeTags: string[];
  /** Interface language, for topic and collection labels. */
  language: string;
  /** Home note as configured (a path or a note name), or null. */
  homeNote: string | null;
  collections: { enabled: boolean; source: 'tags' | 'folders' };
}

export interface SiteModel {
  /** Every note, published or not. */
  all: NoteRecord[];
  isVisible(note: NoteRecord): boolean;
  /** Changes whenever the set of visible notes changes (publish, unpublish, templates…). */
  visibleKey: string;
  /** Posts: visible, not static pages, not the home note; newest first (spec D.2). */
  posts: NoteRecord[];
  /** Static pages (`page: true`): in the sitemap, out of the feed and the lists. */
  pages: NoteRecord[];
  /** Every visible note (posts, pages and the home note), newest first. */
  visible: NoteRecord[];
  byAddress: Map<Address, NoteRecord>;
  homeNote: NoteRecord | null;
  resolver: LinkResolver;
  related: Map<VaultPath, NoteRecord[]>;
  /** The visible notes linking to each visible note, by title (CONTRACT §12). */
  backlinks: Map<VaultPath, NoteRecord[]>;
  twins: Map<VaultPath, NoteRecord>;
  /** Older and newer post of each post. */
  neighbours: Map<VaultPath, { older: NoteRecord | null; newer: NoteRecord | null }>;
  topics: TopicIndex;
  /** Tags mode, when collections are on; hidden ones included. */
  collections: Collection[];
  /** Folders mode. */
  categories: Category[];
  mode: 'tags' | 'folders';
  /** What the build should tell the vault's owner, each naming its note (build-warnings.ts); the anchors' are apart (`withAnchorWarnings`). */
  warnings: BuildWarning[];
  /** Links and embeds into headings and blocks their notes do not have (anchor-links.ts). */
  anchors: AnchorIndex;
}

const pathHashes = new Map<string, number>();

/** A 32-bit FNV-1a hash of a path, remembered. */
function pathHash(p: string): number {
  let h = pathHashes.get(p);
  if (h === undefined) {
    h = 0x811c9dc5;
    for (let i = 0; i < p.length; i++) h = Math.imul(h ^ p.charCodeAt(i), 16777619) >>> 0;
    if (pathHashes.size > 500_000) pathHashes.clear();
    pathHashes.set(p, h);
  }
  return h;
}

/** Newest first; notes of one moment by path, so an edit (a new title) never moves a note in a list. */
export function newestFirst(a: NoteRecord, b: NoteRecord): number {
  return b.date.ms - a.date.ms || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * Everything of a note the site model is derived from, and everything other pages show of
 * it beyond its text (title, date, tags, links, embeds, banner…). Two records of a note
 * with the same shape differ only in what their own page, the pages embedding or linking
 * to it and the lists showing its card read: such an edit swaps the record into the model
 * (model-swap.ts) instead of deriving the model again.
 */
export function modelShape(r: NoteRecord): string {
  const head = `${r.path}\u0000${r.raw}\u0000${r.frontmatterProblem ?? ''}\u0000${r.publish}`;
  // Nothing public shows an unpublished note: its frontmatter is all the model reads (names, tag pages, folder notes).
  if (!r.publish) return head;
  return [
    head,
    r.title,
    r.lang,
    r.date.ms,
    // Pages show whether the note dates itself, not where else its date came from (file, memory, git).
    r.date.source === 'frontmatter',
    r.address,
    r.tags.join('\u0001'),
    r.links.join('\u0001'),
    r.transclusions.map((t) => [t.target, ...t.subpath].join('#')).join('\u0001'),
    r.embeds.join('\u0001'),
    r.banner ?? '',
    r.math,
    // What it says in Site health: the whole plan derives the warnings again.
    r.mathCut,
    r.markupCut,
    r.conflicts,
    r.mermaid,
  ].join('\u0000');
}

/** Every note in the model's order: by path. */
export function byPath(records: Iterable<NoteRecord>): NoteRecord[] {
  return [...records].sort((a, b) => textCompare(a.path, b.path));
}

/** Which notes visitors see, and the warnings of those refused; a note's visibility is known before the rest of the model. */
interface Visibility {
  byAddress: Map<Address, NoteRecord>;
  visibleSet: Set<NoteRecord>;
  /** By path, so a newer record of the same note (model-swap.ts) is visible as the older was. */
  visiblePaths: Set<VaultPath>;
  warnings: BuildWarnings;
}

const isOlder = (a: NoteRecord, b: NoteRecord): boolean => a.date.ms < b.date.ms || (a.date.ms === b.date.ms && a.path < b.path);

/** `all` in path order (byPath); of two notes claiming one address, the older keeps it. */
export function visibilityOf(all: NoteRecord[], settings: Pick<ModelSettings, 'templatesFolder'>): Visibility {
  const byAddress = new Map<Address, NoteRecord>();
  const visibleSet = new Set<NoteRecord>();
  const visiblePaths = new Set<VaultPath>();
  const warnings = new BuildWarnings();
  for (const note of all) {
    const malformed = frontmatterWarning(note);
    if (malformed) warnings.add(malformed);
    // spec 2.4: template notes never appear, even with publish: true.
    if (!note.publish || isInFolder(note.path, settings.templatesFolder)) continue;
    const original = conflictCopyOf(note.path);
    if (original !== null) {
      warnings.add({ note: note.path, kind: 'sync-conflict', message: `is not published: it is a sync tool's conflict copy of ${original}; keep the text you want in ${original} and remove the copy`, target: original });
      continue;
    }
    const math = mathWarning(note);
    if (math) warnings.add(math);
    const markup = markupWarning(note);
    if (markup) warnings.add(markup);
    const conflict = conflictWarning(note);
    if (conflict) warnings.add(conflict);
    for (const long of longTextWarnings(note)) warnings.add(long);
    if (isReservedAddress(note.address) || note.address === FRONT_PAGE) {
      warnings.add({ note: note.path, kind: 'reserved-address', message: `is not published: its address ${note.address} belongs to the site`, address: note.address });
      continue;
    }
    if (!isWritableAddress(note.address)) {
      warnings.add({ note: note.path, kind: 'reserved-address', message: `is not published: its address ${note.address} cannot be a file (a name over 255 bytes, the whole over 2,048, or a "." or ".." segment)`, address: note.address, variant: 'not_a_file' });
      continue;
    }
    const taken = byAddress.get(note.address);
    if (taken) {
      // The older claimant keeps the address (by date, then path), so a new note never takes an old post's place.
      const [kept, refused] = isOlder(note, taken) ? [note, taken] : [taken, note];
      warnings.add({ note: refused.path, kind: 'duplicate-address', message: `is not published: ${kept.path} also claims the address ${note.address}, and the older note keeps it`, target: kept.path, address: note.address });
      if (kept === taken) continue;
      visibleSet.delete(taken);
      visiblePaths.delete(taken.path);
    }
    byAddress.set(note.address, note);
    visibleSet.add(note);
    visiblePaths.add(note.path);
  }
  return { byAddress, visibleSet, visiblePaths, warnings };
}

/**
 * The visibility a full build works out before its plan (search-docs.ts: the search index
 * starts on the build thread while this side plans), kept for the plan's derive. Taken once, and
 * only by a derive from the very same records in the same order: the derive adds to its
 * warnings, and a record that changed is a new record (the store swaps them whole).
 */
let early: { input: NoteRecord[]; templatesFolder: string; all: NoteRecord[]; visibility: Visibility } | null = null;

/** The notes in path order and which of them visitors see, remembered for the next derive (see `early`). */
export function visibleBeforeModel(records: Iterable<NoteRecord>, settings: Pick<ModelSettings, 'templatesFolder'>): { all: NoteRecord[]; visiblePaths: ReadonlySet<VaultPath> } {
  const input = [...records];
  const all = byPath(input);
  const visibility = visibilityOf(all, settings);
  early = { input, templatesFolder: settings.templatesFolder, all, visibility };
  return { all, visiblePaths: visibility.visiblePaths };
}

function takeEarly(input: NoteRecord[], settings: Pick<ModelSettings, 'templatesFolder'>): { all: NoteRecord[]; visibility: Visibility } | null {
  const kept = early;
  early = null;
  if (!kept || kept.templatesFolder !== settings.templatesFolder || kept.input.length !== input.length) return null;
  for (let i = 0; i < input.length; i++) if (kept.input[i] !== input[i]) return null;
  return kept;
}

export function deriveSiteModel(records: Iterable<NoteRecord>, settings: ModelSettings): SiteModel {
  const input = [...records];
  // Worked out once per full build: a sort by path and a pass over every note (about 50 ms at 10,000 notes).
  const kept = takeEarly(input, settings);
  const all = kept?.all ?? byPath(input);
  const { byAddress, visibleSet, visiblePaths, warnings } = kept?.visibility ?? visibilityOf(all, settings);
  const isVisible = (note: NoteRecord) => visiblePaths.has(note.path);
  let pathSum = 0;
  for (const note of visibleSet) pathSum = (pathSum + pathHash(note.path)) % 4294967296;
  const resolver = createLinkResolver(all);
  // The configured home note, else the visible note whose `permalink: /` claims the front page, else Home or index.
  const claimant = settings.homeNote ? undefined : all.find((n) => claimsFrontPage(n.data.permalink) && visiblePaths.has(n.path));
  const homeTarget = settings.homeNote ?? (byAddress.has('/Home' as Address) ? 'Home' : byAddress.has('/index' as Address) ? 'index' : null);
  const homeCandidate = claimant ?? (homeTarget ? resolver.resolve(homeTarget, null) : null);
  const homeNote = homeCandidate && isVisible(homeCandidate) ? homeCandidate : null;

  const visible = [...visibleSet].sort(newestFirst);
  const posts = visible.filter((n) => !n.page && n !== homeNote);
  const pages = visible.filter((n) => n.page || n === homeNote);
  const neighbours = new Map<VaultPath, { older: NoteRecord | null; newer: NoteRecord | null }>();
  posts.forEach((post, i) => neighbours.set(post.path, { newer: posts[i - 1] ?? null, older: posts[i + 1] ?? null }));

  const visibleKey = `${visibleSet.size}:${pathSum}`;
  const linkView = { resolver, isVisible, visibleKey };
  for (const note of visible) {
    warnings.addAll(linkWarnings(note, linkView));
    warnings.addAll(embedWarnings(note, linkView));
  }

  const topics = buildTopics(all, posts, settings.excludeTags, settings.language);
  const mode = settings.collections.source === 'folders' ? 'folders' : 'tags';
  return {
    all,
    isVisible,
    visibleKey,
    posts,
    pages,
    visible,
    byAddress,
    homeNote,
    resolver,
    related: relatedIndex(all, resolver, isVisible),
    backlinks: backlinkIndex(all, resolver, isVisible),
    twins: twinIndex(all, resolver, isVisible),
    neighbours,
    topics,
    collections: mode === 'tags' && settings.collections.enabled ? buildCollections(topics, posts, settings.language) : [],
    categories: mode === 'folders' ? buildCategories(all, posts) : [],
    mode,
    warnings: warnings.list(),
    anchors: new AnchorIndex(visible, { resolver, isVisible, byAddress }),
  };
}
