// The blog benchmark's server half: the real server (`npm start`) on a vault, the time from
// one note's save through the API until the pages that show it serve the new text, the
// peak memory of the server and its build processes, and the time a second start (with
// the first start's build kept) takes to serve an article.
import { BENCH_LAYOUT } from './_tools.ts';
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { noteAddress } from '../../shared/model/addresses.ts';
import type { VaultPath } from '../../shared/vault-path.ts';
import { PollClient } from './_poll-client.ts';
import { freePort, npmStart, signIn, until200, waitForLine, type Service } from './_service.ts';
import { watchGroupMemory, type PhasePeak } from './_tools.ts';

export interface EditPlan {
  label: string;
  /** Vault paths edited in turn, `times` edits in all; `top` is the first post the home page lists. */
  notes: string[] | 'top';
  times: number;
  /** The home page and the feed must show the edit too, if the home page lists the note (a post among the newest). */
  listed: boolean;
  /**
   * Each edit adds a new note beside the edited one, named to sort right after it: done when
   * its page serves and the edited note's page lists it in its explorer (the garden).
   */
  adds?: boolean;
}

export interface ServerRun {
  latencies: Map<string, number[]>;
  /** Plans whose note the home page (the garden: the feed) did not list, so only its article was checked. */
  unlisted: string[];
  peakMB: number;
  groupMB: number;
  /** Each phase's peak (first build, search base, each plan's saves), to tell when the peak came. */
  phases: PhasePeak[];
  /** The first start's full build, as its log says, for each first start. */
  firstBuildMs: number[];
  /** From the first start until the search manifest no longer says `preparing`. */
  searchReadyMs: number;
  /** First start on an empty data folder → the first edited note's article answers, for each first start. */
  firstArticleMs: number[];
  /** Second start, the first one's build kept → the same article answers. */
  restartArticleMs: number;
  /** A save made as soon as that article answers → the article shows it (it waits for the catch-up pass). */
  restartSaveMs: number;
}

/** The public URL path of a note (as the site addresses it), percent-encoded. */
export function articleUrl(notePath: string): string {
  return noteAddress(notePath as VaultPath).split('/').map(encodeURIComponent).join('/');
}

/** Saves `content` as `note` through the admin API, signed in with `cookie`. */
async function putNote(url: string, cookie: string, note: string, content: string): Promise<void> {
  const put = await fetch(`${url}/api/note?path=${encodeURIComponent(note)}`, { method: 'PUT', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ content }) });
  if (put.status !== 200) throw new Error(`save of ${note} failed: ${put.status} ${await put.text()}`);
}

/** Signs in to `url` (on `port`) and saves `note` with a new token in it: the milliseconds until its article at `route` shows the token. */
async function savedUntilShown(url: string, port: number, vault: string, note: string, route: string): Promise<number> {
  const cookie = await signIn(url);
  const token = `EDIT-TOKEN-R-${Date.now()}`;
  const content = withToken((await fs.readFile(path.join(vault, note), 'utf8')).replace(/EDIT-TOKEN-\S+ /, ''), token);
  // Revalidated, as the other saves' polls are: a download of the page every few milliseconds took CPU from the pass timed.
  const poller = new PollClient(port);
  try {
    const started = performance.now();
    await putNote(url, cookie, note, content);
    let etag: string | null = null;
    for (;;) {
      const res = await poller.get(route, etag);
      if (res.status !== 304) {
        etag = res.etag;
        if (res.body.includes(token)) return performance.now() - started;
      }
      if (performance.now() - started > 120_000) throw new Error(`the save of ${note} never showed up at ${route}`);
      await new Promise((r) => setTimeout(r, 3));
    }
  } finally {
    poller.close();
  }
}

/** The first paragraph after the frontmatter gets `token` in front: it is in the article, the excerpt and the feed. */
function withToken(text: string, token: string): string {
  return text.replace(/\n\n(\S)/, `\n\n${token} $1`);
}

/** The note the home page lists first (the newest post, whatever the server takes as a date). */
function topOfHome(home: string, notes: string[]): string {
  const byUrl = new Map(notes.map((n) => [articleUrl(n), n]));
  for (const m of home.matchAll(/href="([^"#?]+)"/g)) {
    const note = byUrl.get(m[1]!);
    if (note) return note;
  }
  throw new Error('the home page lists no note');
}

/** The note a feed lists first (its links made root-relative). */
function topOfFeed(feed: string, notes: string[]): string {
  const byUrl = new Map(notes.map((n) => [articleUrl(n), n]));
  for (const m of feed.matchAll(/<item>[\s\S]*?<link>([^<]+)<\/link>/g)) {
    const note = byUrl.get(m[1]!);
    if (note) return note;
  }
  throw new Error('the feed lists no note');
}

async function untilSearchReady(url: string, since: number): Promise<number> {
  for (;;) {
    const manifest = (await (await fetch(url + '/search.json')).json()) as { preparing?: true };
    if (!manifest.preparing) return performance.now() - since;
    if (performance.now() - since > 900_000) throw new Error('the search index was never made');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The full build's time, from the server's log line saying it is done. */
async function builtMs(service: Service): Promise<number> {
  return Number((await waitForLine(service, /public site built: \d+ outputs in (\d+) ms/, 60_000))[1]);
}

/**
 * A first start on a data folder of its own → the article answers: its time and the full
 * build's, as the log says.
 */
async function firstStart(vault: string, data: string, article: string): Promise<[articleMs: number, buildMs: number]> {
  const started = performance.now();
  const service = npmStart(vault, data, await freePort());
  try {
    const articleMs = await until200(service.url + article, started, 900_000, 50);
    return [articleMs, await builtMs(service)];
  } finally {
    await service.stop();
  }
}

/**
 * `allNotes`: every note's vault path, to find the one the home page lists first.
 * `firstStarts`: how many first starts are timed (each on a data folder of its own; one
 * sample swung by a quarter on this machine): the first one's server then takes the saves.
 */
export async function runServer(vault: string, data: string, plans: EditPlan[], allNotes: string[], firstStarts = 1): Promise<ServerRun> {
  let started = performance.now();
  const port = await freePort();
  const service = npmStart(vault, data, port);
  const memory = watchGroupMemory(service.proc.pid!);
  try {
    await until200(service.url + '/', started, 900_000, 50);
    // The garden's home is its home note and its explorer lists notes by name: its newest post is the feed's first.
    const home = await (await fetch(service.url + '/')).text();
    const feed = BENCH_LAYOUT === 'blog' ? null : (await (await fetch(service.url + '/feed.xml')).text()).replace(/<link>[a-z]+:\/\/[^/<]+/g, '<link>');
    const top = feed === null ? topOfHome(home, allNotes) : topOfFeed(feed, allNotes);
    const article = articleUrl(top);
    const firstArticleMs = await until200(service.url + article, started, 900_000, 50);
    const firstBuildMs = await builtMs(service);
    memory.phase('search base');
    // A large vault's first build goes live before its search base (made at the first quiet moment):
    // saves are timed with the base there, as an owner meets them once the site has settled.
    const searchReadyMs = await untilSearchReady(service.url, started);
    const cookie = await signIn(service.url);
    const latencies = new Map<string, number[]>();
    // One kept-alive connection per page polled at once (the article, home and feed).
    const pollers = [0, 1, 2].map(() => new PollClient(port));
    const unlisted: string[] = [];
    for (const plan of plans) {
      const times: number[] = [];
      latencies.set(plan.label, times);
      memory.phase(`saves: ${plan.label}`);
      const notes = plan.notes === 'top' ? [top] : plan.notes;
      const listed = plan.listed && notes.every((n) => (feed === null ? home.includes(`href="${articleUrl(n)}"`) : feed.includes(`<link>${articleUrl(n)}</link>`)));
      if (plan.listed && !listed) unlisted.push(plan.label);
      for (let n = 0; n < plan.times; n++) {
        const note = notes[n % notes.length]!;
        const original = await fs.readFile(path.join(vault, note), 'utf8');
        const token = `EDIT-TOKEN-${n}-${Date.now()}`;
        // The garden's home is its home note, not a list of the newest posts.
        let routes = listed ? [articleUrl(note), ...(BENCH_LAYOUT === 'blog' ? ['/'] : []), '/feed.xml'] : [articleUrl(note)];
        let saved = note;
        let content = withToken(original.replace(/EDIT-TOKEN-\S+ /, ''), token);
        const checks = routes.map(() => token);
        if (plan.adds) {
          saved = note.replace(/(\.md)$/i, ` added ${n}-${Date.now()}$1`);
          content = `---\npublish: true\n---\n\n${token} A note added.\n`;
          routes = [articleUrl(saved), articleUrl(note)];
          checks.splice(0, checks.length, token, `href="${articleUrl(saved)}"`);
        }
        started = performance.now();
        await putNote(service.url, cookie, saved, content);
        // Revalidated as a browser does (If-None-Match): re-downloading the 636 KB index page every 3 ms
        // took the core the builder was working on, and a poll's cost is not the save's.
        const etags = routes.map((): string | null => null);
        const seen = routes.map(() => false);
        for (;;) {
          await Promise.all(
            routes.map(async (r, i) => {
              if (seen[i]) return;
              const res = await pollers[i]!.get(r, etags[i] ?? null);
              if (res.status === 304) return;
              etags[i] = res.etag;
              seen[i] = res.body.includes(checks[i]!);
            }),
          );
          if (seen.every(Boolean)) break;
          if (performance.now() - started > 30_000) throw new Error(`edit ${n} of ${note} never showed up at ${routes.join(', ')}`);
          await new Promise((r) => setTimeout(r, 3));
        }
        times.push(performance.now() - started);
        await new Promise((r) => setTimeout(r, 150));
      }
    }
    for (const p of pollers) p.close();
    await service.stop();
    const peak = await memory.stop();
    started = performance.now();
    const againPort = await freePort();
    const again = npmStart(vault, data, againPort);
    try {
      const restartArticleMs = await until200(again.url + article, started, 120_000, 10);
      const restartSaveMs = await savedUntilShown(again.url, againPort, vault, top, article);
      await again.stop();
      const firstArticles = [firstArticleMs];
      const firstBuilds = [firstBuildMs];
      // New folders, not the first one emptied: deleting thousands of files slows making them for minutes here.
      for (let k = 1; k < firstStarts; k++) {
        const [articleMs, buildMs] = await firstStart(vault, `${data}-first-${k}`, article);
        firstArticles.push(articleMs);
        firstBuilds.push(buildMs);
      }
      return { latencies, unlisted, peakMB: peak.serverAndBuilderMB, groupMB: peak.groupMB, phases: peak.phases, firstBuildMs: firstBuilds, firstArticleMs: firstArticles, searchReadyMs, restartArticleMs, restartSaveMs };
    } finally {
      await again.stop();
    }
  } finally {
    await service.stop();
    await memory.stop();
  }
}
