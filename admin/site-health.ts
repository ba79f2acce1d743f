// Site health (CONTRACT §13): the newest build's warnings in the API's words, with the
// vault's nested git repositories (their notes are outside the backup), paged.
import { HEALTH_KIND, WARNING_FIELDS, type BuildWarning, type HealthKind } from '../shared/model/build-warnings.ts';
import { VaultEntries } from '../shared/vault-walk.ts';
import { isRepo } from './git/repo.ts';

export interface HealthWarning {
  /** Vault path of the note (or folder) the warning is about. */
  path: string;
  kind: HealthKind;
  message: string;
  /** The linked or embedded note, the note keeping a clashing address, the attachment. */
  target?: string;
  /** The link as written in the note, to find its line by. */
  link?: string;
  /** This entry stands for this many more of the note's warnings. */
  more?: number;
  /** What an interface says the warning by in its own language (BuildWarning's fields of these names). */
  address?: string;
  count?: number;
  max?: number;
  value?: string;
  variant?: string;
  detail?: string;
}

export interface HealthPage {
  warnings: HealthWarning[];
  total: number;
  page: number;
  pages: number;
}

export const HEALTH_PAGE_SIZE = 200;
/** How long an answer waits for the build to take in the changes seen so far (a fix just made). */
const SETTLE_WAIT_MS = 5_000;
/** The nested-repository walk reads the whole vault's names: done at most this often. */
const NESTED_FRESH_MS = 10_000;

export function healthWarningOf(w: BuildWarning): HealthWarning {
  const out: HealthWarning = { path: w.note, kind: HEALTH_KIND[w.kind], message: w.message };
  for (const field of WARNING_FIELDS) if (w[field] !== undefined) (out as unknown as Record<string, unknown>)[field] = w[field];
  // The counting line names the kinds the build's words name; the API's are said instead.
  if (w.more !== undefined) out.message = `and ${w.more} more warnings`;
  return out;
}

export interface SiteHealthOptions {
  vaultDir: string;
  skipDirs: string[];
  /** The public site's newest build list, once what was seen so far is built or the wait is over. */
  buildWarnings: (waitMs: number) => Promise<readonly BuildWarning[]>;
}

export class SiteHealth {
  private nested: { at: number; list: Promise<string[]> } | null = null;

  constructor(private readonly options: SiteHealthOptions) {}

  private nestedRepositories(): Promise<string[]> {
    if (!this.nested || Date.now() - this.nested.at > NESTED_FRESH_MS) {
      const { vaultDir, skipDirs } = this.options;
      // Like GET /api/sync/status: only a vault that is a repository has a backup to be outside of.
      const list = isRepo(vaultDir).then((repo) => (repo ? new VaultEntries(vaultDir, skipDirs).nestedRepositories() : []));
      this.nested = { at: Date.now(), list: list.catch(() => []) };
    }
    return this.nested.list;
  }

  /** Every warning, by note; `page` counts from 1. */
  async page(page: number): Promise<HealthPage> {
    const [build, nested] = await Promise.all([this.options.buildWarnings(SETTLE_WAIT_MS), this.nestedRepositories()]);
    const all: HealthWarning[] = build.map(healthWarningOf);
    for (const folder of nested) all.push({ path: folder, kind: 'nested_repository', message: `${folder}/ is its own git repository: its notes are not in the backup` });
    all.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const start = (page - 1) * HEALTH_PAGE_SIZE;
    return { warnings: all.slice(start, start + HEALTH_PAGE_SIZE), total: all.length, page, pages: Math.max(1, Math.ceil(all.length / HEALTH_PAGE_SIZE)) };
  }
}
