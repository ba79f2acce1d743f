// Settings: GET/PATCH /api/settings (CONTRACT §5, spec 4.3). GET shows the settings,
// `tokenSet` (never the token) and `fromEnv` (values this server's environment fills
// in, which travel only once saved). PATCH is one call to the settings service.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { readJsonBody, route } from '../http.ts';

const MAX_SETTINGS_BODY = 256 * 1024;

export function registerSettingsRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/settings',
    route(() => ctx.settings.read()),
  );

  app.patch(
    '/api/settings',
    route(async (req) => ctx.settings.patch(await readJsonBody(req, MAX_SETTINGS_BODY))),
  );
}
