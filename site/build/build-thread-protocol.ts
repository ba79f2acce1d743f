// Messages between a full build and its build thread (site/build/build-thread-serve.ts): notes
// parsed there for the build, and pages (views the build made) rendered there.
import type { Config } from '../../shared/config.ts';
import type { PackedRecord } from '../../shared/model/note-record.ts';
import type { SearchDoc } from '../../shared/search/index-format.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import type { BaseFiles } from '../plan/search-base.ts';
import type { RenderData } from '../render/render-state.ts';

export interface BuildThreadSetup {
  config: Config;
  skipDirs?: string[];
  base: string;
  /** The staging folder both processes write into. */
  stage: string;
  /** Every note of the vault, as the build's walk found them. */
  notes: VaultPath[];
  /** Notes parsed between two looks at the other side's messages (full-build.ts readChunkFor). */
  readChunk: number;
  /** The build's line breaks (shared/note/md.ts): both threads render notes alike. */
  strictLineBreaks: boolean;
}

/** How a static snapshot's pages are finished (site/render/snapshot-page.ts); null in the server. */
export interface SnapshotFinish {
  siteUrl: string | null;
}

export type BuildThreadRequest =
  | { type: 'setup'; setup: BuildThreadSetup }
  /** Send one more chunk of records (the build asks while it wants them: it is never flooded). */
  | { type: 'more' }
  /** The build has every record: the build thread stops parsing and lets its records go. */
  | { type: 'stop' }
  /** Index these documents (in id order) into the search base's files, while the build plans the site. */
  | { type: 'search'; docs: SearchDoc[] }
  /** What every page of this build is rendered with (the site's frame), and how a snapshot finishes them. */
  | { type: 'frame'; site: RenderData['site']; snapshot: SnapshotFinish | null }
  /** Render these pages (their views, made by the build) into the staging folder. */
  | { type: 'render'; id: number; pages: Omit<RenderData, 'site'> };

export type BuildThreadReply =
  | { type: 'ready' }
  /**
   * Records of notes [from, to) of the setup's list. The build thread parses the vault from
   * the back and sends each chunk the build asks for, while the build parses from the
   * front, until they meet.
   */
  | { type: 'records'; from: number; to: number; records: PackedRecord[] }
  | { type: 'rendered'; id: number }
  | { type: 'searched'; files: BaseFiles }
  | { type: 'failed'; error: string };
