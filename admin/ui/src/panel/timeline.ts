// One timeline for a note (spec 9, Appendix B): git commits and local versions,
// ordered by time, newest first; and the revision the main area is showing.
import { api, ApiError } from '../api.ts';
import { t } from '../i18n.ts';
import { Store } from '../store.ts';
import type { HistoryList, Revision, Version, VersionList } from '../types.ts';

export type TimelineRow =
  | { kind: 'commit'; time: number; revision: Revision }
  | { kind: 'version'; time: number; version: Version };

export interface Timeline {
  path: string;
  rows: TimelineRow[];
  /** false: not a git repository; null: the history API could not answer. */
  repo: boolean | null;
  historyError: string | null;
  versionsEnabled: boolean;
  truncated: boolean;
}

/** A version's place in time: when its text was last saved (the state it holds). */
export function versionTime(v: Version): number {
  const saved = Date.parse(v.savedAt);
  if (!Number.isNaN(saved)) return saved;
  const replaced = Date.parse(v.replacedAt);
  return Number.isNaN(replaced) ? Number(v.at) : replaced;
}

/** The service's own commits read as what they are (`Sync`, `Snapshot`); the row shows their time. */
export function commitTitle(message: string): string {
  if (/^service sync: /.test(message)) return t('syncLabel');
  if (/^service snapshot: /.test(message)) return t('snapshotLabel');
  return message;
}

export function mergeTimeline(history: HistoryList | null, versions: VersionList): TimelineRow[] {
  const rows: TimelineRow[] = [
    ...(history?.revisions ?? []).map((revision) => ({ kind: 'commit' as const, time: Date.parse(revision.date), revision })),
    // An empty text is nothing to go back to (older stores may hold one).
    ...versions.versions.filter((v) => v.size > 0).map((version) => ({ kind: 'version' as const, time: versionTime(version), version })),
  ];
  return rows.sort((a, b) => b.time - a.time);
}

export async function loadTimeline(path: string): Promise<Timeline> {
  const [history, versions] = await Promise.all([
    api.history(path).then(
      (h) => ({ ok: true as const, h }),
      (err: unknown) => ({ ok: false as const, err }),
    ),
    api.versions(path),
  ]);
  let historyError: string | null = null;
  if (!history.ok) {
    const err = history.err;
    if (err instanceof ApiError && err.status === 401) throw err;
    historyError = err instanceof Error ? err.message : String(err);
  }
  const h = history.ok ? history.h : null;
  return {
    path,
    rows: mergeTimeline(h, versions),
    repo: h ? h.repo : null,
    historyError,
    versionsEnabled: versions.enabled,
    truncated: h?.truncated ?? false,
  };
}

export interface ShownRevision {
  /** The note the revision belongs to (its current path). */
  notePath: string;
  row: TimelineRow;
  content: string;
}

export const shownRevision = new Store<ShownRevision | null>(null);

export async function showRevision(notePath: string, row: TimelineRow): Promise<void> {
  const content =
    row.kind === 'commit'
      ? (await api.blob(row.revision.path, row.revision.sha)).content
      : (await api.version(notePath, row.version.at)).content;
  shownRevision.set({ notePath, row, content });
}

/** Bumped after a save or restore so an open History section reloads. */
export const timelineStamp = new Store<number>(0);
