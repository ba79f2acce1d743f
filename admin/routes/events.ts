// GET /api/events (CONTRACT §4): admin-only change stream.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { isAdminRequest } from '../auth/gate.ts';
import { openEventStream } from '../events/sse.ts';

export function registerEventRoutes(app: Polka, ctx: AdminContext): void {
  app.get('/api/events', (req, res) => openEventStream(res, ctx.events, ctx.settingsEvents, () => isAdminRequest(ctx.sessions, req)));
}
