// Shapes of the 'What travels' report (spec 4.1, Appendix C).
import type { TravelItemId } from './items.ts';

/** A file a pass could not copy, with why (a cap, a permission, a malformed copy). */
export interface TravelProblem {
  item: TravelItemId;
  /** Where the file lives: `.service/...` in the vault, else relative to SERVICE_DATA. */
  file: string;
  side: 'vault' | 'device';
  /** `file_cap`, `folder_cap`, `count_cap`, `permission`, `malformed`, `symlink`, `not_a_file`, `too_large`, `io`. */
  code: string;
  reason: string;
}

/** ✓ the vault holds it, ⚠ this machine holds something the vault does not yet, – nothing to carry. */
export type ItemState = 'vault' | 'local' | 'none';

export const GLYPHS: Record<ItemState, string> = { vault: '✓', local: '⚠', none: '–' };

export interface TravelItemReport {
  id: TravelItemId;
  label: string;
  state: ItemState;
  glyph: string;
  /** fonts: number of font files; prefs: number of keys. */
  count?: number;
  /** prefs only: false when this device keeps its preferences to itself. */
  travels?: boolean;
}

export interface PassSummary {
  at: string;
  durationMs: number;
  /** Files that agree between the data directory and `.service/` after the pass. */
  reconciled: number;
  /** Files the pass copied (either way) or removed. */
  copied: number;
  problems: TravelProblem[];
}

export interface CatalogFamilyReport {
  family: string;
  state: 'cached' | 'downloaded' | 'failed' | 'skipped';
  files?: number;
  error?: string;
}

export interface CatalogReport {
  configured: boolean;
  at: string | null;
  families: CatalogFamilyReport[];
}

export interface TravelReport {
  travelWithVault: boolean;
  periodSeconds: number;
  items: TravelItemReport[];
  lastPass: PassSummary | null;
  /** The last pass's files reconciled and problems, at the top for the panel. */
  reconciled: number;
  problems: TravelProblem[];
  catalog: CatalogReport;
}
