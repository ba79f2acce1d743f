// Settings travel report: GET/POST /api/sync/travel (issue 5).
// Placeholder: registers nothing yet.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';

export function registerTravelRoutes(_app: Polka, _ctx: AdminContext): void {}
