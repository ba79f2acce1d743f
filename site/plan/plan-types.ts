// One output of the site: an address, the file that holds it, and the signature
// of everything it is rendered from (spec: a change re-renders only what depends on it).
import type { Address } from '../../shared/model/addresses.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';

export type PageKind = 'article' | 'list' | 'folder' | 'feed' | 'sitemap' | 'robots' | 'notFound' | 'nav' | 'search' | 'attachment' | 'imageVariant' | 'asset' | 'searchIndex';

/** How the public server answers it: pages get per-request substitutions, files are sent as they are. */
export type ServeType = 'html' | 'xml' | 'txt' | 'json' | 'file';

export interface PlannedPage {
  /** The served address (decoded). Internal outputs (the nav fragment) start with `/_service/`. */
  address: Address;
  /** Output path relative to the site folder. */
  file: string;
  kind: PageKind;
  type: ServeType;
  sig: string;
  /** The data its template renders (not called for attachments). */
  view: () => unknown;
  /** Attachments: the vault path to copy; an image's copy: its file in the data directory's cache. */
  source?: string;
  /** Assets and the search index's files: the bytes to write (a search file's are read when it is written). */
  content?: string | Uint8Array | (() => string);
}

/** What a page planned with a lazy signature is given. */
export type LazySigFields = Pick<PlannedPage, 'address' | 'file' | 'kind' | 'type' | 'view'>;

/**
 * A page whose signature is made the first time it is read. A static snapshot never
 * reads one (no work whose result is thrown away); the server reads them all
 * as soon as a plan is made (`settleSigs`), or a whole build's once it has answered
 * (`DueSigs`), while what they depend on is as it was.
 * One class for every such page: a getter defined on each page object made V8 keep every
 * page as a dictionary of its properties, over twice the memory and slower to read.
 */
class LazySigPage implements PlannedPage {
  readonly address: PlannedPage['address'];
  readonly file: string;
  readonly kind: PlannedPage['kind'];
  readonly type: PlannedPage['type'];
  readonly view: PlannedPage['view'];
  #sig: string | null = null;
  readonly #make: () => string;

  constructor(page: LazySigFields, make: () => string) {
    this.address = page.address;
    this.file = page.file;
    this.kind = page.kind;
    this.type = page.type;
    this.view = page.view;
    this.#make = make;
  }

  get sig(): string {
    return (this.#sig ??= this.#make());
  }
}

export function withLazySig(page: LazySigFields, make: () => string): PlannedPage {
  return new LazySigPage(page, make);
}

/** Makes every page's signature now (see withLazySig). */
export function settleSigs(pages: Iterable<PlannedPage>): void {
  for (const page of pages) void page.sig;
}

/**
 * The signatures a server's whole build owes. Its pages are rendered whatever their
 * signatures, so they are made once its answer is sent, not before its first page is
 * served (about a second of a realistic first start at 10,000 notes), and before anything
 * can change what they read: the build process settles them right after the answer, and
 * every later pass and the generation's record settle them first.
 */
export class DueSigs {
  private pages: Map<unknown, PlannedPage> | null = null;

  get owed(): number {
    return this.pages?.size ?? 0;
  }

  /** The plan's pages, read when settled (pages added to the plan meanwhile too). */
  owe(pages: Map<unknown, PlannedPage>): void {
    this.pages = pages;
  }

  /** Makes them; owed no longer even if one fails (a page whose signature throws fails the pass that reads it, as before). */
  settle(): void {
    const pages = this.pages;
    this.pages = null;
    if (pages) settleSigs(pages.values());
  }
}

/** What the server needs to know of an output. */
export interface ServedEntry {
  file: string;
  type: ServeType;
}

/**
 * Pages planned together (an article, one page of a list, the feed…), with the notes
 * whose text they show and how to plan them again. An edit that leaves a note's shape as
 * it was (shared/model/site-model.ts `modelShape`) re-plans only the families reading
 * that note, found through the plan's index of readers.
 */
export interface PageFamily {
  key: string;
  pages: PlannedPage[];
  /** Notes whose text (not only their place, title or date) these pages show. */
  reads: readonly NoteRecord[];
  /** The same family planned again from the model as it is now. */
  replan: () => PageFamily;
  /**
   * What the pages show of a note they reach only through links (its anchors, the sentence
   * around its link here; its place and title are its shape): an edit leaving that as it was
   * re-plans nothing here. Null for a note whose text they show; absent: every read counts.
   */
  linkedFace?: (note: NoteRecord) => string | null;
}

/** A family whose pages show no note's text: planned again only with the whole site. */
export function fixedFamily(key: string, pages: PlannedPage[]): PageFamily {
  const family: PageFamily = { key, pages, reads: [], replan: () => family };
  return family;
}
