// Settings: GET/PATCH /api/settings (CONTRACT §5, spec 4.3). GET shows the settings,
// `tokenSet` (never the token) and `fromEnv` (values this server's environment fills
// in, which travel only once saved). PATCH validates every field before anything is
// written, saves, and lets the mirror carry the change into the vault at once.
import type { Polka } from 'polka';
import { settingsView, SettingsError, validateSettingsPatch, type Settings, type ValidPatch } from '../../shared/settings.ts';
import type { AdminContext } from '../context.ts';
import { hasToken } from '../git/credentials.ts';
import { checkBranchName, checkRemoteUrl } from '../git/remote-url.ts';
import { badRequest, readJsonBody, route } from '../http.ts';
import { travelFor } from '../travel/index.ts';
import { saveSettings } from '../travel/settings-store.ts';

const MAX_SETTINGS_BODY = 256 * 1024;

export function registerSettingsRoutes(app: Polka, ctx: AdminContext): void {
  const travel = travelFor(ctx);

  const answer = async (settings: Settings) => ({
    ...settingsView(settings, ctx.config),
    tokenSet: await hasToken(ctx.config.dataDir),
  });

  app.get(
    '/api/settings',
    route(async () => answer(await ctx.readSettings())),
  );

  app.patch(
    '/api/settings',
    route(async (req) => {
      const body = await readJsonBody(req, MAX_SETTINGS_BODY);
      let valid: ValidPatch;
      try {
        valid = validateSettingsPatch(body, { remoteUrl: checkRemoteUrl, branch: checkBranchName });
      } catch (err) {
        if (err instanceof SettingsError) throw badRequest(err.code, err.message, { field: err.field });
        throw err;
      }
      const saved = await saveSettings(ctx.config.dataDir, valid);
      travel.settingsSaved();
      return answer(saved);
    }),
  );
}
