// Sync routes (spec 4.1, CONTRACT §5): /api/sync/status, /init, /now, /snapshot and
// /open (the admin app's "window open" call). /api/sync/travel is travel.ts's.
// Handlers check the password rule, call the sync service, map its answer to HTTP.
import type { Polka } from 'polka';
import { dataDirInVault, type AdminContext } from '../context.ts';
import { HttpError, route } from '../http.ts';
import { GitError } from '../../shared/git-run.ts';
import { SyncScheduler } from '../sync/scheduler.ts';
import { relativeInVault, SyncRefusal, SyncService } from '../sync/service.ts';

/** spec 5.1: backup & sync is unusable until an admin password exists. */
function requirePassword(ctx: AdminContext): void {
  if (!ctx.password.isSet()) {
    throw new HttpError(403, 'needs_password', 'Set an admin password before using backup & sync.');
  }
}

function toHttp(err: unknown): never {
  if (err instanceof SyncRefusal) {
    const status = err.code === 'bad_settings' ? 400 : 409;
    const extra = err.holder ? { holder: { pid: err.holder.pid, hostname: err.holder.hostname } } : {};
    throw new HttpError(status, err.code, err.message, extra);
  }
  if (err instanceof GitError) throw new HttpError(500, 'git_failed', `git failed: ${err.line}`, { gitError: err.line });
  throw err;
}

export function registerSyncRoutes(app: Polka, ctx: AdminContext): void {
  let rel: Promise<string | null> | null = null;
  const dataDirRel = () => (rel ??= dataDirInVault(ctx.config).then((p) => relativeInVault(ctx.config.vaultDir, p)));
  const service = new SyncService({ config: ctx.config, readSettings: ctx.readSettings, dataDirRel });
  const scheduler = new SyncScheduler({ service, readSettings: ctx.readSettings, vaultDir: ctx.config.vaultDir });
  ctx.hooks.start.push(async () => {
    if (ctx.password.isSet()) scheduler.start();
  });
  ctx.hooks.close.push(async () => {
    scheduler.stop();
    await service.close();
  });

  const handle = (work: () => Promise<unknown>) =>
    route(async () => {
      requirePassword(ctx);
      try {
        return await work();
      } catch (err) {
        toHttp(err);
      }
    });

  app.get('/api/sync/status', handle(() => service.status()));
  app.post('/api/sync/now', handle(() => service.sync('manual')));
  app.post('/api/sync/snapshot', handle(() => service.snapshot()));
  app.post('/api/sync/init', handle(() => service.init()));
  app.post('/api/sync/open', handle(() => scheduler.windowOpen()));
}
