// The build thread of a full build (the build uses both cores), a worker thread started
// by a full build for its duration (site/build/build-thread.ts, or `npm run build`'s one-file
// bundle: scripts/cli/build-main.ts). It parses notes from the back of the vault for the
// build (which parses from the front, until they meet), makes the search index's base
// files from the documents the build sends while it plans (search-job.ts), then renders
// the pages the build hands it: their views, made by the build from its one model, through
// this thread's own templates into the same staging folder. It keeps no model of its own: a
// full build holds the vault once. If it fails, the build does its share itself.
import { setImmediate as yieldToIo } from 'node:timers/promises';
import { parentPort } from 'node:worker_threads';
import { packRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { NoteReader } from '../../shared/model/note-reader.ts';
import { setStrictLineBreaks } from '../../shared/note/line-breaks.ts';
import type { PageFinish, PageRenderer } from '../render/page-render.ts';
import type { BuildThreadReply, BuildThreadRequest, BuildThreadSetup } from './build-thread-protocol.ts';
import type { RenderData } from '../render/render-state.ts';

// What reading does not need is loaded once the build thread has said it is ready: it can
// take notes to parse sooner.
const later = async () => {
  const [render, snapshot] = await Promise.all([import('../render/page-render.ts'), import('../render/snapshot-page.ts')]);
  return { ...render, ...snapshot };
};
let modules: ReturnType<typeof later> | null = null;

let setup: BuildThreadSetup | null = null;
let reader: NoteReader | null = null;
let renderer: PageRenderer | null = null;
let sending = true;
/** Chunks the build wants: two to begin with (it asks for each next one as one arrives). */
let asked = 2;
let site: RenderData['site'] = null;
let finish: PageFinish | undefined;
let chain: Promise<void> = Promise.resolve();

const reply = (message: BuildThreadReply) => parentPort!.postMessage(message);
const newRenderer = async () => new (await modules!).PageRenderer({ theme: setup!.config.siteTheme, eleventyConfig: setup!.config.siteEleventyConfig });

/** Chunks parsed, from the back of the list, not yet sent. */
const chunks: { from: number; to: number; records: NoteRecord[] }[] = [];

/** Sends parsed chunks, in order, as far as the build asked for them; a record sent is let go. */
function pump(): void {
  while (sending && asked > 0 && chunks.length > 0) {
    asked--;
    const { from, to, records } = chunks.shift()!;
    reply({ type: 'records', from, to, records: records.map(packRecord) });
  }
}

/** Parses the vault from the back until the build, parsing from the front, has the rest. */
async function parseFromBack(): Promise<void> {
  const { notes, readChunk } = setup!;
  for (let to = notes.length; to > 0 && sending; to -= readChunk) {
    const from = Math.max(0, to - readChunk);
    chunks.push({ from, to, records: reader!.readMany(notes.slice(from, to)) });
    pump();
    // Between chunks: the build's requests come in.
    await yieldToIo();
  }
}

async function handle(request: BuildThreadRequest): Promise<void> {
  switch (request.type) {
    case 'setup': {
      setup = request.setup;
      const { config } = setup;
      setStrictLineBreaks(setup.strictLineBreaks);
      reader = new NoteReader({ vaultDir: config.vaultDir, dataDir: config.dataDir, useGit: false });
      await reader.prepare(true);
      reply({ type: 'ready' });
      // Loaded now, used at the first frame. (No assets made here: the frame carries their addresses.)
      modules = later();
      void parseFromBack().catch((err) => reply({ type: 'failed', error: (err as Error)?.stack ?? String(err) }));
      return;
    }
    case 'more':
      asked++;
      pump();
      return;
    case 'stop':
      sending = false;
      chunks.length = 0;
      reader = null;
      return;
    case 'search': {
      const { baseFiles } = await import('../plan/search-base.ts');
      reply({ type: 'searched', files: baseFiles(request.docs) });
      // The build plans the site meanwhile: Eleventy is loaded now, not when its first pages come.
      await (renderer ??= await newRenderer()).warm();
      return;
    }
    case 'frame': {
      const m = await modules!;
      renderer ??= await newRenderer();
      site = request.site;
      finish = request.snapshot ? m.snapshotFinish(request.snapshot.siteUrl) : undefined;
      return;
    }
    case 'render': {
      await renderer!.renderViewsInto(setup!.stage, { ...request.pages, site }, finish);
      reply({ type: 'rendered', id: request.id });
      return;
    }
  }
}

/** Serves the build that started this thread, one request after another. */
export function serveBuildThread(): void {
  parentPort!.on('message', (request: BuildThreadRequest) => {
    chain = chain.then(() =>
      handle(request).catch((err) => {
        reply({ type: 'failed', error: (err as Error)?.stack ?? String(err) });
      }),
    );
  });
}
