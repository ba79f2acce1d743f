// The admin web app's static files under /admin/ (issue 6).
// Placeholder: registers nothing yet.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';

export function registerUiRoutes(_app: Polka, _ctx: AdminContext): void {}
