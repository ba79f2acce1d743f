// Device preferences: GET/PUT /api/prefs (issue 5).
// Placeholder: registers nothing yet.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';

export function registerPrefsRoutes(_app: Polka, _ctx: AdminContext): void {}
