// The admin's settings (CONTRACT §5, spec 4.3): what GET /api/settings shows, and a
// PATCH as one domain call: validate every field, save settings.json, keep the token
// with the credentials (never in settings.json), and let the mirror carry the change
// into the vault at once.
import type { Config } from '../shared/config.ts';
import { saveSettingsPatch, settingsFile, settingsView, validateSettingsPatch, withDefaults, type Settings, type SettingsChecks, type SettingsView } from '../shared/settings.ts';
import { hasToken, storeTokenChange } from './git/credentials.ts';
import { branchRefusal, remotePlace, remoteUrlRefusal } from './git/remote-url.ts';
import { adminSetsTarget, pendingVaultRequest, withHeldTarget, type VaultRequest } from './sync/vault-request.ts';

/** The remote URL and branch rules live with the git code; settings validation is handed them. */
export const GIT_SETTINGS_CHECKS: SettingsChecks = { remoteUrl: remoteUrlRefusal, branch: branchRefusal };

/** `vaultRequest`: the backup target the vault asks for (CONTRACT §14), so the app shows it without asking git. */
export type SettingsAnswer = SettingsView & { tokenSet: boolean; vaultRequest: VaultRequest | null };

export interface SettingsServiceDeps {
  config: Config;
  readSettings: () => Promise<Settings>;
  /** Told after every save (the settings mirror pushes soon rather than at its next tick). */
  saved: () => void;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function createSettingsService(deps: SettingsServiceDeps) {
  const { dataDir } = deps.config;

  async function answer(settings: Settings): Promise<SettingsAnswer> {
    return { ...settingsView(settings, deps.config), tokenSet: await hasToken(dataDir), vaultRequest: await pendingVaultRequest(dataDir) };
  }

  /** GET /api/settings: the settings, `tokenSet` (never the token) and `fromEnv`. */
  async function read(): Promise<SettingsAnswer> {
    return answer(await deps.readSettings());
  }

  /** PATCH /api/settings: nothing is written unless every field is valid. */
  async function patch(body: unknown): Promise<SettingsAnswer> {
    const valid = validateSettingsPatch(body, GIT_SETTINGS_CHECKS);
    const sent = isObject(valid.patch.sync) ? valid.patch.sync : {};
    const merged = await saveSettingsPatch(settingsFile(dataDir), valid.patch, (stored, next) => adminSetsTarget(dataDir, sent, stored, next));
    const saved = isObject(merged.sync) ? merged.sync : {};
    await storeTokenChange(
      dataDir,
      { token: valid.token, username: typeof sent.username === 'string' ? sent.username : undefined, remoteNamed: 'remoteUrl' in sent },
      {
        remote: remotePlace(typeof saved.remoteUrl === 'string' ? saved.remoteUrl : null),
        username: typeof saved.username === 'string' ? saved.username : null,
      },
    );
    deps.saved();
    return answer(await withHeldTarget(dataDir, withDefaults(merged)));
  }

  return { read, patch };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
