// GET /api/posts (spec 2.5, 4.3, CONTRACT §5): the published posts, newest first, from
// the same model the public site is built from (the composer hands it over as
// ctx.posts). Open to visitors of a public site; `commentCount` while comments are on
// (approved ones for a visitor, every one for the admin).
import type { Polka } from 'polka';
import { isAdminRequest } from '../auth/gate.ts';
import type { AdminContext } from '../context.ts';
import { route } from '../http.ts';

export function registerPostsRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/posts',
    route(async (req) => ctx.comments.withCounts(await ctx.posts(), isAdminRequest(ctx.sessions, req))),
  );
}
