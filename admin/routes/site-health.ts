// GET /api/site/warnings (CONTRACT §13): what the newest build found wrong, paged.
import type { Polka } from 'polka';
import { refuse } from '../../shared/errors.ts';
import type { AdminContext } from '../context.ts';
import { queryOne, route } from '../http.ts';

function pageParam(value: string | undefined): number {
  if (value === undefined) return 1;
  if (!/^[1-9]\d{0,5}$/.test(value)) throw refuse('bad_page', 'page must be a whole number from 1.');
  return Number(value);
}

export function registerSiteHealthRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/site/warnings',
    route((req) => ctx.siteHealth.page(pageParam(queryOne(req, 'page')))),
  );
}
