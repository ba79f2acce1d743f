// A full build on both cores: one walk of the vault, then the notes are
// parsed and the pages rendered by this thread and, for a vault big enough to be worth
// it, a build thread (site/build/build-thread.ts). Notes are parsed from both ends until the
// two meet; this side alone plans the site (the one model), while the build thread makes the
// search index's base from the notes' documents (search-job.ts), then hands the build thread
// pages to render as views, in chunks as each side is free, so neither waits on the other.
// A build thread that fails simply gets no more work: this side does the rest.
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { strictLineBreaksNow } from '../../shared/note/line-breaks.ts';
import { mergeWarnings } from '../../shared/model/build-warnings.ts';
import { unpackRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import type { NoteReader } from '../../shared/model/note-reader.ts';
import type { SearchDoc } from '../../shared/search/index-format.ts';
import type { VaultStore } from '../../shared/model/vault-store.ts';
import { cachedBundle } from '../../shared/project-dir.ts';
import type { Settings } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import type { VaultEntries } from '../../shared/vault-walk.ts';
import type { AttachmentIndex } from '../read/attachments.ts';
import type { FileWriter } from '../write/file-writer.ts';
import { isTemplated, type PageFinish, type PageRenderer } from '../render/page-render.ts';
import type { BuildThreadLink } from './build-thread-link.ts';
import type { SnapshotSite } from './builder-types.ts';
import type { BuildThreadSetup, SnapshotFinish } from './build-thread-protocol.ts';
import { VAULT_STYLESHEET, type SitePlan } from '../plan/plan.ts';
import { NAV_FILE } from '../plan/plan-outputs.ts';
import type { PlannedPage } from '../plan/plan-types.ts';
import type { BaseFiles } from '../plan/search-base.ts';
import { searchOnBuildThread } from '../plan/search-job.ts';
import { leftOutWarnings } from '../write/snapshot-attachments.ts';
import { snapshotFinish, snapshotParts } from '../render/snapshot-page.ts';

/** Below this many notes a build thread costs more than it saves. */
export const BUILD_THREAD_MIN_NOTES = 2_000;
/**
 * The same for a build thread started early from code already compiled (`npm run build`:
 * build-thread-link.ts buildThreadStartsQuickly): it paid at 1,000 notes, broke even at 500.
 */
export const QUICK_BUILD_THREAD_MIN_NOTES = 700;
/**
 * Without a build thread, from this many notes this thread's pages are written by a thread of
 * their own (file-writer.ts). Below it the writer's start (about 0.07 s on the other core,
 * waited for when the build is done sooner) is not worth it.
 */
export const FILE_WRITER_MIN_NOTES = 300;

/**
 * Chunks of pages the build thread holds at once while it renders a static snapshot. With two, it
 * waited on this side, which renders chunks of its own between two looks at the build thread's
 * messages and makes every chunk's views; four paid, six no more than four. The server's
 * builder keeps two: its first build runs beside the live server, within its memory budget
 * (each chunk in flight is held twice, as views here and as the build thread's copy).
 */
export const BUILD_THREAD_WINDOW = 4;
const SERVER_BUILD_THREAD_WINDOW = 2;

/** Notes parsed between two looks at the other side's messages: small enough for both sides to meet soon in a small vault. */
export const readChunkFor = (notes: number): number => Math.max(50, Math.min(250, Math.ceil(notes / 10)));

export interface FullBuildInput {
  entries: VaultEntries;
  store: VaultStore;
  attachments: AttachmentIndex;
  renderer: PageRenderer;
  stage: string;
  vaultDir: string;
  settings: Settings;
  /** Told each chunk of notes as it is read, before the plan (the copies of images they show can start). */
  read?: (records: readonly NoteRecord[]) => void;
  /** Plans the site from the store's records. */
  plan: (now: Date) => Promise<SitePlan>;
  /**
   * The search index's documents as the plan will index them (search-docs.ts
   * searchableBeforePlan), asked for only with a build thread: it makes the base's files from
   * them while this side plans.
   */
  searchDocs?: () => SearchDoc[];
  /**
   * Outputs that are not pages (the search index, site/plan/search-index.ts), made between
   * this side's chunks once the build thread's base files are in (null: none were made there).
   */
  alongside?: (plan: SitePlan, files: BaseFiles | null) => PlannedPage[];
  /**
   * From this many published notes read, the search base is made after the build (the
   * server's first build of a large vault without a build thread, site/plan/search-index.ts):
   * their search texts, dropped at the plan, are not kept through the read (about 20 MB of a
   * realistic 10,000).
   */
  searchTextsUpTo?: number | null;
  /** Set up a build thread (null: this process alone), for a vault of `buildThreadFrom` notes or more (default BUILD_THREAD_MIN_NOTES). */
  buildThread: Omit<BuildThreadSetup, 'stage' | 'notes' | 'readChunk' | 'strictLineBreaks'> | null;
  buildThreadFrom?: number;
  /** A static snapshot: pages finished as a static host serves them. */
  snapshot: SnapshotSite | null;
  /** Most pages per render pass. */
  chunk: number;
  onProgress?: (phase: 'read' | 'plan' | 'render' | 'files', done?: number, total?: number) => void;
}

export interface FullBuildOutput {
  plan: SitePlan;
  pages: PlannedPage[];
}

export async function fullBuild(input: FullBuildInput): Promise<FullBuildOutput> {
  input.onProgress?.('read');
  const found = await input.entries.list();
  const notes = found.filter((e) => e.kind === 'note').map((e) => e.path);
  input.attachments.loadFrom(found.filter((e) => e.kind === 'attachment').map((e) => e.path));
  const thread = await buildThreadFor(input.buildThread, input.buildThreadFrom, input.stage, notes);
  // Started now, so it is up before the first page. With a build thread both cores are busy
  // rendering: a writer too measured no faster (1,000 notes, eleven rounds alternating).
  const writer = !thread && notes.length >= FILE_WRITER_MIN_NOTES ? new (await import('../write/file-writer.ts')).FileWriter() : null;
  let closing = false;
  try {
    // With a build thread the base is made from the texts during the build (searchOnBuildThread below): all are kept.
    const textsUpTo = thread ? null : (input.searchTextsUpTo ?? null);
    input.store.adopt(await readShared(input.store.reader, notes, thread, input.store.reader.prepare(true), input.read, textsUpTo));
    await input.store.settleDates();
    // Known before the plan: the build thread, idle until pages are planned, indexes them meanwhile.
    const searching = thread && input.searchDocs ? searchOnBuildThread(thread, input.searchDocs()) : null;
    input.onProgress?.('plan');
    const plan = await input.plan(new Date());
    const pages = [...plan.pages.values()];
    const templated = pages.filter(isTemplated);
    let finish: SnapshotFinish | null = null;
    if (input.snapshot) {
      // The topic row goes into every page: rendered first (the snapshot never writes it as a file).
      const navPage = templated.find((p) => p.file === NAV_FILE)!;
      const nav = (await input.renderer.render(plan, [navPage]))[0]![1];
      input.renderer.renderAsSnapshot(snapshotParts(nav, input.snapshot.customCss ?? null));
      finish = { siteUrl: input.snapshot.siteUrl };
    }
    const ownWork = (files: BaseFiles | null) => {
      for (const page of input.alongside?.(plan, files) ?? []) {
        plan.pages.set(page.address, page);
        pages.push(page);
      }
    };
    await renderShared(input, plan, templated, thread, finish, ownWork, searching, writer);
    input.onProgress?.('files');
    const leftOut = input.renderer.writeFiles(input.stage, input.vaultDir, pages, input.snapshot ? { siteFile: plan.ctx.publishCss ? VAULT_STYLESHEET : null } : null);
    if (leftOut.size > 0) {
      plan.ctx.model.warnings.splice(0, plan.ctx.model.warnings.length, ...mergeWarnings(plan.ctx.model.warnings, leftOutWarnings(plan.ctx, leftOut)));
    }
    closing = true;
    await writer?.close();
    return { plan, pages };
  } finally {
    if (!closing) writer?.abort();
    thread?.close();
  }
}

/** A build thread for a vault of `notes`, when it is big enough to pay for one. */
async function buildThreadFor(setup: FullBuildInput['buildThread'], buildThreadFrom: number | undefined, stage: string, notes: VaultPath[]): Promise<BuildThreadLink | null> {
  // Loaded only when a build thread may pay: worker_threads is one more module a small build need not load.
  const link = setup && notes.length >= (buildThreadFrom ?? QUICK_BUILD_THREAD_MIN_NOTES) ? await import('./build-thread-link.ts') : null;
  const from = buildThreadFrom ?? (link?.buildThreadStartsQuickly() ? QUICK_BUILD_THREAD_MIN_NOTES : BUILD_THREAD_MIN_NOTES);
  if (setup && link && notes.length >= from) return new link.BuildThreadLink({ ...setup, stage, notes, readChunk: readChunkFor(notes.length), strictLineBreaks: strictLineBreaksNow() });
  // A build thread started early for a vault too small for one (`npm run build`) is let go.
  if (cachedBundle()) (link ?? (await import('./build-thread-link.ts'))).dropEarlyBuildThread();
  return null;
}

/**
 * Parses every note: this process from the front of the list, the build thread (once it has
 * started) from the back, until they meet. From `textsUpTo` published notes, their search
 * texts go and no more are made.
 */
export async function readShared(reader: NoteReader, paths: VaultPath[], thread: BuildThreadLink | null, prepared: Promise<void>, read: FullBuildInput['read'], textsUpTo: number | null): Promise<NoteRecord[]> {
  const mine: NoteRecord[] = [];
  const theirs: NoteRecord[] = [];
  let texts = 0;
  // Once the search base is sure to wait for a quiet moment, the texts it will not read go, and no more are made.
  const counted = (records: readonly NoteRecord[]) => {
    if (textsUpTo === null || !reader.searchTexts) return;
    for (const r of records) if (r.searchText !== null) texts++;
    if (texts < textsUpTo) return;
    reader.searchTexts = false;
    for (const r of mine) r.searchText = null;
    for (const r of theirs) r.searchText = null;
  };
  let front = 0;
  let back = paths.length;
  // The build thread sends two chunks unasked, then one more for each that comes in while this side still needs them.
  const chunk = readChunkFor(paths.length);
  const ask = () => back - front > 2 * chunk && thread!.send({ type: 'more' });
  const off = thread?.on((reply) => {
    if (reply.type !== 'records' || reply.to !== back) return;
    back = reply.from;
    ask();
    // Notes this side has parsed meanwhile are not taken twice.
    const parsed = reply.from < front ? new Set(paths.slice(reply.from, front)) : null;
    const at = theirs.length;
    for (const packed of reply.records) if (!parsed?.has(packed.fields.path)) theirs.push(unpackRecord(packed));
    counted(theirs.slice(at));
    read?.(theirs.slice(at));
  });
  try {
    // Listening before the reader is ready: chunks the build thread sends meanwhile are taken, not lost.
    await prepared;
    while (front < back) {
      const to = Math.min(front + chunk, back);
      const records = reader.readMany(paths.slice(front, to));
      mine.push(...records);
      counted(records);
      read?.(records);
      front = to;
      if (thread) await yieldToIo();
    }
  } finally {
    off?.();
    reader.searchTexts = true;
  }
  thread?.send({ type: 'stop' });
  return [...mine, ...theirs];
}

/**
 * Renders the templated pages: chunks from the front of the list, as each side is free,
 * smaller as the end nears (so both finish together), each one render pass. The build thread's
 * chunks go to it as views made here.
 */
async function renderShared(
  input: FullBuildInput,
  plan: SitePlan,
  templated: PlannedPage[],
  thread: BuildThreadLink | null,
  finish: SnapshotFinish | null,
  ownWork: (files: BaseFiles | null) => void,
  searching: Promise<BaseFiles | null> | null,
  writer: FileWriter | null,
): Promise<void> {
  const fn: PageFinish | undefined = finish ? snapshotFinish(finish.siteUrl) : undefined;
  const inFlight = input.snapshot ? BUILD_THREAD_WINDOW : SERVER_BUILD_THREAD_WINDOW;
  const retry: [number, number][] = [];
  const out = new Map<number, [number, number]>();
  let next = 0;
  let done = 0;
  let id = 0;
  let framed = false;
  // Small enough early that the build thread's messages are seen soon, smaller still near the end.
  const size = () => Math.min(input.chunk, 200, Math.max(40, Math.ceil((templated.length - next) / 6)));
  const take = (): [number, number] | null => {
    if (retry.length > 0) return retry.pop()!;
    if (next >= templated.length) return null;
    const range: [number, number] = [next, Math.min(templated.length, next + size())];
    next = range[1];
    return range;
  };
  // Pages rendered by each side so far, and those handed to the build thread not yet rendered there.
  const rendered = { here: 0, there: 0 };
  const threadHolds = () => {
    let pages = 0;
    for (const [from, to] of out.values()) pages += to - from;
    return pages;
  };
  // Near the end the build thread holds no more than its pace says it renders while this side
  // renders what is left: with a full window to the last page, this side waited on the
  // build thread's last chunks (15-60 ms of a 1,000-note build), the build thread waiting on nothing.
  const threadMayTake = () => {
    if (rendered.here === 0 || rendered.there === 0) return true;
    return threadHolds() < ((templated.length - next) * rendered.there) / rendered.here;
  };
  // The views of a chunk are made here, from the one model; the build thread renders them.
  const feeding = { busy: false };
  const feed = async (window: number) => {
    if (feeding.busy || !thread || thread.lost || !thread.ready) return;
    feeding.busy = true;
    try {
      if (!framed) framed = thread.send({ type: 'frame', site: plainData((await input.renderer.siteOf(plan))), snapshot: finish });
      while (framed && !thread.lost && out.size < window && next < templated.length && threadMayTake()) {
        const range = take()!;
        const { site: _site, ...views } = await input.renderer.viewsOf(plan, templated.slice(range[0], range[1]));
        out.set(++id, range);
        if (!thread.send({ type: 'render', id, pages: views })) break;
      }
    } finally {
      feeding.busy = false;
    }
  };
  // Enough for the build thread to go on with while this side makes what only it makes.
  await feed(inFlight);
  // The outputs beside the pages: once the build thread's search files are in, between chunks (never waiting on them while there is a chunk to render).
  let searched: { files: BaseFiles | null } | null = searching ? null : { files: null };
  void searching?.then((files) => (searched = { files }));
  let ownDone = false;
  const own = () => {
    if (ownDone || !searched) return;
    ownDone = true;
    ownWork(searched.files);
  };
  own();
  const off = thread?.on((reply) => {
    if (reply.type === 'rendered') {
      const range = out.get(reply.id);
      if (range && out.delete(reply.id)) {
        done += range[1] - range[0];
        rendered.there += range[1] - range[0];
      }
      input.onProgress?.('render', done, templated.length);
    }
    void feed(inFlight);
  });
  try {
    for (;;) {
      if (thread?.lost && out.size > 0) {
        retry.push(...out.values());
        out.clear();
      }
      // The build thread's replies are seen only between macrotasks: a chunk rendered here yields to none.
      if (thread && !thread.lost) await yieldToIo();
      own();
      await feed(inFlight);
      const range = take();
      if (range) {
        const pages = templated.slice(range[0], range[1]);
        await input.renderer.renderInto(input.stage, plan, pages, pages.length, fn, writer);
        done += pages.length;
        rendered.here += pages.length;
        input.onProgress?.('render', done, templated.length);
      } else if (out.size > 0) await thread!.changed();
      else break;
    }
    if (!ownDone) {
      searched ??= { files: await searching! };
      own();
    }
  } finally {
    off?.();
  }
}

/** The frame as plain data (its string tables hold functions the templates never call). */
function plainData<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
