// Messages between a full build and its partner thread (site/build/partner.ts).
import type { Config } from '../../shared/config.ts';
import type { PackedRecord } from '../../shared/model/note-record.ts';
import type { PostDate } from '../../shared/note/dates.ts';
import type { Settings } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import type { AttachmentInfo } from './attachments.ts';
import type { PlannedDiscussion } from './discussion.ts';

export interface PartnerSetup {
  config: Config;
  skipDirs?: string[];
  base: string;
  /** The staging folder both processes write into. */
  stage: string;
  /** Every note of the vault, as the build's walk found them. */
  notes: VaultPath[];
}

/** How a static snapshot's pages are finished (site/build/snapshot-page.ts); null in the server. */
export interface SnapshotFinish {
  nav: string;
  siteUrl: string | null;
}

export type PartnerRequest =
  | { type: 'setup'; setup: PartnerSetup }
  /** Send one more chunk of records (the build asks while it wants them: it is never flooded). */
  | { type: 'more' }
  /** The build has every record: here are those it parsed itself. The partner stops parsing. */
  | { type: 'rest'; records: PackedRecord[] }
  /** Plan the site exactly as the build did. */
  | {
      type: 'plan';
      /** Dates the build settled from git's history. */
      dates: [VaultPath, PostDate][];
      attachments: AttachmentInfo[];
      settings: Settings;
      nowMs: number;
      /** The approved comments and mentions the build planned with. */
      discussion?: [string, PlannedDiscussion][] | null;
    }
  /** Render templated pages [from, to) of the plan into the staging folder. */
  | { type: 'render'; id: number; from: number; to: number; snapshot: SnapshotFinish | null };

export type PartnerReply =
  | { type: 'ready' }
  /**
   * Records of notes [from, to) of the setup's list. The partner parses the vault from
   * the back and sends each chunk the build asks for, while the build parses from the
   * front, until they meet.
   */
  | { type: 'records'; from: number; to: number; records: PackedRecord[] }
  /** The plan's templated pages, as one digest: the build compares it with its own. */
  | { type: 'planned'; check: string }
  | { type: 'rendered'; id: number }
  | { type: 'failed'; error: string };
