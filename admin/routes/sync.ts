// Sync routes: /api/sync/status, /api/sync/init, /api/sync/now, /api/sync/snapshot (issue 4).
// Placeholder: registers nothing yet.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';

export function registerSyncRoutes(_app: Polka, _ctx: AdminContext): void {}
