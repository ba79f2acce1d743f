// History routes: /api/history, /api/history/blob (issue 4).
// Placeholder: registers nothing yet.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';

export function registerHistoryRoutes(_app: Polka, _ctx: AdminContext): void {}
