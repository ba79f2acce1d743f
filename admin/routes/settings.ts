// Settings routes: GET/PATCH /api/settings (issue 5).
// Placeholder: registers nothing yet.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';

export function registerSettingsRoutes(_app: Polka, _ctx: AdminContext): void {}
