// The JSON shapes of the admin APIs, as CONTRACT.md names them. Types shared with the
// server are imported as types only, so the bundle never includes server code.
import type { Settings as SharedSettings } from '../../../shared/settings.ts';
import type { AdminCommentAnswer as CommentItem, AdminMentionAnswer as MentionItem } from '../../comments/answers.ts';

export type EntryKind = 'note' | 'folder' | 'attachment';

export interface TreeEntry {
  path: string;
  kind: EntryKind;
  mtimeMs: number;
}

/** GET /api/notes: what the palette, `[[` suggestions and the tree's publish marks know of a note. */
export interface NoteMeta {
  path: string;
  title: string;
  aliases: string[];
  tags: string[];
  publish: boolean;
}

export type { Heading } from '../../../shared/note/headings.ts';

export interface SearchResult {
  path: string;
  title: string;
  line: number;
  column: number;
  length: number;
  text: string;
  textColumn: number;
  tags: string[];
}

export interface Backlink {
  path: string;
  title: string;
  line: number;
  context: string;
}

export interface NoteDoc {
  path: string;
  content: string;
  mtimeMs: number;
  /** The SHA-1 of the bytes read: a save sends it back as its base. */
  hash: string;
  /** The file has no write permission: every save is refused, so the editor does not take typing. */
  readOnly: boolean;
}

export interface NoteState {
  path: string;
  mtimeMs: number | null;
  readOnly: boolean;
}

export interface TrashEntry {
  id: string;
  path: string;
  kind: EntryKind;
  deletedAt: string;
}

export type VersionReason = 'Earlier save' | 'Before a restore' | 'Before a link rewrite';

export interface Version {
  at: string;
  replacedAt: string;
  savedAt: string;
  size: number;
  reason: VersionReason;
}

export interface VersionList {
  enabled: boolean;
  versions: Version[];
}

export interface Revision {
  sha: string;
  date: string;
  message: string;
  added: number;
  removed: number;
  path: string;
}

export interface HistoryList {
  repo: boolean;
  revisions: Revision[];
  truncated: boolean;
}

export type SyncState = 'clean' | 'dirty' | 'running' | 'failed' | 'busy';

/** One sentence of a sync result: a key and its figures (admin/sync/last-result.ts). */
export interface SyncWords {
  key: string;
  [figure: string]: string | number;
}

export interface SyncLast {
  at: string;
  ok: boolean;
  message: string;
  words?: SyncWords[];
  error?: string;
}

export interface SyncStatus {
  enabled: boolean;
  repo: boolean;
  branch: string | null;
  ahead: number | null;
  behind: number | null;
  uncommitted: number;
  remoteHost: string | null;
  state: SyncState;
  last: SyncLast | null;
  /** CONTRACT §14: a backup target the vault's settings ask for, waiting for Allow or Ignore. */
  vaultRequest?: VaultRequest | null;
  /** Folders of the vault that are git repositories of their own: their notes are not in the backup. */
  nestedRepositories?: string[];
  /** git is midway through its user's merge, rebase, …: no pass or snapshot commits until it ends. */
  operation?: { code: string; reason: string; message: string } | null;
}

export interface VaultRequest {
  enabled: boolean;
  remoteHost: string | null;
  branch: string;
}

export type SyncOutcome = 'committed' | 'pushed' | 'nothing' | 'busy' | 'diverged' | 'failed';

export interface SyncAnswer {
  outcome: SyncOutcome;
  message: string;
  words?: SyncWords[];
}

export type { SyncInterval } from '../../../shared/settings.ts';

/** The `sync` group of GET /api/settings: the stored settings plus `tokenSet`. */
export type SyncSettings = SharedSettings['sync'] & { tokenSet?: boolean };

/** A collection the vault declares (a tag page note with `collection: true`), GET /api/collections. */
export type { DeclaredCollection } from '../server/collections.ts';

/** GET /api/settings: the stored settings (shared/settings.ts) as the panel reads them. */
export type Settings = Omit<SharedSettings, 'sync'> & {
  sync: SyncSettings;
  /** Keys whose value came from this server's environment, when reported. */
  fromEnv?: string[];
  /** The site values in effect (saved, else environment, else default). */
  effective?: import('../../../shared/settings/view.ts').EffectiveSiteValues;
  tokenSet?: boolean;
  /** CONTRACT §14: the backup target the vault's settings ask for. */
  vaultRequest?: VaultRequest | null;
};

export interface Prefs {
  keys: Record<string, unknown>;
  /** This device's switch 'Settings travel with the vault'. */
  travelWithVault?: boolean;
}

/** GET/POST /api/sync/travel (Appendix C). */
export interface TravelItem {
  id: string;
  label: string;
  state: 'vault' | 'local' | 'none';
  glyph: string;
  count?: number;
  travels?: boolean;
}

export interface TravelProblem {
  item: string;
  file: string;
  side: 'vault' | 'device';
  code: string;
  reason: string;
}

export interface TravelReport {
  travelWithVault: boolean;
  items: TravelItem[];
  lastPass: { at: string; reconciled: number; copied: number; problems: TravelProblem[] } | null;
  reconciled: number;
  problems: TravelProblem[];
}

/** A comment and a received webmention as the admin reads them (CONTRACT §8: GET /api/comments, the queue): the server's answer types. */
export type { AdminCommentAnswer as CommentItem, AdminMentionAnswer as MentionItem } from '../../comments/answers.ts';

/** An item of GET /api/comments/queue: a pending comment or mention. */
export type QueueItem = (CommentItem & { type: 'comment' }) | (MentionItem & { type: 'mention' });

/** A page of GET /api/comments/queue (CONTRACT §15): at most 50 items; `next` asks for the page after. */
export interface QueuePage {
  items: QueueItem[];
  next: string | null;
  /** Pending items in all (of the note asked about). */
  total: number;
}

export type ModerationAction = 'approve' | 'reject' | 'spam' | 'delete';

/** One problem the newest build found (CONTRACT §13, GET /api/site/warnings). */
export interface HealthWarning {
  path: string;
  kind: string;
  message: string;
  target?: string;
  link?: string;
  more?: number;
  /** What the sentence is said by in the interface's language (admin/site-health.ts). */
  address?: string;
  count?: number;
  max?: number;
  value?: string;
  variant?: string;
  /** A tool's own words, in English as it gave them. */
  detail?: string;
}

export interface HealthPage {
  warnings: HealthWarning[];
  total: number;
  page: number;
  pages: number;
}
