// The quick pass (an edit costs what it touches). When every changed note keeps
// its shape (shared/model/site-model.ts `modelShape`: same place in the site, title, date,
// tags, links, embeds), the newer records are swapped into the live model through its
// indexes (shared/model/model-swap.ts) and only the page families reading those notes are
// planned again (plan.ts `readers`); nothing else of the vault is visited. Any other
// change (a new, deleted or reshaped note, an attachment, the settings) plans the site whole.
// A moderation (comments, mentions) of a note takes the same pass with no record swapped.
// The sitemaps wait for a quiet moment: an edit moves a note's lastmod, which no one who
// saved is waiting on, and a sitemap of 10,000 addresses was two thirds of such a pass. So do
// other notes' articles showing an edited one (what they embed of it, the sentence around
// their link to it): four embedders of a 3,000-link index note were a sixth of its save.
import { swapRecord } from '../../shared/model/model-swap.ts';
import { modelShape } from '../../shared/model/site-model.ts';
import type { RecordChange } from '../../shared/model/vault-store.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { adoptFamilies, replanReaders, sameFace, type FacesToCompare, type SitePlan } from '../plan/plan.ts';
import { articleKey, isArticleKey } from '../plan/plan-articles.ts';
import { MOST_DISCUSSED_FAMILY } from '../plan/plan-lists.ts';
import { changedDay, isSitemapFamily } from '../plan/plan-outputs.ts';
import type { PageFamily, PlannedPage, ServedEntry } from '../plan/plan-types.ts';
import type { BuildResult } from './builder-types.ts';

export interface QuickPlan {
  /** The families planned again, to take into the plan once their files are in place (`adoptQuick`). */
  families: PageFamily[];
  /** Their pages (and the search index's files) whose signature changed: to render. */
  changed: PlannedPage[];
  /** The search index's files now, and those gone from it. */
  search: PlannedPage[];
  removed: PlannedPage[];
  /** A note's changed day moved: the sitemaps' lastmod is due (`duePlan`, at a quiet moment). */
  dayMoved: boolean;
  /** Families left as they are for a quiet moment (`duePlan`): other notes' articles showing an edited one. */
  waiting: string[];
  /** Other notes' articles linking an edited one, compared at a quiet moment: those whose sentence about it changed are due. */
  faces: FacesToCompare;
}

/** Whether these changes can take the quick pass: each note was there before and after, in the same shape. */
export function keepsShape(changes: RecordChange[]): boolean {
  return changes.every((c) => c.before !== null && c.after !== null && modelShape(c.before) === modelShape(c.after));
}

/**
 * Swaps the changes' newer records into `plan`'s model and plans their readers again.
 * Null when the model did not hold a record where its shape says (the caller plans the
 * site whole: the model may be half swapped, so it is not used again).
 */
export function quickPlan(plan: SitePlan, changes: RecordChange[], discussed: VaultPath[], search: { before: PlannedPage[]; plan: (plan: SitePlan) => PlannedPage[] }): QuickPlan | null {
  for (const c of changes) if (!swapRecord(plan.ctx.model, c.before!, c.after!)) return null;
  // A note whose approved comments or mentions changed is re-read like an edited one (its
  // page, its cards' counts); the home's Most discussed row ranks them all.
  const also = discussed.length ? [MOST_DISCUSSED_FAMILY] : [];
  const swapped = new Map(changes.map((c) => [c.path, { before: c.before!, after: c.after! }]));
  // The sitemaps read every note's changed day (plan-outputs.ts), not its text: left for a quiet moment.
  const read = [...changes.map((c) => c.path), ...discussed];
  const own = new Set(read.map(articleKey));
  const families = replanReaders(plan, read, also, swapped, (key) => isArticleKey(key) && !own.has(key));
  // The search index follows every edit: its manifest (and a meta file) change, its base stays.
  const files = search.plan(plan);
  const loose = diffLoose(search.before, files);
  const dayMoved = changes.some((c) => changedDay(c.before!) !== changedDay(c.after!));
  const rewritten = new Set(changes.filter((c) => c.before!.hash !== c.after!.hash).map((c) => articleKey(c.path)));
  return { families: families.now, changed: [...changedOf(plan, families.now, rewritten), ...loose.changed], search: files, removed: loose.removed, dayMoved, waiting: families.waiting, faces: families.faces };
}

/**
 * The work a quiet moment owes the live site: families due (sitemaps, embedders), and families
 * whose comparison waits. Over several edits a note's first record stays the one compared: its
 * page was made from it.
 */
export class DueWork {
  private readonly families = new Set<string>();
  private readonly faces: FacesToCompare = new Map();

  add(plan: SitePlan, quick: QuickPlan): void {
    for (const key of [...(quick.dayMoved ? sitemapKeys(plan) : []), ...quick.waiting]) this.families.add(key);
    for (const [key, notes] of quick.faces) {
      const known = this.faces.get(key) ?? this.faces.set(key, new Map()).get(key)!;
      for (const [p, swap] of notes) known.set(p, { before: known.get(p)?.before ?? swap.before, after: swap.after });
    }
  }

  get size(): number {
    return this.families.size + this.faces.size;
  }

  clear(): void {
    this.families.clear();
    this.faces.clear();
  }

  /** The families due now: those owed, and those whose comparison finds what they show changed. */
  keys(plan: SitePlan): string[] {
    const due = [...this.families];
    for (const [key, notes] of this.faces) if (!this.families.has(key) && [...notes.values()].some((swap) => !sameFace(plan, key, swap))) due.push(key);
    return due;
  }
}

/** The sitemaps' keys (a moved day makes them due). */
export const sitemapKeys = (plan: SitePlan): string[] => [...plan.families.keys()].filter(isSitemapFamily);

/** Families left for a quiet moment planned again from the model as it is; `search`: the index's files as they are. */
export function duePlan(plan: SitePlan, keys: Iterable<string>, search: PlannedPage[]): QuickPlan {
  const families = replanReaders(plan, [], [...keys]).now;
  return { families, changed: changedOf(plan, families), search, removed: [], dayMoved: false, waiting: [], faces: new Map() };
}

/** The search index's files after a step of its new base made them anew (`before`: as they were). */
export function searchPlan(before: PlannedPage[], files: PlannedPage[]): QuickPlan {
  return { families: [], search: files, ...diffLoose(before, files), dayMoved: false, waiting: [], faces: new Map() };
}

export const isInternal = (address: string) => address.startsWith('/_service/');
export const served = (p: PlannedPage): ServedEntry => ({ file: p.file, type: p.type });

/** What a pass that took a plan of a few families tells the server (`tidy`: deferred work is due). */
export function passResult(live: string, quick: QuickPlan, started: number, tidy: boolean): BuildResult {
  const upserts = quick.changed.filter((p) => !isInternal(p.address)).map((p): [string, ServedEntry] => [p.address, served(p)]);
  return { full: false, dir: live, upserts, removals: quick.removed.map((p) => p.address), nav: null, redirects: null, rendered: quick.changed.length, ms: Date.now() - started, tidy };
}

/**
 * The pages of `families` whose signature or file differs from the plan's. The article of a
 * note whose text changed (`rewritten`: their family keys) differs whatever else it reads (its
 * signature holds the text's hash): its signature, about 30 ms for a note of 3,000 links, is
 * made after the answer (DueSigs), not before the page.
 */
function changedOf(plan: SitePlan, families: PageFamily[], rewritten: ReadonlySet<string> = new Set()): PlannedPage[] {
  const changed: PlannedPage[] = [];
  for (const family of families) {
    if (rewritten.has(family.key)) {
      changed.push(...family.pages);
      continue;
    }
    for (const page of family.pages) {
      const before = plan.pages.get(page.address);
      if (!before || before.sig !== page.sig || before.file !== page.file) changed.push(page);
    }
  }
  return changed;
}

/** Takes a quick pass into the live plan, once its files are in place. */
export function adoptQuick(plan: SitePlan, quick: QuickPlan): void {
  adoptFamilies(plan, quick.families);
  for (const gone of quick.removed) plan.pages.delete(gone.address);
  for (const page of quick.search) plan.pages.set(page.address, page);
}

/** Pages planned apart from the families (the search index's files): what changed and what went. */
export function diffLoose(before: PlannedPage[], after: PlannedPage[]): { changed: PlannedPage[]; removed: PlannedPage[] } {
  const known = new Map(before.map((p) => [p.address, p]));
  const changed = after.filter((p) => {
    const old = known.get(p.address);
    return !old || old.sig !== p.sig || old.file !== p.file;
  });
  const kept = new Set(after.map((p) => p.address));
  return { changed, removed: before.filter((p) => !kept.has(p.address)) };
}
