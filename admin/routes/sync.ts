// Sync routes (spec 4.1, CONTRACT §5, §14): /api/sync/status, /init, /now, /snapshot,
// /open (the admin app's "window open" call) and /vault-request (Allow or Ignore). /api/sync/travel is travel.ts's.
// Each handler checks the password rule and calls the sync service once.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { refuse } from '../../shared/errors.ts';
import { readJsonBody, route } from '../http.ts';

export function registerSyncRoutes(app: Polka, ctx: AdminContext): void {
  const handle = (work: () => Promise<unknown>) =>
    route(() => {
      ctx.requireSyncAllowed();
      return work();
    });

  app.get('/api/sync/status', handle(() => ctx.sync.status()));
  app.post('/api/sync/now', handle(() => ctx.sync.sync('manual')));
  app.post('/api/sync/snapshot', handle(() => ctx.sync.snapshot()));
  app.post('/api/sync/init', handle(() => ctx.sync.init()));
  app.post('/api/sync/open', handle(() => ctx.scheduler.windowOpen()));
  app.post(
    '/api/sync/vault-request',
    route(async (req) => {
      ctx.requireSyncAllowed();
      const body = await readJsonBody(req, 1024);
      const action = (body as { action?: unknown } | null)?.action;
      if (action !== 'allow' && action !== 'ignore') throw refuse('bad_action', 'action must be "allow" or "ignore".');
      return ctx.scheduler.answerVaultRequest(action);
    }),
  );
}
