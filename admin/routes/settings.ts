// Settings: GET/PATCH /api/settings (CONTRACT §5, spec 4.3). GET shows the settings,
// `tokenSet` (never the token) and `fromEnv` (values this server's environment fills
// in, which travel only once saved). PATCH is one call to the settings service.
import type { Polka } from 'polka';
import { SettingsError } from '../../shared/settings.ts';
import type { AdminContext } from '../context.ts';
import { badRequest, readJsonBody, route } from '../http.ts';

const MAX_SETTINGS_BODY = 256 * 1024;

export function registerSettingsRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/settings',
    route(() => ctx.settings.read()),
  );

  app.patch(
    '/api/settings',
    route(async (req) => {
      const body = await readJsonBody(req, MAX_SETTINGS_BODY);
      try {
        return await ctx.settings.patch(body);
      } catch (err) {
        if (err instanceof SettingsError) throw badRequest(err.code, err.message, { field: err.field });
        throw err;
      }
    }),
  );
}
