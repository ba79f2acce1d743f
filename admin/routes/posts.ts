// GET /api/posts (spec 2.5, CONTRACT §5): the published posts, newest first, from
// the same model the public site is built from (the composer hands it over as
// ctx.posts). Admin-only like every /api route.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { route } from '../http.ts';

export function registerPostsRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/posts',
    route(() => ctx.posts()),
  );
}
