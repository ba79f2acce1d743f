// The public side: the gate, then the built site. Each answer is a prepared page
// (site/serve/page-source.ts: bytes per base URL and encoding, ready before the
// request) or a file sent by sirv (site/serve/site-files.ts); vault and settings
// changes go to the build process.
import { promises as fs, watch, type FSWatcher } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import type { Config } from '../shared/config.ts';
import type { CreatedStore } from '../shared/created-store.ts';
import { dataPath, DATA_FILES } from '../shared/data-path.ts';
import { log } from '../shared/log.ts';
import { encodeAddress, decodeRequestPath } from '../shared/model/addresses.ts';
import { createSettingsReader, siteSettingsOf } from '../shared/settings.ts';
import type { VaultEvents } from '../shared/vault-events.ts';
import { stylesheetAddresses } from './render/assets.ts';
import { BuilderClient } from './build/builder-client.ts';
import { SEARCH_BASE_LATER_MIN_NOTES, SERVER_BUILD_THREAD_MIN_NOTES } from './build/build-heap.ts';
import { retractedWhileDown, currentKey, readGeneration, servedEntries, type GenerationState } from './write/generation.ts';
import type { BuildResult } from './build/site-builder.ts';
import type { PostItem, PostQuery, PostRef } from '../shared/model/posts.ts';
import type { BuildWarning } from '../shared/model/build-warnings.ts';
import { requestBaseUrl } from './serve/base-url.ts';
import { commentFailurePage, type CommentFailure } from './serve/comment-failure.ts';
import { Favicon } from './serve/favicon.ts';
import { privateGate } from './serve/gate.ts';
import { PageCache } from './serve/page-cache.ts';
import { NOT_FOUND_KEY, PageSource } from './serve/page-source.ts';
import { cacheControl, IMMUTABLE } from './serve/page-headers.ts';
import { CUSTOM_CSS_ADDRESS, customCssAddress, customCssLink, customCssVersion } from './plan/custom-css.ts';
import { sendPrepared } from './serve/prepared.ts';
import type { NoticeKind } from './serve/substitute.ts';
import { pageSecurityHeaders } from './serve/security-headers.ts';
import { SiteFiles } from './serve/site-files.ts';
import { SiteIndex } from './serve/site-index.ts';
import { SettleAfterBuilds } from '../shared/heap-settle.ts';
import { useVaultLineBreaks, watchLineBreaks } from '../shared/obsidian-app.ts';

export interface PublicServerOptions {
  config: Config;
  /** Supplied by the composer: does this request carry an admin session? */
  isAdmin: (req: IncomingMessage) => boolean;
  /** The vault's change bus: each change rebuilds what depends on it. */
  events?: VaultEvents;
  /** Absolute folders never published (an in-vault data directory). */
  skipDirs?: string[];
  /** created.json, filled from git's history at each full build (spec D.2). */
  created?: CreatedStore;
  /** Where builds are written (default: `<SERVICE_DATA>/public-site`). */
  outRoot?: string;
  /** Bytes of prepared pages kept in memory. */
  cacheBytes?: number;
  /**
   * Told each time a visitor is sent a page (its address): the comment form's 2 s rule
   * measures a form post without a script from when its page was sent (CONTRACT §8).
   */
  pageSent?: (address: string, req: IncomingMessage) => void;
}

export interface PublicServer {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Resolves once the first full build is live. */
  ready: Promise<void>;
  /** Resolves once every change seen so far is live. */
  idle(): Promise<void>;
  /** GET /api/posts, from the build process's model (the one model in memory). */
  posts(): Promise<PostItem[]>;
  /** The published post a comment or mention names, or null (a draft and a missing note alike). */
  post(query: PostQuery): Promise<PostRef | null>;
  /** The newest build's warnings, once the changes seen so far are built or `waitMs` has passed. */
  warnings(waitMs: number): Promise<readonly BuildWarning[]>;
  /** A note's approved comments or mentions changed: resolves once its pages are live. */
  discussionChanged(notePath: string): Promise<void>;
  /** The page answering a comment form posted without a script and refused, in the site's language. */
  commentFailurePage(failure: Omit<CommentFailure, 'language'>): Promise<string>;
  /** The admin moved a note or folder (vault paths): its old addresses answer 301 (CONTRACT §7). */
  moved(from: string, to: string): void;
  /** The stylesheets every page links, in order, and KaTeX's (pages with math): the admin's preview links them too. */
  stylesheets(): Promise<{ page: string[]; katex: string }>;
  close(): Promise<void>;
}

const FIRST_BUILD_WAIT_MS = 120_000;

/** `?comment=pending|approved`: the visitor comes back from the comment form (CONTRACT §8). */
function noticeOf(query: string): NoticeKind | null {
  if (!query.includes('comment=')) return null;
  const v = new URLSearchParams(query).get('comment');
  return v === 'pending' || v === 'approved' ? v : null;
}
// Prepared pages held compressed (prepared.ts): 16 MB held about 1,400 of a realistic
// 10,000-note site's pages, where 32 MB with every page's plain bytes held about 900.
const DEFAULT_CACHE_BYTES = 16 * 1024 * 1024;

export function createPublicServer(options: PublicServerOptions): PublicServer {
  const { config } = options;
  const index = new SiteIndex();
  const cache = new PageCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  const source = new PageSource(index, cache, { fixedBase: config.siteUrl !== null, siteUrl: config.siteUrl, pageExtra: pageSecurityHeaders(), isPublic: config.isPublic });
  const restyle = () => source.restyle(customCssLink(customCssAddress(config.dataDir)));
  restyle();
  const favicon = new Favicon(config.vaultDir, config.isPublic);
  const readSettings = createSettingsReader(config.dataDir);
  const files = new SiteFiles(config.isPublic);
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  /** Whether visitors are served (false until the first build, or a held generation's catch-up, is live). */
  let serving = false;
  const settler = new SettleAfterBuilds();
  const onBuilt = (result: BuildResult, remembered = false, live = true) => {
    index.apply(result);
    // Collected once the pages it changed are prepared again: a full build's take seconds.
    void source.applied(result).then((whole) => settler.built(whole));
    if (result.full && !remembered) log.info(`public site built: ${result.rendered} outputs in ${result.ms} ms`);
    if (result.gitCreated?.length) void options.created?.rememberEarliest(result.gitCreated);
    if (!live) return;
    serving = true;
    markReady();
  };
  const outRoot = options.outRoot ?? dataPath(config.dataDir, DATA_FILES.publicSite);
  let firstBuildFailed = false;
  const client = new BuilderClient({
    onFailed: () => {
      firstBuildFailed = !serving;
    },
    builder: { config, outRoot, skipDirs: options.skipDirs, remember: true, buildThreadFrom: SERVER_BUILD_THREAD_MIN_NOTES, searchBaseLaterFrom: SEARCH_BASE_LATER_MIN_NOTES },
    onBuilt: (result) => {
      const read = result.notes ? ` (${result.notes.parsed} of ${result.notes.of} notes read again)` : '';
      if (resumed && !result.full) log.info(`public site brought up to date: ${result.rendered} outputs changed in ${result.ms} ms${read}`);
      resumed = false;
      onBuilt(result);
    },
  });
  // Restarts are instant: the last good generation (same vault, code and settings) is
  // served at once while the builder brings it up to date in the background.
  let resumed = false;
  const remembered = rememberedGeneration(config, outRoot);
  if (remembered) {
    resumed = true;
    // A published note unpublished or gone while the server was down shows in the old
    // generation: it waits for the catch-up pass before a visitor sees it.
    const { result, retracted } = remembered;
    onBuilt(result, true, retracted === 0);
    if (retracted === 0) log.info(`serving the last site generation (${result.entries!.length} addresses) while it is brought up to date`);
    else log.info(`${retracted} published ${retracted === 1 ? 'note was' : 'notes were'} unpublished or removed while the server was down: the last site generation is served once it is brought up to date`);
    client.resume();
  } else client.full();
  // The builder reads the vault's line breaks as it starts; the server judges its pages by them.
  const lineBreaks = watchLineBreaks(config.vaultDir, (strict) => {
    log.info(`the vault's Strict line breaks is now ${strict ? 'on' : 'off'}: every page is made again`);
    useVaultLineBreaks(config.vaultDir);
    client.restart();
  });
  const unsubscribe = options.events?.onChange((change) => {
    favicon.changed(change.path);
    client.changed(change.path);
  });
  // Settings (site name, home mode, collections…) live in settings.json, rewritten atomically.
  let settingsWatch: FSWatcher | null = null;
  let stylesheets: Promise<{ page: string[]; katex: string }> | null = null;
  try {
    settingsWatch = watch(config.dataDir, (_event, name) => {
      if (name === DATA_FILES.settings) client.changed('');
      // The designer's custom.css is linked by its content's address, filled in as pages are served.
      else if (name === DATA_FILES.customCss) restyle();
    });
    settingsWatch.on('error', () => {});
  } catch (err) {
    log.warn(`settings changes will not reach the public site until a restart: ${(err as Error).message}`);
  }

  // Request paths decode the same every time: remember the last few thousand.
  const decodedPaths = new Map<string, string | null>();
  function decoded(pathname: string): string | null {
    let address = decodedPaths.get(pathname);
    if (address === undefined) {
      address = decodeRequestPath(pathname);
      if (decodedPaths.size >= 4096) decodedPaths.clear();
      decodedPaths.set(pathname, address);
    }
    return address;
  }

  function notFound(req: IncomingMessage, res: ServerResponse, base: string, admin: boolean): void {
    const entry = index.get(NOT_FOUND_KEY);
    const page = entry ? source.now(base, NOT_FOUND_KEY, entry) : null;
    if (page) return sendPrepared(req, res, page, admin);
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found\n');
  }

  /** Until the first build is live: wait for it a while, or say why not. */
  async function firstBuild(res: ServerResponse): Promise<boolean> {
    if (!firstBuildFailed) {
      const timeout = new Promise<'late'>((r) => setTimeout(() => r('late'), FIRST_BUILD_WAIT_MS).unref());
      if ((await Promise.race([ready.then(() => 'ok' as const), timeout])) === 'ok') return true;
    }
    res.writeHead(503, { 'retry-after': '5', 'content-type': 'text/plain; charset=utf-8' });
    res.end(firstBuildFailed ? 'The site could not be built yet; the server log says why. Try again in a moment.\n' : 'The site is being built. Try again in a moment.\n');
    return false;
  }

  function serve(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    const raw = req.url ?? '/';
    const q = raw.indexOf('?');
    const pathname = q < 0 ? raw : raw.slice(0, q);
    const admin = options.isAdmin(req);
    if (!config.isPublic && !admin) {
      privateGate(pathname, req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed\n');
      return;
    }
    if (pathname === CUSTOM_CSS_ADDRESS) return sendCustomCss(req, res, q < 0 ? null : new URLSearchParams(raw.slice(q + 1)).get('v'), config);
    if (!serving) return firstBuild(res).then((ok) => (ok ? serve(req, res) : undefined));
    const base = requestBaseUrl(req, config.siteUrl);
    const address = decoded(pathname);
    if (address === null) return notFound(req, res, base, admin);
    let key: string = address;
    // The language filter's variants of the feeds (the site's and each topic's) and the sitemap.
    if ((address.endsWith('/feed.xml') || address === '/sitemap.xml') && q >= 0) {
      const lang = new URLSearchParams(raw.slice(q + 1)).get('lang');
      if (lang && index.get(`${address}?lang=${lang}`)) key = `${address}?lang=${lang}`;
    }
    const entry = address === NOT_FOUND_KEY ? undefined : index.get(key);
    if (entry) {
      if (entry.type === 'file') return files.send(req, res, index.dir!, entry.file, () => notFound(req, res, base, admin));
      // Bytes ready (the common case) or prepared now: nothing awaited either way.
      const page = source.now(base, key, entry);
      if (!page) return notFound(req, res, base, admin);
      if (entry.type === 'html' && !admin) options.pageSent?.(address, req);
      return sendPrepared(req, res, page, admin, q >= 0 && entry.type === 'html' ? noticeOf(raw.slice(q + 1)) : null);
    }
    if (address === '/favicon.ico') return favicon.get().then((page) => sendPrepared(req, res, page));
    // CONTRACT §7: a permalink's own address, or a published note's old one, answers 301.
    const moved = index.redirect(address);
    if (moved) {
      res.writeHead(301, { location: encodeAddress(moved) + (q < 0 ? '' : raw.slice(q)), 'cache-control': cacheControl('no-cache', config.isPublic) });
      res.end();
      return;
    }
    // Wrong case, spaces or a trailing slash: send the visitor to the one real address.
    const canonical = index.canonical(address);
    if (canonical && canonical !== address && canonical !== NOT_FOUND_KEY) {
      res.writeHead(301, { location: encodeAddress(canonical) + (q < 0 ? '' : raw.slice(q)), 'cache-control': cacheControl('no-cache', config.isPublic) });
      res.end();
      return;
    }
    return notFound(req, res, base, admin);
  }

  /** Where the 301s from `address` end (moved, then canonical spelling, a few hops at most); null when none leads to a page. */
  function landingAddress(address: string): string | null {
    let at = address;
    for (let hop = 0; hop < 4; hop++) {
      const next = index.redirect(at) ?? index.canonical(at);
      if (!next || next === at || next === NOT_FOUND_KEY) return null;
      if (index.get(next)) return next;
      at = next;
    }
    return null;
  }

  function fail(res: ServerResponse, err: unknown): void {
    log.error(`public page failed: ${(err as Error)?.stack ?? err}`);
    if (!res.headersSent) {
      res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('Something went wrong.\n');
    } else res.destroy();
  }

  return {
    handle(req, res) {
      try {
        const pending = serve(req, res);
        if (pending) pending.catch((err) => fail(res, err));
      } catch (err) {
        fail(res, err);
      }
    },
    ready,
    idle: () => client.idle(),
    // This server's own writes so far are announced first, so a saved post is listed at once.
    posts: async () => {
      await options.events?.settled();
      return client.posts();
    },
    post: async (query) => {
      await options.events?.settled();
      const found = await client.post(query);
      if (found || !('address' in query)) return found;
      // An address a visitor is sent on from with a 301 names the post they land on (a
      // webmention's target with a trailing slash, other case, or a moved note's old address).
      const landing = landingAddress(query.address);
      return landing ? client.post({ address: landing }) : null;
    },
    warnings: async (waitMs) => {
      const settled = (async () => {
        await options.events?.settled();
        await client.idle();
      })();
      await Promise.race([settled, new Promise((r) => setTimeout(r, waitMs).unref())]);
      return client.warnings();
    },
    discussionChanged: (notePath) => {
      client.discussionChanged(notePath);
      return client.idle();
    },
    commentFailurePage: async (failure) => {
      const settings = await readSettings().catch(() => null);
      return commentFailurePage({ ...failure, language: settings ? siteSettingsOf(settings, config).language : (config.siteLang ?? 'en') });
    },
    moved: (from, to) => client.moved(from, to),
    // As frame.njk links them: the blog's, then the designer's custom.css.
    stylesheets: () => (stylesheets ??= stylesheetAddresses().then(({ css, katex }) => ({ page: [css, CUSTOM_CSS_ADDRESS], katex }))),
    async close() {
      unsubscribe?.();
      settler.close();
      settingsWatch?.close();
      lineBreaks.close();
      await client.close();
    },
  };
}

/** The remembered generation as a build result, when it matches this vault, code and settings, and how many of its published notes were unpublished or removed since. */
function rememberedGeneration(config: Config, outRoot: string): { result: BuildResult; retracted: number } | null {
  let state: GenerationState | null;
  // Judged by the vault's line breaks as they are now, as the builder starting beside it makes pages.
  useVaultLineBreaks(config.vaultDir);
  try {
    state = readGeneration(outRoot, currentKey(config));
  } catch {
    state = null;
  }
  if (!state) return null;
  const entries = servedEntries(state);
  return {
    result: { full: true, dir: path.join(outRoot, state.dir), entries, upserts: entries, removals: [], nav: state.nav, rendered: 0, ms: 0 },
    retracted: retractedWhileDown(config.vaultDir, state),
  };
}

/** custom.css from the data directory (the designer's stylesheet), or an empty one; kept for good under the address naming its content. */
async function sendCustomCss(req: IncomingMessage, res: ServerResponse, version: string | null, config: Config): Promise<void> {
  const css = await fs.readFile(dataPath(config.dataDir, DATA_FILES.customCss)).catch(() => Buffer.alloc(0));
  const current = version !== null && version === customCssVersion(css);
  res.writeHead(200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': cacheControl(current ? IMMUTABLE : 'no-cache', config.isPublic), 'content-length': css.length });
  res.end(req.method === 'HEAD' ? undefined : css);
}
