// A full build's partner (issue 12: the build uses both cores), a worker thread started
// by a full build for its duration: it parses the notes it is sent, then plans the site
// from the whole vault exactly as the build does and renders the page ranges it is
// given into the same staging folder. The build process stays the one that decides;
// if this process fails, the build does its share itself.
import { packRecord, unpackRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { parentPort } from 'node:worker_threads';
import { NoteReader } from '../../shared/model/note-reader.ts';
import type { PageFinish, PageRenderer } from './page-render.ts';
import type { PartnerReply, PartnerRequest, PartnerSetup, SnapshotFinish } from './partner-protocol.ts';
import type { SitePlan } from './plan.ts';
import type { PlannedPage } from './plan-types.ts';

// What reading does not need is loaded once the partner has said it is ready (Eleventy
// alone takes a good part of a second): it can take notes to parse sooner.
const later = async () => {
  const [attachments, render, plan, snapshot] = await Promise.all([
    import('./attachments.ts'),
    import('./page-render.ts'),
    import('./plan-vault.ts'),
    import('./snapshot-page.ts'),
  ]);
  return { AttachmentIndex: attachments.AttachmentIndex, ...render, ...plan, ...snapshot };
};
let modules: ReturnType<typeof later> | null = null;

let setup: PartnerSetup | null = null;
let reader: NoteReader | null = null;
let renderer: PageRenderer | null = null;
let records: NoteRecord[] = [];
let sending = true;
/** Chunks the build wants: two to begin with (it asks for each next one as one arrives). */
let asked = 2;
let parsed: Promise<void> | null = null;
let plan: SitePlan | null = null;
let templated: PlannedPage[] = [];
let finish: { key: SnapshotFinish; fn: PageFinish } | null = null;
let chain: Promise<void> = Promise.resolve();

const READ_CHUNK = 250;

const reply = (message: PartnerReply) => parentPort!.postMessage(message);

/** Chunks parsed, from the back of the list, and how many of them were sent. */
const chunks: { from: number; to: number; records: NoteRecord[] }[] = [];
let sent = 0;

/** Sends parsed chunks, in order, as far as the build asked for them. */
function pump(): void {
  while (sending && asked > 0 && sent < chunks.length) {
    asked--;
    const { from, to, records: part } = chunks[sent++]!;
    reply({ type: 'records', from, to, records: part.map(packRecord) });
    // The search index is the build's alone: the texts it reads went with the records.
    for (const record of part) record.searchText = null;
  }
}

/** Parses the vault from the back until the build, parsing from the front, has the rest. */
async function parseFromBack(): Promise<void> {
  const { notes } = setup!;
  for (let to = notes.length; to > 0 && sending; to -= READ_CHUNK) {
    const from = Math.max(0, to - READ_CHUNK);
    chunks.push({ from, to, records: reader!.readMany(notes.slice(from, to)) });
    pump();
    // Between chunks: the build's requests come in.
    await yieldToIo();
  }
}

async function handle(request: PartnerRequest): Promise<void> {
  switch (request.type) {
    case 'setup': {
      setup = request.setup;
      const { config, skipDirs } = setup;
      reader = new NoteReader({ vaultDir: config.vaultDir, dataDir: config.dataDir, useGit: false });
      await reader.prepare(true);
      reply({ type: 'ready' });
      modules = later();
      void modules.then((m) => (renderer ??= new m.PageRenderer(setup!.stage)).assets());
      parsed = parseFromBack();
      parsed.catch(() => {}); // a failure answers the plan request
      return;
    }
    case 'more':
      asked++;
      pump();
      return;
    case 'rest': {
      sending = false;
      await parsed;
      records = request.records.map(unpackRecord);
      const theirs = new Set(records.map((r) => r.path));
      for (const chunk of chunks) for (const r of chunk.records) if (!theirs.has(r.path)) records.push(r);
      for (const r of records) r.searchText = null;
      chunks.length = 0;
      return;
    }
    case 'plan': {
      const m = await modules!;
      const dates = new Map(request.dates);
      for (const record of records) {
        const date = dates.get(record.path);
        if (date) record.date = date;
      }
      const attachments = new m.AttachmentIndex(setup!.config.vaultDir, setup!.skipDirs);
      attachments.adopt(request.attachments);
      renderer ??= new m.PageRenderer(setup!.stage);
      plan = m.planVault({
        records,
        attachments,
        settings: request.settings,
        config: setup!.config,
        base: setup!.base,
        assets: (await renderer.assets()).assets,
        now: new Date(request.nowMs),
        discussion: request.discussion ? new Map(request.discussion) : null,
      });
      templated = [...plan.pages.values()].filter(m.isTemplated);
      reply({ type: 'planned', check: m.pagesDigest(templated) });
      return;
    }
    case 'render': {
      const s = request.snapshot;
      if (s && (finish?.key.nav !== s.nav || finish.key.siteUrl !== s.siteUrl)) finish = { key: s, fn: (await modules!).snapshotFinish(s.nav, s.siteUrl) };
      const pages = templated.slice(request.from, request.to);
      await renderer!.renderInto(setup!.stage, plan!, pages, pages.length, s ? finish!.fn : undefined);
      reply({ type: 'rendered', id: request.id });
      return;
    }
  }
}

parentPort!.on('message', (request: PartnerRequest) => {
  chain = chain.then(() =>
    handle(request).catch((err) => {
      reply({ type: 'failed', error: (err as Error)?.stack ?? String(err) });
    }),
  );
});
