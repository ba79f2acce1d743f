// A full build uses both cores. Its build thread parses notes from the back
// of the vault, plans the very site the build plans and renders the page ranges it is
// given; the files a build writes with a build thread are exactly those it writes without.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.ts';
import { log } from '../../shared/log.ts';
import { unpackRecord, type NoteRecord } from '../../shared/model/note-record.ts';
import { NoteReader } from '../../shared/model/note-reader.ts';
import { defaultSettings } from '../../shared/settings.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { VaultEntries } from '../../shared/vault-walk.ts';
import { AttachmentIndex } from '../../site/read/attachments.ts';
import { BUILD_THREAD_MIN_NOTES } from '../../site/build/full-build.ts';
import { isTemplated, PageRenderer } from '../../site/render/page-render.ts';
import { buildAssets } from '../../site/render/assets.ts';
import { BuildThreadLink } from '../../site/build/build-thread-link.ts';
import type { BuildThreadReply } from '../../site/build/build-thread-protocol.ts';
import { planVault } from '../../site/plan/plan-vault.ts';
import { baseFiles } from '../../site/plan/search-base.ts';
import { searchableNotes, searchDocOf } from '../../site/plan/search-docs.ts';
import { searchOnBuildThread } from '../../site/plan/search-job.ts';
import { generateVault, notePath, noteText } from '../../scripts/bench/_vault.ts';
import { childEnv, PROJECT_DIR } from '../helpers/server.ts';
import { fixtureScript } from '../helpers/fixture-process.ts';
import { cleanupTempDirs, tempDir, treeOf, writeFiles } from '../helpers/tmp.ts';

afterAll(cleanupTempDirs);
log.setQuiet(true);

interface BuildRun {
  dir: string;
  threads: number;
  /** Notes the build took from the build thread's parsing. */
  parsed: number;
  /** Page ranges the build thread rendered. */
  rendered: number;
}

/** A full build in a child process (test/fixtures/build/full-build.ts): the folder it wrote and what its build thread did. */
function fullBuildRun(vault: string, outRoot: string, threadMode: 'yes' | 'no' | 'server', siteUrl: string | null): BuildRun {
  const out = execFileSync(process.execPath, [fixtureScript('full-build'), vault, outRoot, threadMode, siteUrl ?? '-'], { cwd: PROJECT_DIR, env: childEnv({}), encoding: 'utf8', timeout: 300_000 });
  const count = (name: string) => Number(new RegExp(`${name}: (\\d+)`).exec(out)?.[1]);
  return { dir: out.trim().split('\n').pop()!, threads: count('build threads started'), parsed: count('build thread parsed'), rendered: count('build thread rendered') };
}

/**
 * Notes of the shared vault: past BUILD_THREAD_MIN_NOTES, so a build starts a build thread unless told
 * otherwise. Most are drafts: parsed by both sides as any note, while the pages (most of a
 * build's time) are those of a few hundred published ones.
 */
const NOTES = BUILD_THREAD_MIN_NOTES + 200;
/** Ten notes in every eighty keep the generator's publish flag (each ten a run of its variety). */
const keepsFlag = (i: number) => Math.floor(i / 10) % 8 === 0;
const PUBLISHED = Array.from({ length: NOTES }, (_, i) => i).filter((i) => keepsFlag(i) && /^publish: true$/m.test(noteText(i, NOTES))).length;

let bigVault: Promise<string> | undefined;
/** The shared vault, made once for the file: no test writes into it. */
const threadVault = () =>
  (bigVault ??= (async () => {
    const vault = await tempDir('vs-full-');
    const files: Record<string, string> = {};
    for (let i = 0; i < NOTES; i++) {
      const text = noteText(i, NOTES);
      files[notePath(i)] = keepsFlag(i) ? text : text.replace(/^publish: true$/m, 'publish: false');
    }
    // An attachment a published note shows, and a note dated by nothing but its file.
    files['Folder 0/pic.png'] = 'png bytes';
    files['Undated.md'] = '---\npublish: true\n---\nNo date here. ![[pic.png]]\n';
    await writeFiles(vault, files);
    return vault;
  })());
const bigBuilds = new Map<string, BuildRun>();
/** A full build of that vault, run once for the file: the tests only read the folder it wrote. */
async function bigBuild(threadMode: 'yes' | 'no' | 'server', siteUrl: string | null): Promise<BuildRun> {
  const key = `${threadMode} ${siteUrl ?? '-'}`;
  const vault = await threadVault();
  if (!bigBuilds.has(key)) bigBuilds.set(key, fullBuildRun(vault, await tempDir('vs-full-out-'), threadMode, siteUrl));
  return bigBuilds.get(key)!;
}

async function vaultWith(notes: number): Promise<string> {
  const vault = await tempDir('vs-full-');
  await generateVault(vault, notes);
  return vault;
}

describe('a full build with a build thread', () => {
  it('writes exactly the files a build without one writes (snapshot and server builds)', async () => {
    // Without a site URL the build without a build thread is the server's builder's: it starts none at this size (the next test).
    for (const [siteUrl, without] of [['https://full.example/blog', 'no'], [null, 'server']] as const) {
      const shared = await bigBuild('yes', siteUrl);
      const single = await bigBuild(without, siteUrl);
      expect([shared.threads, single.threads]).toEqual([1, 0]);
      // The build thread's share is in the files compared: notes it parsed and pages it rendered.
      expect(shared.parsed).toBeGreaterThan(0);
      expect(shared.rendered).toBeGreaterThan(1);
      const [both, alone] = [treeOf(shared.dir), treeOf(single.dir)];
      expect(both.size).toBeGreaterThan(PUBLISHED);
      expect([...both.keys()].sort()).toEqual([...alone.keys()].sort());
      for (const [file, bytes] of alone) expect(both.get(file), file).toBe(bytes);
    }
  }, 240_000);
});

describe("the server's builder", () => {
  it('builds alone below SERVER_BUILD_THREAD_MIN_NOTES (a build thread would hold about 90 MB beside the starting server), with the same files', async () => {
    const server = await bigBuild('server', null);
    expect(server.threads).toBe(0);
    // The same vault built as `npm run build` would be starts one.
    const shared = await bigBuild('yes', null);
    expect(shared.threads).toBe(1);
    const [alone, both] = [treeOf(server.dir), treeOf(shared.dir)];
    expect([...alone.keys()].sort()).toEqual([...both.keys()].sort());
  }, 240_000);
});

describe('the build thread', () => {
  it('parses from the back for the build, and renders the views it is given as the build would, holding no model', async () => {
    const vault = await threadVault();
    const root = await tempDir('vs-build-thread-');
    const config = loadConfig({ VAULT: vault, SERVICE_DATA: path.join(root, 'data'), PUBLIC_LAYOUT: 'blog' }, []);
    const notes = (await new VaultEntries(vault).notes()) as VaultPath[];
    const stage = path.join(root, 'thread-stage');
    const thread = new BuildThreadLink({ config, base: '', stage, notes, readChunk: 250, strictLineBreaks: false });
    const replies: BuildThreadReply[] = [];
    thread.on((r) => replies.push(r));
    const next = async <T extends BuildThreadReply['type']>(type: T): Promise<Extract<BuildThreadReply, { type: T }>> => {
      for (;;) {
        const found = replies.findIndex((r) => r.type === type || r.type === 'failed');
        if (found >= 0) {
          const reply = replies.splice(found, 1)[0]!;
          if (reply.type === 'failed') throw new Error(reply.error);
          return reply as Extract<BuildThreadReply, { type: T }>;
        }
        if (thread.lost) throw new Error('the build thread was lost: ' + JSON.stringify(replies));
        await thread.changed();
      }
    };
    try {
      // Two chunks of 250 come unasked, from the back of the list.
      const first = await next('records');
      const second = await next('records');
      expect([first.from, first.to, second.from, second.to]).toEqual([notes.length - 250, notes.length, notes.length - 500, notes.length - 250]);
      const theirs = [...first.records, ...second.records].map(unpackRecord);
      expect(theirs.map((r) => r.path).sort()).toEqual(notes.slice(notes.length - 500).sort());

      // This side parses the rest, stops the build thread's reading and plans the site, alone.
      const reader = new NoteReader({ vaultDir: vault, dataDir: config.dataDir, useGit: false });
      await reader.prepare(true);
      const mine: NoteRecord[] = reader.readMany(notes.slice(0, notes.length - 500));
      thread.send({ type: 'stop' });
      const attachments = new AttachmentIndex(vault);
      await attachments.loadAll();
      const plan = planVault({ records: [...mine, ...theirs], attachments, settings: defaultSettings(), config, base: '', assets: (await buildAssets()).assets, now: new Date() });
      const templated = [...plan.pages.values()].filter(isTemplated);

      // Pages whose views are made here are rendered there as the same bytes a whole build writes.
      const renderer = new PageRenderer();
      thread.send({ type: 'frame', site: JSON.parse(JSON.stringify(await renderer.siteOf(plan))), snapshot: null });
      const { site: _site, ...views } = await renderer.viewsOf(plan, templated.slice(10, 60));
      thread.send({ type: 'render', id: 7, pages: views });
      expect((await next('rendered')).id).toBe(7);
      // The search base's files, made there from the documents while this side plans, are the ones made here.
      const docs = searchableNotes(plan.ctx).map(searchDocOf);
      expect(docs.length).toBeGreaterThan(PUBLISHED / 2);
      expect(await searchOnBuildThread(thread, docs)).toEqual(baseFiles(docs));

      const there = treeOf(stage);
      const single = await bigBuild('server', null);
      expect(single.threads).toBe(0);
      const whole = treeOf(single.dir);
      expect([...there.keys()].sort()).toEqual(templated.slice(10, 60).map((p) => p.file).sort());
      for (const [file, bytes] of there) expect(bytes, file).toBe(whole.get(file));
    } finally {
      thread.close();
    }
  }, 120_000);

  it('a build thread lost before it answers the search job answers null: the build makes the files itself', async () => {
    const vault = await vaultWith(10);
    const root = await tempDir('vs-build-thread-');
    const config = loadConfig({ VAULT: vault, SERVICE_DATA: path.join(root, 'data'), PUBLIC_LAYOUT: 'blog' }, []);
    const thread = new BuildThreadLink({ config, base: '', stage: path.join(root, 'stage'), notes: [], readChunk: 250, strictLineBreaks: false });
    // Sent before the thread has even loaded its code, then the thread is stopped.
    const searched = searchOnBuildThread(thread, [{ title: 'A', headings: '', tags: '', text: 'words' }]);
    thread.close();
    expect(await searched).toBeNull();
  });

  it('is not given a search job over SEARCH_JOB_MAX_CHARS of text (its heap is capped): the build makes the files itself', async () => {
    const vault = await vaultWith(10);
    const root = await tempDir('vs-build-thread-');
    const config = loadConfig({ VAULT: vault, SERVICE_DATA: path.join(root, 'data'), PUBLIC_LAYOUT: 'blog' }, []);
    const thread = new BuildThreadLink({ config, base: '', stage: path.join(root, 'stage'), notes: [], readChunk: 250, strictLineBreaks: false });
    try {
      const docs = [{ title: 'A', headings: '', tags: '', text: 'words' }];
      expect(await searchOnBuildThread(thread, docs, 5)).toBeNull();
      // Within the bound, the same build thread answers.
      expect(await searchOnBuildThread(thread, docs, 6)).toEqual(baseFiles(docs));
    } finally {
      thread.close();
    }
  });
});
