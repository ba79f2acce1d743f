// The build driver: our long-lived data layer (store → site model → plan) feeding the
// site's templates. A full build renders everything into a fresh folder that replaces the
// old one whole; a change renders only the outputs whose signature changed into a staging
// folder, then renames each over the live one (never a half-written page), and deletes
// what no longer has an output.
import { PlanMemory } from '../plan/plan-memory.ts';
import { extensionsOf } from '../render/eleventy-site.ts';
import { promises as fs, readFileSync } from 'node:fs';
import path from 'node:path';
import { log } from '../../shared/log.ts';
import type { Address } from '../../shared/model/addresses.ts';
import type { BuildWarning } from '../../shared/model/build-warnings.ts';
import { SnapshotForecast, warningsWithForecast } from '../write/snapshot-attachments.ts';
import { createSettingsReader, defaultSettings, siteSettingsOf, type Settings } from '../../shared/settings.ts';
import { postItem, postNamed, type PostItem, type PostQuery, type PostRef } from '../../shared/model/posts.ts';
import { AddressMemory } from '../../shared/model/redirects.ts';
import { VaultStore, type RecordChange } from '../../shared/model/vault-store.ts';
import { forgetEmbedParses, keepReadParses } from '../../shared/note/markdown.ts';
import { isNotePath, type VaultPath } from '../../shared/vault-path.ts';
import { VaultEntries } from '../../shared/vault-walk.ts';
import { AttachmentIndex } from '../read/attachments.ts';
import { ImageVariants } from '../render/image-variants.ts';
import { availableParallelism } from 'node:os';
import { DATA_FILES, dataPath } from '../../shared/data-path.ts';
import { BASE_TOKEN } from '../plan/frame.ts';
import { DiscussionIndex, type DiscussionMap } from '../plan/discussion.ts';
import { fullBuild } from './full-build.ts';
import { PageRenderer } from '../render/page-render.ts';
import { Stage } from '../write/stage.ts';
import { planVault } from '../plan/plan-vault.ts';
import { SearchIndex } from '../plan/search-index.ts';
import { keptVersions, RecordCache } from '../read/record-cache.ts';
import { digest, SigDigests } from '../plan/sig-digests.ts';
import { EarlySearch } from '../plan/search-job.ts';
import { modelSettings } from '../../shared/model/model-settings.ts';
import { currentKey, readGeneration, rememberGeneration, removeGenerations, type BuiltGeneration, type GenerationKey } from '../write/generation.ts';
import { adoptImages, diffPlans, type SitePlan } from '../plan/plan.ts';
import { adoptQuick, DueWork, duePlan, isInternal, keepsShape, passResult, quickPlan, searchPlan, served } from './quick-pass.ts';
import { NAV_FILE } from '../plan/plan-outputs.ts';
import { DueSigs, settleSigs, type PlannedPage, type ServedEntry } from '../plan/plan-types.ts';
import type { BuildResult, SiteBuilderOptions } from './builder-types.ts';
export type { BuildProgress, BuildResult, SiteBuilderOptions } from './builder-types.ts';

/** What the previous plan rendered, as the diff needs it (a remembered generation has no views). */
type PlannedSigs = Map<Address, Pick<PlannedPage, 'file' | 'type' | 'sig'>>;

export class SiteBuilder {
  private store: VaultStore;
  private attachments: AttachmentIndex;
  /** The server's forecast of what a snapshot would leave out (null in a snapshot build). */
  private readonly forecast: SnapshotForecast | null;
  /** Smaller copies of the raster images notes show, kept in the data directory between builds. */
  readonly images: ImageVariants;
  private renderer: PageRenderer;
  private readSettings: () => Promise<Settings>;
  private plan: SitePlan | null = null;
  /** What the live folder holds: the last plan's pages, or a remembered generation's. */
  private previous: PlannedSigs | null = null;
  /** The previous signatures are digests (a resumed generation): compare digests. */
  private digested = false;
  /** Signatures as remembered on disk (fixed size whatever the page), hashed once per change. */
  private sigDigests = new SigDigests();
  private nav = '';
  /** The last build whose files are all in place: what `remember` writes (never a build half done). */
  private settled: BuiltGeneration | null = null;
  /** A whole build's signatures, made once its answer is sent (DueSigs). */
  readonly dueSigs = new DueSigs();
  private live: string | null = null;
  private generation = 0;
  private readonly stage: Stage;
  /** Old addresses of moved notes and permalinks' own addresses (CONTRACT §7). */
  private readonly addresses: AddressMemory;
  private addressesLoaded = false;
  /** The settings the live plan was made with, as JSON. */
  private planSettings: string | null = null;
  /** An edit's quick pass failed midway: the next pass plans the whole site. */
  private replanWhole = false;
  /** Families a quick pass left for a quiet moment (`tidy`): the sitemaps when a note's day moved, other notes' articles showing an edited one. */
  private readonly due = new DueWork();
  /** The visitor search index (CONTRACT §9): its base outlives a pass, its delta follows each. */
  private readonly search = new SearchIndex((file) => readFileSync(path.join(this.live!, file), 'utf8'));
  /** The search index's files in the live plan. */
  private searchPages: PlannedPage[] = [];
  /** Approved comments and mentions (CONTRACT §8), from comments.db. */
  private readonly discussion: DiscussionIndex;
  /** What the planner keeps from one plan to the next (signatures, encoded addresses). */
  private readonly memory = new PlanMemory();
  /** The notes' records kept for the next start. */
  private readonly kept: RecordCache;

  constructor(private readonly options: SiteBuilderOptions) {
    const { config } = options;
    this.store = new VaultStore({ vaultDir: config.vaultDir, dataDir: config.dataDir, skipDirs: options.skipDirs, useGit: options.useGit });
    this.attachments = new AttachmentIndex(config.vaultDir, options.skipDirs);
    this.forecast = options.snapshot ? null : new SnapshotForecast(config.vaultDir);
    // The server's builder makes copies on one thread beside the site; a snapshot waits for them, on every core.
    this.images = new ImageVariants(dataPath(config.dataDir, DATA_FILES.imageVariants), config.vaultDir, options.snapshot ? availableParallelism() : 1, options.snapshot ? null : (p) => this.attachments.get(p) !== undefined);
    const stage = path.join(options.outRoot, 'stage');
    this.renderer = options.renderer ?? new PageRenderer(options.extensions ?? extensionsOf(config));
    this.stage = new Stage(stage, this.renderer, config.vaultDir);
    this.readSettings = createSettingsReader(options.settingsDir ?? config.dataDir);
    this.addresses = new AddressMemory(config.dataDir, config.vaultDir, Boolean(options.snapshot));
    this.discussion = new DiscussionIndex(config.dataDir);
    this.kept = new RecordCache(dataPath(config.dataDir, DATA_FILES.noteRecords));
  }

  /** Learns moved addresses from the plan about to go live (CONTRACT §7), remembered in the data directory. */
  private async learnAddresses(plan: SitePlan): Promise<void> {
    await this.loadAddresses();
    this.addresses.observe(plan.ctx.model);
    await this.addresses.save();
  }

  /** What the data directory remembers of addresses and feed ids, read before the first page that shows them. */
  private async loadAddresses(): Promise<void> {
    if (this.addressesLoaded) return;
    await this.addresses.load();
    this.addressesLoaded = true;
  }

  private settings(): Promise<Settings> {
    return this.readSettings().catch(() => defaultSettings());
  }

  /** The discussions to plan with: read when comments are on (COMMENTS=on or the setting). */
  private discussionFor(settings: Settings): DiscussionMap | null {
    return this.discussion.current(siteSettingsOf(settings, this.options.config).comments.enabled);
  }

  private async makePlan(settings?: Settings, now = new Date(), withSearch = true, sigsNow = true): Promise<SitePlan> {
    settings ??= await this.settings();
    this.wholePlans++;
    this.planSettings = JSON.stringify(settings);
    const plan = planVault({
      records: this.store.records.values(),
      attachments: this.attachments,
      settings,
      discussion: this.discussionFor(settings),
      config: this.options.config,
      base: this.options.base ?? BASE_TOKEN,
      assets: (await this.renderer.assets()).assets,
      now, images: this.images, feedIds: this.addresses.feedIds, memory: this.memory,
    });
    // Signatures are compared by the next pass, made while what they read is as it is: a snapshot has no next pass.
    if (!this.options.snapshot && sigsNow) settleSigs(plan.pages.values());
    else if (!this.options.snapshot) this.dueSigs.owe(plan.pages);
    if (withSearch) for (const page of this.planSearch(plan)) plan.pages.set(page.address, page);
    return plan;
  }

  private planSearch(plan: SitePlan): PlannedPage[] {
    this.searchPages = this.search.plan(plan.ctx);
    return this.searchPages;
  }

  /** Reads the whole vault in this process: one walk, one parse per note whose record was not kept (`kept`, by path). */
  private async loadVault(kept: ReturnType<RecordCache['load']> | null = null): Promise<BuildResult['notes']> {
    const found = await new VaultEntries(this.options.config.vaultDir, this.options.skipDirs).list();
    this.attachments.loadFrom(found.filter((e) => e.kind === 'attachment').map((e) => e.path));
    await this.store.reader.prepare(true);
    const parsed = this.store.reader.parses;
    this.store.adopt(this.store.reader.readMany(found.filter((e) => e.kind === 'note').map((e) => e.path), kept));
    await this.store.settleDates();
    this.kept.due = true;
    return { parsed: this.store.reader.parses - parsed, of: this.store.records.size };
  }

  /** Reads the whole vault and renders every output into a new folder. */
  async full(moves: [string, string][] = []): Promise<BuildResult> {
    const started = Date.now();
    this.addresses.toldMoves(moves);
    await this.loadAddresses();
    this.letPlanGo();
    await fs.mkdir(this.options.outRoot, { recursive: true });
    await fs.rm(this.stage.dir, { recursive: true, force: true });
    const progress = this.options.onProgress;
    const settings = await this.settings();
    const { config, snapshot } = this.options;
    this.search.reset(snapshot ? null : (this.options.searchBaseLaterFrom ?? null));
    // The search base's notes and documents when the build thread makes its files (search-job.ts).
    const early = new EarlySearch();
    // Read from disk while the notes are parsed, not awaited at the plan (its error, if any, is the plan's).
    this.renderer.assets().catch(() => {});
    const { plan, pages } = await fullBuild({
      entries: new VaultEntries(config.vaultDir, this.options.skipDirs),
      store: this.store,
      attachments: this.attachments,
      renderer: this.renderer,
      stage: this.stage.dir,
      vaultDir: config.vaultDir,
      settings,
      read: (records) => this.images.makeSoon(this.attachments.shownByPublished(records)),
      plan: async (now) => {
        const plan = await this.makePlan(settings, now, false, false);
        if (snapshot) this.addresses.observe(plan.ctx.model); // no next pass shows what moved: feed ids learnt before the pages
        if (!this.images.busy || (!snapshot && this.live !== null)) return plan;
        // A snapshot has no next pass, a server's first build nothing live: both wait for the image copies, taken into the plan.
        await this.images.settled();
        return adoptImages(plan);
      },
      searchDocs: () => early.docsOf(this.store.records.values(), modelSettings(siteSettingsOf(settings, config), config)),
      alongside: (plan, files) => {
        early.adoptInto(this.search, files);
        return this.planSearch(plan);
      },
      buildThread: this.options.buildThread === false ? null : { config, skipDirs: this.options.skipDirs, base: this.options.base ?? BASE_TOKEN },
      buildThreadFrom: this.options.buildThreadFrom,
      searchTextsUpTo: snapshot ? null : (this.options.searchBaseLaterFrom ?? null),
      snapshot: snapshot ?? null,
      chunk: this.options.chunkSize ?? 400,
      onProgress: progress && ((phase, done, total) => progress({ phase, done, total })),
    });
    this.store.releasePrepared();
    forgetEmbedParses(); // and the parses of embedded notes the pass kept for its pages
    await this.learnAddresses(plan);
    const nav = snapshot ? '' : await this.stage.read(NAV_FILE);
    const dir = path.join(this.options.outRoot, `gen-${Date.now()}-${++this.generation}`);
    await this.stage.becomes(dir);
    const previous = this.live;
    this.live = dir;
    this.search.release();
    this.replanWhole = false;
    this.due.clear();
    [this.plan, this.previous, this.digested, this.nav] = [plan, plan.pages, false, nav];
    this.settled = { plan, dir, nav };
    this.kept.due = true;
    await removeGenerations(this.options.outRoot, [dir, previous]);
    const entries = pages.filter((p) => !isInternal(p.address)).map((p) => [p.address, served(p)] as [string, ServedEntry]);
    return {
      full: true,
      dir,
      entries,
      upserts: entries,
      removals: [],
      nav,
      redirects: this.addresses.changedRedirects(plan.ctx.model, plan.ctx.frontPath),
      rendered: pages.length,
      ms: Date.now() - started,
      gitCreated: [...this.store.gitCreated()],
      tidy: this.search.tidyDue,
    };
  }

  /** A quiet moment's work: once the search delta has grown, a new base (every searchable note indexed again); only its files change. */
  async tidy(): Promise<BuildResult | null> {
    this.dueSigs.settle();
    const plan = this.plan;
    if (!this.live || !plan || this.previous !== plan.pages || this.replanWhole || !(this.due.size || this.search.tidyDue)) return null;
    const started = Date.now();
    // From the live plan's current model (a second plan beside it outgrew a realistic builder's heap), a step at a time: edits go between.
    const step = this.due.size ? duePlan(plan, this.due.keys(plan), this.searchPages) : this.search.tidyStep(plan.ctx) ? searchPlan(this.searchPages, this.search.plan(plan.ctx)) : null;
    this.due.clear();
    if (step) {
      await this.stage.replace(plan, this.live, step.changed, step.removed.map((p) => p.file));
      adoptQuick(plan, step);
      this.searchPages = step.search;
      this.search.release();
    }
    forgetEmbedParses(); // what the embedders' step parsed
    return passResult(this.live, step ?? searchPlan([], []), started, this.search.tidyDue);
  }

  /**
   * Applies changed vault paths (and a possible settings change) to the live site, the notes whose
   * comments or mentions changed (`discussed`, vault paths), and the admin's moves ([from, to]).
   */
  async apply(paths: Iterable<string>, discussed: string[] = [], moves: [string, string][] = []): Promise<BuildResult | null> {
    this.dueSigs.settle();
    try {
      return await this.applyPaths(paths, discussed, moves);
    } finally {
      forgetEmbedParses(); // kept, an edited note's old parses would outlive it (5 MB a save of the 3,000-link index note)
    }
  }

  private async applyPaths(paths: Iterable<string>, discussed: string[], moves: [string, string][]): Promise<BuildResult | null> {
    this.discussion.refresh(discussed);
    this.addresses.toldMoves(moves);
    if (!this.live || !this.previous) return this.full();
    keepReadParses(); // an edited note its pages embed is parsed once, as it is read
    const started = Date.now();
    const list = [...paths];
    const changes = await this.store.update(list.filter((p) => isNotePath(p)));
    const others: string[] = [];
    // An unchanged file the live plan does not show as a pending image (its copies made while it was planned) changes nothing.
    const pending = (p: string) => this.plan!.ctx.shownBy.has(p) && this.plan!.ctx.imageState(p)?.kind === 'pending';
    for (const p of list.filter((p) => !isNotePath(p))) if ((await this.attachments.refresh(p)) || !this.plan || pending(p)) others.push(p);
    const settings = await this.settings();
    // A told move may turn an old address into a 301 now: only a whole plan serves redirects.
    if (others.length === 0 && !this.replanWhole && moves.length === 0) {
      const quick = await this.applyEdits(changes, discussed as VaultPath[], settings, started);
      if (quick !== undefined) return quick;
    }
    this.letPlanGo();
    return this.applyPlan(await this.makePlan(settings), started);
  }

  /** Before a whole plan: the live one's signatures are all it is compared with; its model and views go. */
  private letPlanGo(): void {
    this.dueSigs.settle();
    if (this.plan && this.previous === this.plan.pages) this.previous = new Map([...this.plan.pages].map(([a, p]) => [a, { file: p.file, type: p.type, sig: p.sig }]));
    this.plan = this.settled = null;
  }

  /** The quick pass (quick-pass.ts): undefined when the whole site must be planned instead. */
  private async applyEdits(changes: RecordChange[], discussed: VaultPath[], settings: Settings, started: number): Promise<BuildResult | null | undefined> {
    const plan = this.plan;
    const live = this.live!;
    if (!plan || this.previous !== plan.pages || JSON.stringify(settings) !== this.planSettings) return undefined;
    if (new Date().getUTCFullYear() !== plan.ctx.frame.year || !keepsShape(changes)) return undefined; // the footer's year: from the clock
    const quick = quickPlan(plan, changes, discussed, { before: this.searchPages, plan: (p) => this.search.plan(p.ctx, changes.map((c) => c.after!)) });
    if (!quick) {
      this.replanWhole = true;
      return undefined;
    }
    const { changed, removed } = quick;
    if (changed.length > 0 || removed.length > 0) {
      try {
        await this.stage.replace(plan, live, changed, removed.map((p) => p.file));
      } catch (err) {
        this.replanWhole = true;
        throw err;
      }
    }
    adoptQuick(plan, quick);
    this.dueSigs.owe(plan.pages); // an edited note's article: its signature was not needed to render it
    this.searchPages = quick.search;
    this.search.release();
    this.quickPasses++;
    this.due.add(plan, quick);
    // Nothing rendered: the server still learns of the quiet moment's work a moved day or an embedder asks for.
    if (changed.length === 0 && removed.length === 0 && !this.due.size) return null;
    return passResult(live, quick, started, this.search.tidyDue || this.due.size > 0);
  }

  /**
   * After a restart: takes the remembered generation as the live site and brings it up to date
   * in one incremental pass. Every note is looked at, and parsed only if it changed since its
   * record was kept; the search base the pages hold is kept too. Only changed outputs are rendered.
   */
  async resume(moves: [string, string][] = []): Promise<BuildResult> {
    const started = Date.now();
    this.addresses.toldMoves(moves);
    await this.loadAddresses();
    const key = await this.key();
    const state = this.options.remember ? readGeneration(this.options.outRoot, key) : null;
    if (!state) return this.full();
    await fs.mkdir(this.options.outRoot, { recursive: true });
    this.live = path.join(this.options.outRoot, state.dir);
    this.previous = new Map(state.pages.map(([address, file, type, sig]) => [address as Address, { file, type, sig }]));
    [this.digested, this.nav] = [true, state.nav];
    const kept = this.kept.load(key);
    if (state.search) this.search.adoptRemembered(state.search, keptVersions(kept));
    const notes = await this.loadVault(kept);
    const result = (await this.applyPlan(await this.makePlan(), started)) ?? { full: false, dir: this.live, upserts: [], removals: [], nav: null, rendered: 0, ms: Date.now() - started };
    this.store.releasePrepared();
    forgetEmbedParses(); // and the parses of embedded notes the pass kept for its pages
    return { ...result, notes, gitCreated: [...this.store.gitCreated()] };
  }

  /** Renders what differs between the live folder and `plan`, and swaps it in page by page. */
  private async applyPlan(plan: SitePlan, started: number): Promise<BuildResult | null> {
    const live = this.live!;
    const next = this.digested ? new Map([...plan.pages].map(([a, p]) => [a, { ...p, sig: digest(p.sig) }])) : plan.pages;
    const diff = diffPlans(this.previous, next);
    // Taken as the live plan only once its files are in place: a failed pass is redone whole.
    const settle = () => {
      this.replanWhole = false;
      this.due.clear();
      this.plan = plan;
      this.previous = plan.pages;
      this.digested = false;
      this.settled = { plan, dir: live, nav: this.nav };
      this.search.release();
    };
    await this.learnAddresses(plan);
    if (diff.changed.length === 0 && diff.removed.length === 0) {
      settle();
      // Nothing to render, but an old address may answer 301 now (or no longer).
      const redirects = this.addresses.changedRedirects(plan.ctx.model, plan.ctx.frontPath);
      return redirects === null ? null : { full: false, dir: live, upserts: [], removals: [], nav: null, redirects, rendered: 0, ms: Date.now() - started, tidy: this.search.tidyDue };
    }
    await this.stage.reset();
    await this.stage.produce(plan, diff.changed);
    const nav = diff.changed.some((p) => p.file === NAV_FILE) ? await this.stage.read(NAV_FILE) : null;
    if (nav !== null) this.nav = nav;
    await this.stage.swapInto(live, diff.changed);
    // A removed output's file may be a page's just written (`Baz.md` after the attachment `Baz.html`): it stays.
    const written = new Set(diff.changed.map((p) => p.file));
    await this.stage.remove(live, diff.removed.filter((r) => !written.has(r.file) && (r.address === '' || plan.pages.get(r.address)?.file !== r.file)).map((r) => r.file));
    settle();
    return {
      full: false,
      dir: live,
      upserts: diff.changed.filter((p) => !isInternal(p.address)).map((p) => [p.address, served(p)]),
      removals: diff.removed.map((r) => r.address).filter((a) => a !== '' && !plan.pages.has(a)),
      nav,
      redirects: this.addresses.changedRedirects(plan.ctx.model, plan.ctx.frontPath),
      rendered: diff.changed.length,
      ms: Date.now() - started,
      tidy: this.search.tidyDue,
    };
  }

  private async key(): Promise<GenerationKey> {
    return currentKey(this.options.config, await this.settings(), this.options.base ?? BASE_TOKEN);
  }

  /** Writes the live generation's state beside it (after each build, off the answer's path). */
  async remember(): Promise<void> {
    if (!this.options.remember || !this.settled) return;
    this.dueSigs.settle();
    const built = this.settled;
    const key = await this.key();
    await rememberGeneration(this.options.outRoot, key, built, (pages) => this.sigDigests.digests(pages), (files) => this.search.remembered(files));
    await this.kept.writeDue(key, this.store.records.values());
  }

  /** Edits applied by the quick pass so far (applyEdits), whole plans made (makePlan), and the live plan's signatures: what tests compare. */
  quickPasses = 0;
  wholePlans = 0;
  plannedSigs(): Map<string, string> {
    this.dueSigs.settle();
    return new Map([...(this.plan?.pages ?? [])].map(([address, page]) => [address, page.sig]));
  }

  /** What the last build found wrong in the vault, each naming its note. */
  warnings(): BuildWarning[] {
    return this.plan ? warningsWithForecast(this.plan, this.forecast) : [];
  }

  private async currentPlan(): Promise<SitePlan> {
    if (!this.plan) {
      if (this.store.records.size === 0) await this.loadVault();
      this.plan = await this.makePlan();
    }
    return this.plan;
  }

  /** GET /api/posts (CONTRACT §5): the published posts of the one model, newest first. */
  async posts(): Promise<PostItem[]> {
    return (await this.currentPlan()).ctx.model.posts.map(postItem);
  }

  /** The published post a comment or mention names (CONTRACT §8), or null: a draft and a missing note alike. */
  async post(query: PostQuery): Promise<PostRef | null> {
    return postNamed((await this.currentPlan()).ctx.model, this.store.records, query);
  }
}
