// Sync routes (spec 4.1, CONTRACT §5): /api/sync/status, /init, /now, /snapshot and
// /open (the admin app's "window open" call). /api/sync/travel is travel.ts's.
// Handlers check the password rule, call the sync service, map its answer to HTTP.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { HttpError, route } from '../http.ts';
import { GitError } from '../../shared/git-run.ts';
import { SyncRefusal } from '../sync/service.ts';

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
  const handle = (work: () => Promise<unknown>) =>
    route(async () => {
      requirePassword(ctx);
      try {
        return await work();
      } catch (err) {
        toHttp(err);
      }
    });

  app.get('/api/sync/status', handle(() => ctx.sync.status()));
  app.post('/api/sync/now', handle(() => ctx.sync.sync('manual')));
  app.post('/api/sync/snapshot', handle(() => ctx.sync.snapshot()));
  app.post('/api/sync/init', handle(() => ctx.sync.init()));
  app.post('/api/sync/open', handle(() => ctx.scheduler.windowOpen()));
}
