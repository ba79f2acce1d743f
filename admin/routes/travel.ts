// What travels: GET/POST /api/sync/travel (spec 4.1, Appendix C). GET reports what the
// vault's `.service/` holds, the last mirror pass and the files it could not copy;
// POST (Re-sync now) runs one pass plus the catalog font download, then reports.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { route } from '../http.ts';

export function registerTravelRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/sync/travel',
    route(() => {
      ctx.requireSyncAllowed();
      return ctx.travel.report();
    }),
  );

  app.post(
    '/api/sync/travel',
    route(() => {
      ctx.requireSyncAllowed();
      return ctx.travel.resync();
    }),
  );
}
