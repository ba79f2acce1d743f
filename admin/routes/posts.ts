// Posts API: GET /api/posts from the shared posts model (issue 3).
// Placeholder: registers nothing yet.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';

export function registerPostsRoutes(_app: Polka, _ctx: AdminContext): void {}
