// What a build found wrong in the vault, each warning naming its note: links to
// notes that do not exist or are not published, malformed frontmatter, addresses taken twice
// or reserved by the site. The model fills one list per derivation; the static build prints
// it in its summary (`--strict` fails on it) and the server logs each warning once.
import { claimsFrontPage, permalinkAddress } from './addresses.ts';
import { mayHoldMoreTagsThan, tagsOf } from '../note/fields.ts';
import { printable } from '../log.ts';
import { MAX_FORMULA_TEXT, MAX_FORMULAS_PER_NOTE } from '../note/render-budget.ts';
import { MAX_NOTE_MARKS } from '../note/parse-budget.ts';
import { cutFrontmatterTexts, MAX_TITLE_LENGTH } from '../note/shown-text.ts';
import { titleIsCut } from '../note/title.ts';
import { MAX_TAGS_PER_NOTE, type NoteRecord } from './note-record.ts';
import type { LinkResolver } from './links.ts';

export type WarningKind =
  | 'frontmatter'
  | 'duplicate-address'
  | 'reserved-address'
  | 'missing-link'
  | 'unpublished-link'
  | 'missing-embed'
  | 'unpublished-embed'
  /** A link or embed into a heading (`[[Note#Heading]]`) or block (`#^id`) its note does not have (anchor-links.ts). */
  | 'missing-heading'
  | 'missing-block'
  | 'missing-attachment'
  | 'too-many-tags'
  /** A title, label, icon or description longer than pages show (shared/note/shown-text.ts): it shows cut. */
  | 'long-text'
  /** More math than one page renders (shared/note/render-budget.ts): the rest shows as TeX. */
  | 'too-much-math'
  /** More markup than one note's parse reads (shared/note/parse-budget.ts): the rest shows as written. */
  | 'too-much-markup'
  /** Conflict markers a git merge left in the text (shared/note/merge-conflicts.ts): readers see both sides. */
  | 'merge-conflict'
  | 'bad-permalink'
  /** A sync tool's conflict copy of a note (vault-names.ts conflictCopyOf): not published. */
  | 'sync-conflict'
  /** An attachment a published note links that a static snapshot does not copy (site/write/snapshot-attachments.ts). */
  | 'left-out-of-snapshot'
  /** An embedded raster image sharp could not read (no image, truncated, too many pixels): shown as it is. */
  | 'unreadable-image';

/** The stable words the admin API names warnings by (CONTRACT §13). */
export type HealthKind =
  | 'malformed_frontmatter'
  | 'too_many_tags'
  | 'text_too_long'
  | 'too_much_math'
  | 'too_much_markup'
  | 'merge_conflict'
  | 'bad_permalink'
  | 'address_clash'
  | 'reserved_address'
  | 'sync_conflict'
  | 'missing_link'
  | 'unpublished_link'
  | 'missing_embed'
  | 'unpublished_embed'
  | 'missing_heading'
  | 'missing_block'
  | 'missing_attachment'
  | 'left_out_of_snapshot'
  | 'unreadable_image'
  | 'nested_repository';

/** The one mapping from the build's kinds to the API's: a new kind does not compile until it is named here. */
export const HEALTH_KIND: Record<WarningKind, HealthKind> = {
  frontmatter: 'malformed_frontmatter',
  'too-many-tags': 'too_many_tags',
  'long-text': 'text_too_long',
  'too-much-math': 'too_much_math',
  'too-much-markup': 'too_much_markup',
  'merge-conflict': 'merge_conflict',
  'bad-permalink': 'bad_permalink',
  'duplicate-address': 'address_clash',
  'reserved-address': 'reserved_address',
  'sync-conflict': 'sync_conflict',
  'missing-link': 'missing_link',
  'unpublished-link': 'unpublished_link',
  'missing-embed': 'missing_embed',
  'unpublished-embed': 'unpublished_embed',
  'missing-heading': 'missing_heading',
  'missing-block': 'missing_block',
  'missing-attachment': 'missing_attachment',
  'left-out-of-snapshot': 'left_out_of_snapshot',
  'unreadable-image': 'unreadable_image',
};

export interface BuildWarning {
  /** Vault path of the note the warning is about. */
  note: string;
  kind: WarningKind;
  /** One sentence about that note, without its path. */
  message: string;
  /** The vault path of the other file the warning is about: the linked or embedded note, the note keeping a clashing address, the attachment. */
  target?: string;
  /** The link or embed as written in the note (`Other note`, `Other#Part`): where it stands in the text is found by it. */
  link?: string;
  /** This warning stands for this many of the note's warnings past the cap (MAX_WARNINGS_PER_NOTE). */
  more?: number;
  /** The public address the warning is about: the one clashing or reserved, the one a note keeps. */
  address?: string;
  /** Figures: how many there are (tags written) and the most that count. */
  count?: number;
  max?: number;
  /** A value as the note writes it (a permalink), or the frontmatter key a long text is (`title`, `label_ar`). */
  value?: string;
  /** Which case of its kind: `not_a_file` (an address no file can have), `attachment` (an attachment's address), `site_asset` (the logo or banner), `embed` (an embed, not a link), `drawing` (an Excalidraw drawing without its exported picture); a long text's kind (`title`, `label`, `description`, `icon`). */
  variant?: 'not_a_file' | 'attachment' | 'site_asset' | 'embed' | 'drawing' | 'title' | 'label' | 'description' | 'icon' | 'banner' | 'case';
  /** A tool's own words (the YAML parser's, the image reader's, why a snapshot leaves a file out), as it gave them. */
  detail?: string;
}

/** The fields an interface says a warning in its own language by, beside `kind` (CONTRACT §13). */
export const WARNING_FIELDS = ['target', 'link', 'more', 'address', 'count', 'max', 'value', 'variant', 'detail'] as const;

/** Whether two lists say the same, warning for warning, field for field (no text made to compare them). */
export function sameWarnings(a: readonly BuildWarning[], b: readonly BuildWarning[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const [x, y] = [a[i]!, b[i]!];
    if (x === y) continue;
    if (x.note !== y.note || x.kind !== y.kind || x.message !== y.message) return false;
    for (const field of WARNING_FIELDS) if (x[field] !== y[field]) return false;
  }
  return true;
}

/** `note: message`, the one way a warning is printed: one line, whatever the note wrote (a link to `a%0Ab.md`). */
export function formatWarning(w: BuildWarning): string {
  return printable(`${w.note}: ${w.message}`, true);
}

const KIND_ORDER: WarningKind[] = ['frontmatter', 'too-many-tags', 'long-text', 'too-much-math', 'too-much-markup', 'merge-conflict', 'bad-permalink', 'duplicate-address', 'reserved-address', 'sync-conflict', 'missing-link', 'unpublished-link', 'missing-embed', 'unpublished-embed', 'missing-heading', 'missing-block', 'missing-attachment', 'left-out-of-snapshot', 'unreadable-image'];

/** The most warnings one note gives in a build's list; the rest are counted, by kind, in one more. */
export const MAX_WARNINGS_PER_NOTE = 20;

const byNoteThenKind = (a: BuildWarning, b: BuildWarning): number =>
  (a.note < b.note ? -1 : a.note > b.note ? 1 : 0) || KIND_ORDER.indexOf(a.kind) - KIND_ORDER.indexOf(b.kind) || (a.message < b.message ? -1 : a.message > b.message ? 1 : 0);

/**
 * Collects warnings while the model is derived; `list()` gives them by note, then kind, at
 * most MAX_WARNINGS_PER_NOTE a note and a count of the rest: one note of 100,000 missing
 * embeds is one warning's worth of log, not 100,000 lines at every save.
 */
export class BuildWarnings {
  private readonly items: BuildWarning[] = [];

  add(...warnings: BuildWarning[]): void {
    this.addAll(warnings);
  }

  /** A list of any length (a spread of 100,000 overflows the call stack). */
  addAll(warnings: readonly BuildWarning[]): void {
    for (const w of warnings) this.items.push(w);
  }

  list(): BuildWarning[] {
    const sorted = [...this.items].sort(byNoteThenKind);
    const out: BuildWarning[] = [];
    for (let i = 0; i < sorted.length; ) {
      let end = i;
      while (end < sorted.length && sorted[end]!.note === sorted[i]!.note) end++;
      // A count made by an earlier list (a list listed again) joins the rest, never the 20.
      const group = sorted.slice(i, end);
      const single = group.filter((w) => w.more === undefined);
      const rest = [...single.slice(MAX_WARNINGS_PER_NOTE), ...group.filter((w) => w.more !== undefined)];
      out.push(...single.slice(0, MAX_WARNINGS_PER_NOTE));
      if (rest.length) out.push(restOf(rest));
      i = end;
    }
    return out;
  }
}

/** A list (`BuildWarnings.list()`'s) with more warnings, as one list: each note capped with its counts merged; nothing more, the list itself. */
export function mergeWarnings(listed: BuildWarning[], more: readonly BuildWarning[]): BuildWarning[] {
  if (more.length === 0) return listed;
  const all = new BuildWarnings();
  all.addAll(listed);
  all.addAll(more);
  return all.list();
}

/**
 * One note's warnings of one check as they are found: the first MAX_WARNINGS_PER_NOTE made
 * whole, the rest only counted, a count a kind (`list()` caps the note's warnings of every
 * check together). A note of 100,000 broken links holds 21 warnings, not 100,000.
 */
export class NoteWarnings {
  private readonly items: BuildWarning[] = [];
  private readonly rest = new Map<WarningKind, number>();

  constructor(private readonly note: string) {}

  /** `make` is called only for a warning kept whole. */
  add(kind: WarningKind, make: () => BuildWarning): void {
    if (this.items.length < MAX_WARNINGS_PER_NOTE) this.items.push(make());
    else this.rest.set(kind, (this.rest.get(kind) ?? 0) + 1);
  }

  list(): BuildWarning[] {
    if (this.rest.size === 0) return this.items;
    return [...this.items, ...[...this.rest].map(([kind, n]) => restOf([{ note: this.note, kind, message: '', more: n }]))];
  }
}

/** What each counting warning stands for, kind by kind: a list listed again (merged with more) counts each kind as it was, not as the first one's. */
const countedKinds = new WeakMap<BuildWarning, Map<WarningKind, number>>();

/** One warning counting the warnings of a note past the cap, by kind. */
function restOf(rest: BuildWarning[]): BuildWarning {
  const counts = new Map<WarningKind, number>();
  let total = 0;
  for (const w of rest) {
    for (const [kind, n] of countedKinds.get(w) ?? [[w.kind, w.more ?? 1] as const]) counts.set(kind, (counts.get(kind) ?? 0) + n);
    total += w.more ?? 1;
  }
  const kinds = [...counts]
    .sort(([a], [b]) => KIND_ORDER.indexOf(a) - KIND_ORDER.indexOf(b))
    .map(([kind, n]) => `${n} ${kind}`)
    .join(', ');
  const counting: BuildWarning = { note: rest[0]!.note, kind: rest[0]!.kind, message: `and ${total} more warnings (${kinds})`, more: total };
  countedKinds.set(counting, counts);
  return counting;
}

/** What link checks need of the model. */
export interface LinkView {
  resolver: LinkResolver;
  isVisible(note: NoteRecord): boolean;
  /** Changes whenever the set of visible notes changes. */
  visibleKey: string;
}

// A note's link warnings change only when its text, the set of paths or the set of visible
// notes changes: remembered per record, so a save re-checks one note, not the vault.
const linkMemo = new WeakMap<NoteRecord, { resolver: object; visibleKey: string; list: BuildWarning[] }>();

/** Links of a visible note to notes a visitor cannot reach (they show as plain text). */
export function linkWarnings(note: NoteRecord, model: LinkView): BuildWarning[] {
  const known = linkMemo.get(note);
  if (known && known.resolver === model.resolver.generation && known.visibleKey === model.visibleKey) return known.list;
  const found = new NoteWarnings(note.path);
  const seen = new Set<string>();
  for (const target of note.links) {
    if (seen.has(target)) continue; // (attachments are never among a note's links: analyze.ts)
    seen.add(target);
    const other = model.resolver.resolve(target, note);
    if (!other) found.add('missing-link', () => ({ note: note.path, kind: 'missing-link', message: `links to "${target}", which does not exist`, link: target }));
    else if (!model.isVisible(other)) found.add('unpublished-link', () => ({ note: note.path, kind: 'unpublished-link', message: `links to "${target}" (${other.path}), which is not published`, target: other.path, link: target }));
  }
  const list = found.list();
  linkMemo.set(note, { resolver: model.resolver.generation, visibleKey: model.visibleKey, list });
  return list;
}

/** A published note with more math than its page renders: how many formulas show as their TeX. */
export function mathWarning(note: NoteRecord): BuildWarning | null {
  if (note.mathCut === 0) return null;
  return {
    note: note.path,
    kind: 'too-much-math',
    message: `has ${note.mathCut} formulas past the ${MAX_FORMULAS_PER_NOTE} (or ${MAX_FORMULA_TEXT} characters of TeX) one page renders: they show as TeX`,
    count: note.mathCut,
    max: MAX_FORMULAS_PER_NOTE,
  };
}

/** A published note with more markup than its parse reads: how many of its last lines show as written. */
export function markupWarning(note: NoteRecord): BuildWarning | null {
  if (note.markupCut === 0) return null;
  return {
    note: note.path,
    kind: 'too-much-markup',
    message: `has more markup than one page reads (${MAX_NOTE_MARKS} line ends and punctuation marks): its last ${note.markupCut} lines show as written`,
    count: note.markupCut,
    max: MAX_NOTE_MARKS,
  };
}

/** A published note holding a git merge's conflict markers: its page shows both sides and the markers. */
export function conflictWarning(note: NoteRecord): BuildWarning | null {
  if (note.conflicts === 0) return null;
  const them = note.conflicts === 1 ? 'an unresolved merge conflict' : `${note.conflicts} unresolved merge conflicts`;
  return {
    note: note.path,
    kind: 'merge-conflict',
    message: `has ${them} (lines <<<<<<<, ======= and >>>>>>> left by git): its page shows both sides; keep the text you want and delete the markers`,
    count: note.conflicts,
  };
}

/** A published note's texts that other pages show cut (shared/note/shown-text.ts): its title, labels, icon, description. */
export function longTextWarnings(note: NoteRecord): BuildWarning[] {
  const warnings = cutFrontmatterTexts(note.data).map(({ field, kind, length, max }): BuildWarning => ({
    note: note.path,
    kind: 'long-text',
    message: kind === 'banner' ? `its ${field} is an address longer than a card shows (${length} characters; at most ${max}): cards show no banner` : `its ${field} is longer than pages show (${length} characters; at most ${max}): it shows cut`,
    value: field,
    variant: kind,
    count: length,
    max,
  }));
  // Only a cut title ends in an ellipsis past three fifths of the bound: most notes are not measured again.
  // Without its length: a heading's text past the cut is no change of the note's shape (site-model.ts modelShape), and a warning changes only with it.
  if (note.title.length > MAX_TITLE_LENGTH * 0.6 && note.title.endsWith('…') && titleIsCut(note.data, note.body, note.path.slice(note.path.lastIndexOf('/') + 1))) {
    warnings.unshift({ note: note.path, kind: 'long-text', message: `its title is longer than pages show (at most ${MAX_TITLE_LENGTH} characters): it shows cut`, value: 'title', variant: 'title', max: MAX_TITLE_LENGTH });
  }
  return warnings;
}

/** A note whose frontmatter could not be read: its keys (`publish` among them) were ignored. */
export function frontmatterWarning(note: NoteRecord): BuildWarning | null {
  if (note.frontmatterProblem) {
    const detail = note.frontmatterProblem.replace(/:$/, '');
    return { note: note.path, kind: 'frontmatter', message: `the frontmatter block is malformed and was ignored (${detail})`, detail };
  }
  const written = note.publish && mayHoldMoreTagsThan(note.data, MAX_TAGS_PER_NOTE) ? tagsOf(note.data).length : 0;
  if (written > MAX_TAGS_PER_NOTE) {
    return { note: note.path, kind: 'too-many-tags', message: `has ${written} tags; only the first ${MAX_TAGS_PER_NOTE} are topics on the site`, count: written, max: MAX_TAGS_PER_NOTE };
  }
  // CONTRACT §7: a permalink with `.`/`..` segments or control characters is no address; say so, not silently.
  const permalink = note.data.permalink;
  if (note.publish && permalink !== undefined && permalink !== null && note.address === note.defaultAddress && permalinkAddress(permalink) === null && !claimsFrontPage(permalink)) {
    const value = String(permalink).slice(0, 118);
    return { note: note.path, kind: 'bad-permalink', message: `permalink ${JSON.stringify(String(permalink)).slice(0, 120)} is not an address (a "." or ".." segment, or a control character); the note keeps ${note.defaultAddress}`, value, address: note.defaultAddress };
  }
  return null;
}

/**
 * The server's log of warnings: each is written once, not after every rebuild. A warning
 * that goes away and comes back is written again.
 */
export class WarningLog {
  private logged = new Set<string>();

  constructor(private readonly write: (line: string) => void) {}

  /** Takes the whole current list; writes the warnings not written since they last appeared. */
  report(warnings: readonly BuildWarning[]): void {
    const now = new Set<string>();
    for (const w of warnings) {
      const line = formatWarning(w);
      now.add(line);
      if (!this.logged.has(line)) this.write(line);
    }
    this.logged = now;
  }
}
