// The public side: the gate, then the built site. Pages are served from the
// build worker's latest output (sirv for files, per-request substitution for
// pages); vault and settings changes are sent to the worker as they happen.
import { promises as fs, watch, type FSWatcher } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import sirv from 'sirv';
import type { Config } from '../shared/config.ts';
import type { CreatedStore } from '../shared/created-store.ts';
import { log } from '../shared/log.ts';
import { encodeAddress, decodeRequestPath } from '../shared/model/addresses.ts';
import type { VaultEvents } from '../shared/vault-events.ts';
import { BuilderClient } from './build/builder-client.ts';
import type { BuildResult } from './build/site-builder.ts';
import { requestBaseUrl } from './serve/base-url.ts';
import { privateGate } from './serve/gate.ts';
import { sendPage } from './serve/pages.ts';
import { SiteIndex } from './serve/site-index.ts';

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
}

export interface PublicServer {
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** Resolves once the first full build is live. */
  ready: Promise<void>;
  /** Resolves once every change seen so far is live. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

const FIRST_BUILD_WAIT_MS = 120_000;

export function createPublicServer(options: PublicServerOptions): PublicServer {
  const { config } = options;
  const index = new SiteIndex();
  let files: ReturnType<typeof sirv> | null = null;
  let markReady!: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const onBuilt = (result: BuildResult) => {
    index.apply(result);
    if (result.full) {
      files = sirv(result.dir, { dev: true, etag: true, dotfiles: false, extensions: [] });
      log.info(`public site built: ${result.rendered} outputs in ${result.ms} ms`);
      if (result.gitCreated?.length) void options.created?.rememberEarliest(result.gitCreated);
    }
    markReady();
  };
  let firstBuildFailed = false;
  const client = new BuilderClient({
    onFailed: () => {
      firstBuildFailed = !index.ready;
    },
    builder: {
      config,
      outRoot: options.outRoot ?? path.join(config.dataDir, 'public-site'),
      skipDirs: options.skipDirs,
    },
    onBuilt,
  });
  client.full();
  const unsubscribe = options.events?.onChange((change) => client.changed(change.path));
  // Settings (site name, home mode, collections…) live in settings.json, rewritten atomically.
  let settingsWatch: FSWatcher | null = null;
  try {
    settingsWatch = watch(config.dataDir, (_event, name) => {
      if (name === 'settings.json') client.changed('');
    });
    settingsWatch.on('error', () => {});
  } catch (err) {
    log.warn(`settings changes will not reach the public site until a restart: ${(err as Error).message}`);
  }

  async function notFound(req: IncomingMessage, res: ServerResponse, subs: Parameters<typeof sendPage>[3]): Promise<void> {
    const entry = index.get('/404');
    if (entry && index.dir && (await sendPage(req, res, { abs: path.join(index.dir, entry.file), file: entry.file, type: 'html', status: 404 }, subs))) return;
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Not found\n');
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://x');
    const admin = options.isAdmin(req);
    if (!config.isPublic && !admin) {
      privateGate(url.pathname, req, res);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      res.end('Method not allowed\n');
      return;
    }
    if (url.pathname === '/custom.css') return sendCustomCss(req, res, config.dataDir);
    if (!index.ready && firstBuildFailed) {
      res.writeHead(503, { 'retry-after': '5', 'content-type': 'text/plain; charset=utf-8' });
      res.end('The site could not be built yet; the server log says why. Try again in a moment.\n');
      return;
    }
    if (!index.ready) {
      const timeout = new Promise<'late'>((r) => setTimeout(() => r('late'), FIRST_BUILD_WAIT_MS).unref());
      if ((await Promise.race([ready.then(() => 'ok' as const), timeout])) === 'late') {
        res.writeHead(503, { 'retry-after': '5', 'content-type': 'text/plain; charset=utf-8' });
        res.end('The site is being built. Try again in a moment.\n');
        return;
      }
    }
    const subs = { base: requestBaseUrl(req, config.siteUrl), nav: index.nav, admin };
    const address = decodeRequestPath(url.pathname);
    if (address === null) return notFound(req, res, subs);
    const lang = url.searchParams.get('lang');
    const key = (address === '/feed.xml' || address === '/sitemap.xml') && lang && index.get(`${address}?lang=${lang}`) ? `${address}?lang=${lang}` : address;
    const entry = address === '/404' ? undefined : index.get(key);
    if (entry && index.dir) {
      if (entry.type === 'file') {
        req.url = '/' + entry.file.split('/').map(encodeURIComponent).join('/');
        delete (req as { _parsedUrl?: unknown })._parsedUrl;
        return files!(req as never, res as never, () => void notFound(req, res, subs));
      }
      const sent = await sendPage(req, res, { abs: path.join(index.dir, entry.file), file: entry.file, type: entry.type, status: 200 }, subs);
      if (sent) return;
      return notFound(req, res, subs);
    }
    // Wrong case, spaces or a trailing slash: send the visitor to the one real address.
    const canonical = index.canonical(address);
    if (canonical && canonical !== address && canonical !== '/404') {
      res.writeHead(301, { location: encodeAddress(canonical) + url.search, 'cache-control': 'no-cache' });
      res.end();
      return;
    }
    return notFound(req, res, subs);
  }

  return {
    handle(req, res) {
      serve(req, res).catch((err) => {
        log.error(`public page failed: ${(err as Error)?.stack ?? err}`);
        if (!res.headersSent) {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('Something went wrong.\n');
        } else res.destroy();
      });
    },
    ready,
    idle: () => client.idle(),
    async close() {
      unsubscribe?.();
      settingsWatch?.close();
      await client.close();
    },
  };
}

/** custom.css from the data directory (the designer's stylesheet), or an empty one. */
async function sendCustomCss(req: IncomingMessage, res: ServerResponse, dataDir: string): Promise<void> {
  const css = await fs.readFile(path.join(dataDir, 'custom.css'), 'utf8').catch(() => '');
  res.writeHead(200, { 'content-type': 'text/css; charset=utf-8', 'cache-control': 'no-cache', 'content-length': Buffer.byteLength(css) });
  res.end(req.method === 'HEAD' ? undefined : css);
}
