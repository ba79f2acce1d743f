// GET /api/posts (spec 2.5, CONTRACT §5): the published posts, newest first, from
// the same model the public site is built from. Admin-only like every /api route.
import type { Polka } from 'polka';
import { LivePosts } from '../../shared/model/live-posts.ts';
import type { AdminContext } from '../context.ts';
import { route } from '../http.ts';

export function registerPostsRoutes(app: Polka, ctx: AdminContext): void {
  const posts = new LivePosts({ config: ctx.config, events: ctx.events, readSettings: ctx.readSettings, skipDirs: ctx.skipDirs });
  app.get(
    '/api/posts',
    route(() => posts.list()),
  );
}
