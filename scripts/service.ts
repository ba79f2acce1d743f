// Composes the one server process: the admin API, the public site and the vault
// watcher on one port. `site/` and `admin/` never import each other; they meet here.
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Config } from '../shared/config.ts';
import { log } from '../shared/log.ts';
import { limitConnections } from '../shared/connection-limits.ts';
import { PROJECT_DIR } from '../shared/project-dir.ts';
import { startVaultWatcher } from '../shared/vault-watcher.ts';
import { isNotePath, type VaultPath } from '../shared/vault-path.ts';
import { fileTime } from '../shared/note/dates.ts';
import { createAdminApp } from '../admin/app.ts';
import { createAdminContext, type AdminContext } from '../admin/context.ts';
import { isAdminRequest } from '../admin/auth/gate.ts';
import { clientAddress } from '../admin/http.ts';
import { sweepTempFiles } from '../admin/vault/temp-sweep.ts';
import { createPublicServer } from '../site/public-server.ts';
import { toOriginForm } from '../shared/request-target.ts';
import { hostAllowed, sendMisdirected } from '../shared/allowed-hosts.ts';
import { settleHeap, SETTLE_MIN_FILES } from '../shared/heap-settle.ts';

export const EXAMPLE_VAULT = path.join(PROJECT_DIR, 'example-vault');

export interface RunningService {
  url: string;
  port: number;
  ctx: AdminContext;
  close(): Promise<void>;
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

/** CONTRACT §1: a missing vault starts as a copy of the bundled example vault. */
export async function ensureVault(vaultDir: string): Promise<boolean> {
  if (await exists(vaultDir)) return false;
  await fs.cp(EXAMPLE_VAULT, vaultDir, { recursive: true });
  return true;
}

export async function startService(config: Config): Promise<RunningService> {
  if (await ensureVault(config.vaultDir)) log.info(`created the vault ${config.vaultDir} from the example vault`);
  await fs.mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const bootAt = Date.now();

  // The public site owns the one vault model; the admin asks it for the posts.
  let site: ReturnType<typeof createPublicServer> | null = null;
  const ctx = await createAdminContext(config, {
    posts: () => (site ? site.posts() : Promise.resolve([])),
    // Comments (CONTRACT §8) ask the site which post a path or address is, and tell it a discussion changed.
    site: {
      post: (query) => (site ? site.post(query) : Promise.resolve(null)),
      discussionChanged: (notePath) => (site ? site.discussionChanged(notePath) : Promise.resolve()),
      commentFailurePage: (failure) => (site ? site.commentFailurePage(failure) : Promise.resolve(null)),
    },
    buildWarnings: (waitMs) => (site ? site.warnings(waitMs) : Promise.resolve([])),
    // A rename through the admin leaves a 301 from the old addresses, even when it rewrote the moved notes' own links.
    moved: (from, to) => site?.moved(from, to),
    // The preview of a note links the site's own stylesheets: what the owner sees is what readers get.
    siteStylesheets: () => (site ? site.stylesheets() : Promise.resolve(null)),
  });
  if (ctx.password.generated) {
    // Printed once: only its hash is stored.
    process.stdout.write(
      `\nAdmin password (shown once, stored only as a hash in ${path.join(config.dataDir, 'admin.json')}):\n\n    ${ctx.password.generated}\n\nChange it with: vault-service set-password (npm run set-password in a clone)\n\n`,
    );
  }
  const admin = createAdminApp(ctx);
  site = createPublicServer({
    config,
    isAdmin: (req) => isAdminRequest(ctx.sessions, req),
    events: ctx.events,
    skipDirs: ctx.skipDirs,
    created: ctx.created,
    // The comment form's 2 s rule, for a form posted without a script (CONTRACT §8).
    pageSent: (address, req) => ctx.comments.sentPages.note(clientAddress(req), address),
  });

  await ctx.start();
  // A rename a stopped server left half done gets its links rewritten now (rename-journal.ts).
  void ctx.renamer.resume().catch((err) => log.warn(`rename: unfinished renames could not be finished: ${(err as Error).message}`));

  const server = http.createServer((req, res) => {
    toOriginForm(req);
    if (config.allowedHosts && !hostAllowed(req, config.allowedHosts)) return sendMisdirected(res);
    const url = req.url ?? '/';
    // Only /api/… and /admin, /admin/… belong to the admin: a note may be called `administration`.
    // A webmention is posted to /webmention (CONTRACT §8); a note there is still read with GET.
    if (url.startsWith('/api/') || url === '/api' || /^\/admin(?:[/?#]|$)/.test(url) || (req.method === 'POST' && /^\/webmention(?:[?#]|$)/.test(url))) {
      // No `next`: Polka then runs its own middleware loop.
      void admin.handler(req as never, res, undefined as never);
    } else {
      site.handle(req, res);
    }
  });
  limitConnections(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => resolve());
  });
  // Started once the server answers: its first scan (a stat and a watch per file) fills
  // libuv's thread pool for seconds on a large vault, and a restart must not wait on it.
  // Changes made before it is ready are in the build's own first read.
  let filesMet = 0;
  // The notes this server had not met before it stopped: where a note moved meanwhile went.
  const metBefore = await ctx.created.metBefore();
  const fresh: VaultPath[] = [];
  let scanning = true;
  const watcher = startVaultWatcher({
    vaultDir: config.vaultDir,
    events: ctx.events,
    skipDirs: ctx.skipDirs,
    // A change made while the watcher starts (after the build's first read) is announced too.
    announceSince: bootAt,
    // created.json learns of every note the watcher meets, at start and while running.
    onFileMet: (p, stats) => {
      filesMet++;
      // spec D.2: the file's own time, never the moment this server met it (a copied vault would read "today" everywhere).
      if (isNotePath(p)) void ctx.created.remember(p, stats ? fileTime(stats) : Date.now());
      if (scanning && isNotePath(p) && !metBefore.has(p)) fresh.push(p);
    },
  });
  await watcher.ready;
  scanning = false;
  void ctx.outsideMoves.carryWhileDown(fresh).catch((err) => log.warn(`versions could not follow the notes moved while the server was down: ${(err as Error).message}`));
  // The scan's garbage goes now, not whenever V8 next needs room (shared/heap-settle.ts); a
  // small vault's scan leaves little to give back, less than the collection costs a start.
  if (filesMet >= SETTLE_MIN_FILES) await settleHeap();
  void sweepTempFiles([config.vaultDir, config.dataDir]);
  const port = (server.address() as AddressInfo).port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    ctx,
    close() {
      closing ??= (async () => {
        server.closeAllConnections?.();
        await new Promise<void>((resolve) => server.close(() => resolve()));
        await watcher.close();
        await site.close();
        await ctx.close();
        await ctx.created.flush();
        await ctx.versions.flush();
      })();
      return closing;
    },
  };
}
