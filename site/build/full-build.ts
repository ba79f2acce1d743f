// A full build on both cores (issue 12): one walk of the vault, then the notes are
// parsed and the pages rendered by this thread and, for a vault big enough to be worth
// it, a partner thread (site/build/partner.ts). Work is handed out in chunks as each
// side is free (the partner joins once it has started), so neither waits on the other;
// both plan the site from the same records, settings and clock, and a partner whose
// plan differs, or that fails, simply gets no more work: this side does the rest.
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { packRecord, unpackRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import type { NoteReader } from '../../shared/model/note-reader.ts';
import type { VaultStore } from '../../shared/model/vault-store.ts';
import type { PostDate } from '../../shared/note/dates.ts';
import type { Settings } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import type { VaultEntries } from '../../shared/vault-walk.ts';
import { splitBundle } from './bundles.ts';
import type { AttachmentIndex } from './attachments.ts';
import type { DiscussionMap } from './discussion.ts';
import { isTemplated, type PageFinish, type PageRenderer } from './page-render.ts';
import { PartnerLink } from './partner-link.ts';
import type { PartnerSetup, SnapshotFinish } from './partner-protocol.ts';
import type { SitePlan } from './plan.ts';
import { NAV_FILE } from './plan-outputs.ts';
import type { PlannedPage } from './plan-types.ts';
import { pagesDigest } from './plan-vault.ts';
import { snapshotFinish } from './snapshot-page.ts';

/** Below this many notes a partner costs more than it saves. */
export const PARTNER_MIN_NOTES = 2_000;
const READ_CHUNK = 250;

export interface FullBuildInput {
  entries: VaultEntries;
  store: VaultStore;
  attachments: AttachmentIndex;
  renderer: PageRenderer;
  stage: string;
  vaultDir: string;
  settings: Settings;
  /** The approved comments and mentions the plan is made with (the partner plans with the same). */
  discussion: DiscussionMap | null;
  /** Plans the site from the store's records (the same function the partner runs). */
  plan: (now: Date) => Promise<SitePlan>;
  /**
   * Outputs only this process makes (the search index, site/build/search-index.ts), made
   * while the partner plans: the two cores stay busy.
   */
  alongside?: (plan: SitePlan) => PlannedPage[];
  /** Set up a partner (null: this process alone). */
  partner: Omit<PartnerSetup, 'stage' | 'notes'> | null;
  /** A static snapshot: pages finished as a static host serves them. */
  snapshot: { siteUrl: string | null } | null;
  /** Most pages per Eleventy pass. */
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
  const partner = input.partner && notes.length >= PARTNER_MIN_NOTES ? new PartnerLink({ ...input.partner, stage: input.stage, notes }) : null;
  try {
    await input.store.reader.prepare(true);
    input.store.adopt(await readShared(input.store.reader, notes, partner));
    const redated = await input.store.settleDates();
    input.onProgress?.('plan');
    const now = new Date();
    // The partner plans too (its own records, the dates settled here): at once when it has
    // started, so both plan side by side, else once it has.
    const offerPlan = () =>
      partner!.send({
        type: 'plan',
        dates: redated.map((r) => [r.path, r.date] as [VaultPath, PostDate]),
        attachments: input.attachments.list(),
        settings: input.settings,
        nowMs: now.getTime(),
        discussion: input.discussion && [...input.discussion],
      });
    const offeredEarly = partner?.ready === true && offerPlan();
    const plan = await input.plan(now);
    const pages = [...plan.pages.values()];
    // The partner indexes the same list: its ranges name the same pages.
    const templated = pages.filter(isTemplated);
    let finish: SnapshotFinish | null = null;
    if (input.snapshot) {
      // The topic row goes into every page: rendered first (the snapshot never writes it as a file).
      const navPage = templated.find((p) => p.file === NAV_FILE)!;
      const nav = splitBundle((await input.renderer.render(plan, [navPage])).join(''))[0]![1];
      finish = { nav, siteUrl: input.snapshot.siteUrl };
    }
    const ownWork = () => {
      for (const page of input.alongside?.(plan) ?? []) {
        plan.pages.set(page.address, page);
        pages.push(page);
      }
    };
    await renderShared(input, plan, templated, partner, offerPlan, offeredEarly, finish, ownWork);
    input.onProgress?.('files');
    input.renderer.writeFiles(input.stage, input.vaultDir, pages);
    return { plan, pages };
  } finally {
    partner?.close();
  }
}

function withoutSearchText(record: NoteRecord) {
  const packed = packRecord(record);
  packed.fields.searchText = null;
  return packed;
}

/**
 * Parses every note: this process from the front of the list, the partner (once it has
 * started) from the back, until they meet.
 */
async function readShared(reader: NoteReader, paths: VaultPath[], partner: PartnerLink | null): Promise<NoteRecord[]> {
  const mine: NoteRecord[] = [];
  const theirs: NoteRecord[] = [];
  let front = 0;
  let back = paths.length;
  // The partner sends two chunks unasked, then one more for each that comes in while this side still needs them.
  const ask = () => back - front > 2 * READ_CHUNK && partner!.send({ type: 'more' });
  const off = partner?.on((reply) => {
    if (reply.type !== 'records' || reply.to !== back) return;
    back = reply.from;
    ask();
    // Notes this side has parsed meanwhile are not taken twice.
    const read = reply.from < front ? new Set(paths.slice(reply.from, front)) : null;
    for (const packed of reply.records) if (!read?.has(packed.fields.path)) theirs.push(unpackRecord(packed));
  });
  try {
    while (front < back) {
      const to = Math.min(front + READ_CHUNK, back);
      mine.push(...reader.readMany(paths.slice(front, to)));
      front = to;
      if (partner) await yieldToIo();
    }
  } finally {
    off?.();
  }
  // The partner takes the notes this side parsed (handing them over costs a small part of parsing them).
  // Without their text for the search index: only this process makes the index.
  partner?.send({ type: 'rest', records: mine.map(withoutSearchText) });
  return [...mine, ...theirs];
}

/**
 * Renders the templated pages: chunks from the front of the list, as each side is free,
 * smaller as the end nears (so both finish together), each an Eleventy pass.
 */
async function renderShared(
  input: FullBuildInput,
  plan: SitePlan,
  templated: PlannedPage[],
  partner: PartnerLink | null,
  offerPlan: () => boolean,
  offeredEarly: boolean,
  finish: SnapshotFinish | null,
  ownWork: () => void,
): Promise<void> {
  const fn: PageFinish | undefined = finish ? snapshotFinish(finish.nav, finish.siteUrl) : undefined;
  const retry: [number, number][] = [];
  const out = new Map<number, [number, number]>();
  let next = 0;
  let done = 0;
  let id = 0;
  let joined = false;
  // Small enough early that the partner's messages are seen soon, smaller still near the end.
  const size = () => Math.min(input.chunk, 200, Math.max(40, Math.ceil((templated.length - next) / 6)));
  const take = (): [number, number] | null => {
    if (retry.length > 0) return retry.pop()!;
    if (next >= templated.length) return null;
    const range: [number, number] = [next, Math.min(templated.length, next + size())];
    next = range[1];
    return range;
  };
  const feed = () => {
    while (joined && partner && !partner.lost && out.size < 2 && next < templated.length) {
      const range = take()!;
      out.set(++id, range);
      if (!partner.send({ type: 'render', id, from: range[0], to: range[1], snapshot: finish })) break;
    }
  };
  let offered = offeredEarly;
  const offer = () => {
    // Not worth planning twice for the last few pages.
    if (offered || !partner?.ready || templated.length - next < 200) return;
    offered = offerPlan();
  };
  offer();
  ownWork();
  const off = partner?.on((reply) => {
    if (reply.type === 'ready') offer();
    if (reply.type === 'planned') joined = reply.check === pagesDigest(templated);
    if (reply.type === 'rendered') {
      const range = out.get(reply.id);
      if (range && out.delete(reply.id)) done += range[1] - range[0];
      input.onProgress?.('render', done, templated.length);
    }
    feed();
  });
  try {
    for (;;) {
      if (partner?.lost && out.size > 0) {
        retry.push(...out.values());
        out.clear();
      }
      const range = take();
      if (range) {
        const pages = templated.slice(range[0], range[1]);
        await input.renderer.renderInto(input.stage, plan, pages, pages.length, fn);
        done += pages.length;
        input.onProgress?.('render', done, templated.length);
      } else if (out.size > 0) await partner!.changed();
      else break;
    }
  } finally {
    off?.();
  }
}
