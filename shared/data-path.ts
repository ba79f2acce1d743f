// Paths of files in the data directory (SERVICE_DATA) are a branded type, the third
// kind beside vault paths (VaultPath) and public addresses (Address): a data file
// cannot be handed where a vault path or an address belongs. `dataPath` is the one
// conversion, and each data file's name is written once, here.
import path from 'node:path';

export type DataPath = string & { readonly __brand: 'DataPath' };

/** The data directory's files and folders (spec 2.2, docs/guide/configuration.md "The data directory"). */
export const DATA_FILES = {
  settings: 'settings.json',
  created: 'created.json',
  redirects: 'redirects.json',
  /** Each post's RSS guid, fixed at its first publication (also in the vault's `.service/`). */
  feedIds: 'feed-ids.json',
  credentials: 'git-credentials.json',
  admin: 'admin.json',
  syncLast: 'sync-last.json',
  /** The backup target this device keeps while the vault's settings ask for another (CONTRACT §14). */
  syncVaultRequest: 'sync-vault-request.json',
  travelState: 'travel-state.json',
  customCss: 'custom.css',
  versions: 'versions',
  publicSite: 'public-site',
  /** The notes' records as the builder last read them, for the next start (site/read/record-cache.ts): private text, never served. */
  noteRecords: 'note-records',
  /** The builder's heap cap measured fitting the vault (build-heap.ts heapForLive), for the next start. */
  builderHeap: 'builder-heap.json',
  /** Smaller copies of the vault's raster images, one folder per image content (site/render/image-variants.ts). */
  imageVariants: 'image-variants',
  /** Comments and mentions (SQLite, its own journal: WAL beside it). */
  comments: 'comments.db',
} as const;

/** An absolute path inside the data directory `dataDir`. */
export function dataPath(dataDir: string, ...segments: string[]): DataPath {
  return path.join(dataDir, ...segments) as DataPath;
}
