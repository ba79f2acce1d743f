// The visitor search index as outputs of the site's plan (CONTRACT §9; the format is
// shared/search/index-format.ts). It lives across passes in the build process: a base
// made from every searchable note at one moment (search-base.ts), and, on each pass,
// the difference from it (notes changed or added since, base notes gone), written into
// the manifest. So an edit rewrites the manifest and at most one meta file, never the
// whole index. When a note of the base was edited, the builder asks for a quiet moment
// (`tidy`) that brings the base up to date for it in place (search-base-patch.ts); once the
// delta's new notes have grown past the soft limit, or the patches the shards past theirs,
// that moment makes a new base; past a hard limit, or when a note has left the index (its
// words must go with it), a new base is made at once.
import { createHash } from 'node:crypto';
import type { Address } from '../../shared/model/addresses.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import type { NoteRecord } from '../../shared/model/note-record.ts';
import { META_CHUNK, safeJson, SEARCH_MANIFEST, type DeltaDoc, type SearchDoc, type SearchManifest } from '../../shared/search/index-format.ts';
import type { PageContext } from './page-context.ts';
import type { PlannedPage } from './plan-types.ts';
import { BaseJob, buildSearchBase, indexFile, type IndexFile, type RememberedBase, type SearchBase } from './search-base.ts';
import { PatchJob, type FileText, type MemberPatch, type PatchedFiles } from './search-base-patch.ts';
import { docChars, metaRowOf, searchableNotes, searchDocOf } from './search-docs.ts';
import { DocumentRecords } from './search-documents.ts';
import { textCompare } from '../../shared/natural-order.ts';

/** Past this in new notes, the delta asks for a new base when the builder is next idle. */
export const DELTA_SOFT = { docs: 16, bytes: 64 * 1024 };
/** Past this a new base is made in the pass itself (the manifest every query reads stays small). */
export const DELTA_HARD = { docs: 64, bytes: 512 * 1024 };

/**
 * Past this many bytes added to the shards by patches since the base was made, the next quiet
 * moment makes a new base: a patch puts new words in the shards that exist, a new base packs
 * them by size again (a query downloads whole shards).
 */
export const PATCH_GROWTH_BYTES = 256 * 1024;

/** How long a step of a new base holds the builder (`tidyStep`): an edit that comes meanwhile waits at most this. */
const TIDY_STEP_MS = 40;

const overHard = (changes: Changes) => changes.delta.length > DELTA_HARD.docs || changes.bytes > DELTA_HARD.bytes;

export const SEARCH_MANIFEST_ADDRESS = ('/' + SEARCH_MANIFEST) as Address;

interface Changes {
  delta: NoteRecord[];
  gone: number[];
  bytes: number;
  /** The searchable note at each path. */
  current: Map<string, NoteRecord>;
}

/** What the last plan found, kept so a quick pass updates it for the notes it swapped instead of visiting every note. */
interface Known {
  frameSig: unknown;
  /** The searchable note at each path. */
  current: Map<string, NoteRecord>;
  /** Paths of searchable notes the base does not hold as they are now. */
  delta: Set<string>;
  /** Base ids no longer current as the base holds them. */
  gone: Set<number>;
}

function manifestPage(manifest: SearchManifest): PlannedPage {
  const content = safeJson(manifest);
  return { address: SEARCH_MANIFEST_ADDRESS, file: SEARCH_MANIFEST, kind: 'searchIndex', type: 'json', sig: createHash('sha1').update(content).digest('base64url'), content, view: () => null };
}

export class SearchIndex {
  private base: SearchBase | null = null;
  private known: Known | null = null;
  /** Delta notes' documents, made once per record (a changed note is a new record). */
  private docs = new WeakMap<NoteRecord, { doc: SearchDoc; bytes: number }>();
  /** The published bases' and canvases' records, the same while their documents hold. */
  readonly documents = new DocumentRecords();
  /** Meta files by chunk, while their notes and the frame hold. */
  private metaFiles: { deps: unknown[]; file: IndexFile }[] = [];
  /** A new base being made, or the base being patched, at quiet moments (`tidyStep`). */
  private job: BaseJob | PatchJob | null = null;
  /** Work is due at a quiet moment: edited notes to bring into the base, or a new base. */
  tidyDue = false;
  /** From how many searchable notes a plan without a base leaves it to `tidyStep` (null: it makes it at once). */
  private laterFrom: number | null = null;
  /** Base ids of notes edited since the base, as the base holds them (what a quiet moment's patch replaces). */
  private versions = new Map<number, NoteRecord>();
  /** Bytes the shards have grown by through patches since the base was made. */
  private patchGrowth = 0;
  /** The records a base made in steps (or remembered) holds, until the next plan has read its edited notes' versions. */
  private madeOf: Pick<ReadonlyMap<string, NoteRecord>, 'get'> | null = null;
  /** `readBack`: a file of the live folder, as text (none: a static snapshot, whose files are never read back). */
  constructor(private readonly readBack: ((file: string) => string) | null = null) {}

  /** A file's text, held or read back. */
  private readonly text: FileText = (file) => {
    if (file.content !== null) return file.content;
    if (!this.readBack) throw new Error(`the search index file ${file.file} is neither held nor written`);
    return this.readBack(file.file);
  };

  /**
   * The last plan's files are in the live folder: their texts go, read back from there when a
   * quiet moment patches them. Called once a pass's files are in place.
   */
  release(): void {
    if (!this.readBack || !this.base) return;
    for (const file of [this.base.lengths, ...this.base.shards.map((s) => s.file), ...this.metaFiles.map((m) => m.file)]) file.content = null;
  }

  /**
   * The next plan makes a base from every note (a full build); `laterFrom` notes or more, it
   * goes out with a manifest that says the base is being prepared, and `tidyStep` makes it.
   */
  reset(laterFrom: number | null = null): void {
    this.base = null;
    this.job = null;
    this.laterFrom = laterFrom;
  }

  /** The next plan starts from this base (a full build's, made while its site was planned: search-job.ts). */
  adoptBase(base: SearchBase): void {
    this.base = base;
    this.job = null;
    this.laterFrom = null;
    this.versions.clear();
    this.patchGrowth = 0;
  }

  /** The base to remember with the generation whose pages are `files` (null: none, or not yet in them). */
  remembered(files: ReadonlySet<string>): RememberedBase | null {
    const base = this.base;
    if (!base || ![base.lengths, ...base.shards.map((s) => s.file)].every((f) => files.has(f.file))) return null;
    const hashes = base.paths.map((p) => base.members.get(p)!.hash);
    return { paths: base.paths, hashes, avg: base.avg, lengths: [base.lengths.file, base.lengths.bytes], shards: base.shards.map((s) => [s.key, s.file.file, s.file.bytes]), patchGrowth: this.patchGrowth };
  }

  /**
   * A remembered base, its files in the live folder: the next plan's delta is counted against it
   * (a restart's catch-up pass). `versionOf`: a note's record as last kept, the base's own version
   * of it when the hashes agree, so a quiet moment patches a note changed meanwhile in place.
   */
  adoptRemembered(r: RememberedBase, versionOf: (path: string) => NoteRecord | undefined): void {
    const paths = r.paths as VaultPath[];
    const file = ([name, bytes]: [string, number]): IndexFile => ({ file: name, bytes, content: null });
    this.adoptBase({ members: new Map(paths.map((p, id) => [p, { id, hash: r.hashes[id]! }])), paths, avg: r.avg, lengths: file(r.lengths), shards: r.shards.map(([key, name, bytes]) => ({ key, file: file([name, bytes]) })) });
    this.patchGrowth = r.patchGrowth;
    this.madeOf = { get: versionOf };
  }

  /**
   * A step of a new base of `ctx`'s searchable notes, `budgetMs` long:
   * true once it is the base, and the next plan's delta is counted against it. A tidy made
   * whole held the builder for seconds on a realistic vault, each save after it waiting.
   */
  tidyStep(ctx: PageContext, budgetMs = TIDY_STEP_MS): boolean {
    if (!this.job) {
      const patch = this.patchJob(ctx);
      if (patch === false) return false;
      this.job = patch ?? new BaseJob([...searchableNotes(ctx), ...this.documents.searchable(ctx)]);
    }
    const job = this.job;
    const deadline = performance.now() + budgetMs;
    if (job instanceof PatchJob) {
      let files: PatchedFiles | null;
      try {
        files = job.step(deadline);
      } catch (err) {
        // A shard that cannot be read back (gone from the live folder): the next step makes a new base.
        this.job = null;
        this.base = null;
        throw err;
      }
      if (!files) return false;
      this.adoptPatch(job, files);
      return true;
    }
    const base = job.step(deadline);
    if (!base) return false;
    this.adoptBase(base);
    // The next plan finds the notes edited while it was made: the records it holds are their versions.
    this.known = null;
    this.madeOf = new Map(job.notes.map((n) => [n.path, n]));
    return true;
  }

  /**
   * A quiet moment's work while the delta's new notes are few: each edited base note brought
   * up to date in the base itself (search-base-patch.ts), so it leaves the delta and its old
   * words leave the shards. False when nothing is due; null when a new base is due instead
   * (new notes past the soft limit, or an edited note's base version not known).
   */
  private patchJob(ctx: PageContext): PatchJob | false | null {
    const { base, known } = this;
    if (!base || !known || known.frameSig !== ctx.frameSig || base.shards.length === 0 || this.patchGrowth > PATCH_GROWTH_BYTES) return null;
    const patches = new Map<number, MemberPatch>();
    const records = new Map<number, NoteRecord>();
    for (const id of known.gone) {
      const version = this.versions.get(id);
      const now = known.current.get(base.paths[id]!);
      if (!version || !now) return null;
      patches.set(id, { old: () => searchDocOf(version), now: this.doc(now).doc });
      records.set(id, now);
    }
    let added = 0;
    let bytes = 0;
    for (const path of known.delta) {
      if (base.members.has(path as VaultPath)) continue;
      added++;
      bytes += this.doc(known.current.get(path)!).bytes;
    }
    if (added > DELTA_SOFT.docs || bytes > DELTA_SOFT.bytes) return null;
    if (patches.size === 0) {
      this.tidyDue = false;
      return false;
    }
    return new PatchJob(base, records, patches, this.text);
  }

  /** A finished patch: its notes are in the base as the records it read (a note edited since is still edited against it). */
  private adoptPatch(job: PatchJob, files: PatchedFiles): void {
    const base = this.base!;
    const bytes = (shards: SearchBase['shards']) => shards.reduce((sum, s) => sum + s.file.bytes, 0);
    this.patchGrowth += bytes(files.shards) - bytes(base.shards);
    this.base = { ...base, ...files };
    this.job = null;
    for (const [id, record] of job.records) {
      const path = base.paths[id]!;
      base.members.set(path, { id, hash: record.hash });
      if (this.known?.current.get(path)?.hash === record.hash) {
        this.versions.delete(id);
        this.known.gone.delete(id);
        this.known.delta.delete(path);
      } else this.versions.set(id, record);
    }
  }

  /** The base's own version of a note `before` (the record it held), kept when an edit replaces it. */
  private keepVersion(before: NoteRecord | undefined): void {
    if (!before) return;
    const member = this.base?.members.get(before.path);
    if (member && member.hash === before.hash && !this.versions.has(member.id)) this.versions.set(member.id, before);
  }

  private doc(note: NoteRecord): { doc: SearchDoc; bytes: number } {
    let known = this.docs.get(note);
    if (!known) {
      const doc = searchDocOf(note);
      known = { doc, bytes: docChars(doc) };
      this.docs.set(note, known);
    }
    return known;
  }

  /**
   * A note of the base left the index (unpublished, hidden, deleted): its words must not
   * stay downloadable in the base's shards, so a new base is made in this pass.
   */
  private leftIndex(changes: Changes): boolean {
    const base = this.base!;
    return changes.gone.some((id) => !changes.current.has(base.paths[id]!));
  }

  private changes(notes: NoteRecord[], base: SearchBase): Changes {
    const current = new Map<string, NoteRecord>();
    const delta: NoteRecord[] = [];
    const previous = this.known?.current ?? this.madeOf;
    this.madeOf = null;
    let bytes = 0;
    for (const note of notes) {
      current.set(note.path, note);
      const member = base.members.get(note.path);
      if (member && member.hash === note.hash) continue;
      this.keepVersion(previous?.get(note.path));
      delta.push(note);
      bytes += this.doc(note).bytes;
    }
    const gone: number[] = [];
    for (const [path, member] of base.members) {
      if (current.get(path)?.hash !== member.hash) gone.push(member.id);
    }
    return { delta, gone, bytes, current };
  }

  /**
   * The notes a quick pass swapped (same paths, same place in the site: quick-pass.ts)
   * folded into what the last plan found; null when that cannot be done.
   */
  private patched(ctx: PageContext, edited: NoteRecord[]): { changes: Changes; dirty: Set<number> } | null {
    const { base, known } = this;
    if (!base || !known || known.frameSig !== ctx.frameSig) return null;
    const dirty = new Set<number>();
    for (const note of edited) {
      this.keepVersion(known.current.get(note.path));
      const searchable = !note.hidden && ctx.model.isVisible(note);
      if (searchable) known.current.set(note.path, note);
      else known.current.delete(note.path);
      const member = base.members.get(note.path);
      const asInBase = searchable && member !== undefined && member.hash === note.hash;
      if (member) {
        if (asInBase) known.gone.delete(member.id);
        else known.gone.add(member.id);
        dirty.add(Math.floor(member.id / META_CHUNK));
      }
      if (searchable && !asInBase) known.delta.add(note.path);
      else known.delta.delete(note.path);
    }
    // In the model's order (path order), as a whole plan lists them.
    const delta = [...known.delta].sort((a, b) => textCompare(a, b)).map((p) => known.current.get(p)!);
    const bytes = delta.reduce((sum, note) => sum + this.doc(note).bytes, 0);
    return { changes: { delta, gone: [...known.gone].sort((a, b) => a - b), bytes, current: known.current }, dirty };
  }

  /**
   * The index's outputs for this plan. `edited`: the records a quick pass swapped in, so
   * only they are looked at (an edit at 30,000 notes spent 26 ms here visiting them all).
   */
  plan(ctx: PageContext, edited?: NoteRecord[]): PlannedPage[] {
    let quick = edited ? this.patched(ctx, edited) : null;
    if (quick && (overHard(quick.changes) || this.leftIndex(quick.changes))) quick = null;
    let changes: Changes;
    if (quick) changes = quick.changes;
    else {
      // The published bases and canvases after the notes (a quick pass keeps every note's links, title and publication, so none of them moves).
      const notes = [...searchableNotes(ctx), ...this.documents.searchable(ctx)];
      if (!this.base && this.laterFrom !== null && notes.length >= this.laterFrom) return this.preparingPages(notes);
      if (!this.base) this.adoptBase(buildSearchBase(notes));
      changes = this.changes(notes, this.base!);
      if (overHard(changes) || this.leftIndex(changes)) {
        this.adoptBase(buildSearchBase(notes));
        changes = this.changes(notes, this.base!);
      }
      this.known = { frameSig: ctx.frameSig, current: changes.current, delta: new Set(changes.delta.map((n) => n.path)), gone: new Set(changes.gone) };
    }
    // The base still holds the words of a note's older text: the builder's next quiet moment brings it up to date.
    const base = this.base!;
    this.tidyDue = changes.delta.length > DELTA_SOFT.docs || changes.bytes > DELTA_SOFT.bytes || changes.gone.length > 0 || this.patchGrowth > PATCH_GROWTH_BYTES;
    const meta = this.metaFilesOf(ctx, base, changes.current, quick?.dirty ?? null);
    const manifest: SearchManifest = {
      v: 1,
      docs: base.paths.length,
      avg: base.avg,
      lengths: base.lengths.file,
      shards: base.shards.map((s) => [s.key, s.file.file]),
      meta: meta.map((m) => m.file),
      metaBytes: meta.reduce((sum, m) => sum + m.bytes, 0),
      gone: changes.gone,
      delta: changes.delta.map((note, i): DeltaDoc => ({ id: base.paths.length + i, ...this.doc(note).doc, meta: metaRowOf(ctx, note) })),
    };
    const pages: PlannedPage[] = [manifestPage(manifest)];
    for (const file of [base.lengths, ...base.shards.map((s) => s.file), ...meta]) {
      // Its text read when it is written: the page outlives the pass, the text need not (`release`).
      pages.push({ address: ('/' + file.file) as Address, file: file.file, kind: 'searchIndex', type: 'file', sig: file.file, content: () => this.text(file), view: () => null });
    }
    return pages;
  }

  /**
   * The outputs while the base waits for `tidyStep`: a manifest that says so, nothing else. The
   * notes' search texts go now, and the base reads each note's text again: kept through the
   * rest of the pass, they slowed a realistic first build by more than the parses cost the base.
   */
  private preparingPages(notes: NoteRecord[]): PlannedPage[] {
    for (const note of notes) note.searchText = null;
    this.known = null;
    this.tidyDue = true;
    return [manifestPage({ v: 1, docs: 0, avg: [], lengths: '', shards: [], meta: [], metaBytes: 0, gone: [], delta: [], preparing: true })];
  }

  /**
   * Meta files of the base's notes; a note no longer current (edited, gone) has an empty
   * row. `dirty`: the only chunks that may have changed (a quick pass), else all are checked.
   */
  private metaFilesOf(ctx: PageContext, base: SearchBase, current: Map<string, NoteRecord>, dirty: Set<number> | null): IndexFile[] {
    const out: IndexFile[] = [];
    for (let c = 0; c * META_CHUNK < base.paths.length; c++) {
      const kept = this.metaFiles[c];
      if (dirty && kept && !dirty.has(c)) {
        out.push(kept.file);
        continue;
      }
      const notes = base.paths.slice(c * META_CHUNK, (c + 1) * META_CHUNK).map((p) => {
        const note = current.get(p);
        return note && note.hash === base.members.get(p)!.hash ? note : null;
      });
      // The notes themselves are the dependencies (a changed note is a new record), with the date formatter.
      const deps: unknown[] = [ctx.frameSig, ...notes];
      const known = this.metaFiles[c];
      if (known && known.deps.length === deps.length && known.deps.every((d, i) => d === deps[i])) {
        out.push(known.file);
        continue;
      }
      const file = indexFile('meta', safeJson(notes.map((n) => (n ? metaRowOf(ctx, n) : null))));
      this.metaFiles[c] = { deps, file };
      out.push(file);
    }
    this.metaFiles.length = out.length;
    return out;
  }
}
