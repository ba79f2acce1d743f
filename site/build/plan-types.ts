// One output of the site: an address, the file that holds it, and the signature
// of everything it is rendered from (spec: a change re-renders only what depends on it).
import type { Address } from '../../shared/model/addresses.ts';

export type PageKind = 'article' | 'list' | 'feed' | 'sitemap' | 'robots' | 'notFound' | 'nav' | 'search' | 'attachment' | 'asset' | 'searchIndex';

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
  /** Attachments: the vault path to copy. */
  source?: string;
  /** Assets and the search index's files: the bytes to write. */
  content?: string | Uint8Array;
}

/** What the server needs to know of an output. */
export interface ServedEntry {
  file: string;
  type: ServeType;
}
