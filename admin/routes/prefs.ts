// Device preferences: GET/PUT /api/prefs (CONTRACT §5, spec 8). Admin-only (the gate
// answers 401 to visitors). GET pulls the vault's copy first, so the app draws with
// the preferences set on any device; PUT merges (null clears, and the clear travels).
// `travelWithVault` is this device's switch 'Settings travel with the vault'.
import type { Polka } from 'polka';
import type { AdminContext } from '../context.ts';
import { refuse } from '../../shared/errors.ts';
import { readJsonBody, route } from '../http.ts';
import { checkPrefKey, checkPrefValue, PREF_LIMITS } from '../travel/prefs.ts';

const MAX_PREFS_BODY = 1024 * 1024;

function parsePrefsPut(body: Record<string, unknown>): { keys: Record<string, unknown>; travelWithVault?: boolean } {
  for (const key of Object.keys(body)) {
    if (key !== 'keys' && key !== 'travelWithVault') throw refuse('unknown_setting', `${key} is not a preferences field.`, { field: key });
  }
  const { keys = {}, travelWithVault } = body;
  if (travelWithVault !== undefined && typeof travelWithVault !== 'boolean') {
    throw refuse('bad_pref', 'travelWithVault must be true or false.', { field: 'travelWithVault' });
  }
  if (typeof keys !== 'object' || keys === null || Array.isArray(keys)) {
    throw refuse('bad_pref', 'keys must be an object of name: value (null clears).', { field: 'keys' });
  }
  const entries = Object.entries(keys);
  if (entries.length > PREF_LIMITS.keyCount) {
    throw refuse('bad_pref', `At most ${PREF_LIMITS.keyCount} keys per change.`, { field: 'keys' });
  }
  for (const [key, value] of entries) {
    const why = checkPrefKey(key) ?? (value === null ? null : checkPrefValue(value));
    if (why) throw refuse('bad_pref', `keys.${key}: ${why}.`, { field: `keys.${key}` });
  }
  return { keys: keys as Record<string, unknown>, travelWithVault: travelWithVault as boolean | undefined };
}

export function registerPrefsRoutes(app: Polka, ctx: AdminContext): void {
  app.get(
    '/api/prefs',
    route(() => ctx.travel.getPrefs()),
  );

  app.put(
    '/api/prefs',
    route(async (req) => {
      const { keys, travelWithVault } = parsePrefsPut(await readJsonBody(req, MAX_PREFS_BODY));
      return ctx.travel.putPrefs(keys, travelWithVault);
    }),
  );
}
