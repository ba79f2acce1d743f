// Saving a validated settings PATCH: the token goes to git-credentials.json only
// (spec 5.4), everything else is deep-merged into settings.json.
import { settingsFile, saveSettingsPatch, withDefaults, type Settings, type ValidPatch } from '../../shared/settings.ts';
import { clearCredentials, readCredentials, writeCredentials } from '../git/credentials.ts';
import { remoteHost } from '../git/remote-url.ts';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export async function saveSettings(dataDir: string, valid: ValidPatch): Promise<Settings> {
  const sync = isObject(valid.patch.sync) ? valid.patch.sync : {};
  const newUsername = typeof sync.username === 'string' ? sync.username : undefined;
  const merged = await saveSettingsPatch(settingsFile(dataDir), valid.patch);
  const savedUsername = isObject(merged.sync) && typeof merged.sync.username === 'string' ? merged.sync.username : undefined;
  // The token is bound to the host of the remote the admin saved it with (a remote
  // arriving with the vault's settings never receives it).
  const host = remoteHost(isObject(merged.sync) && typeof merged.sync.remoteUrl === 'string' ? merged.sync.remoteUrl : null);
  if (valid.token === null) {
    await clearCredentials(dataDir);
  } else if (typeof valid.token === 'string') {
    await writeCredentials(dataDir, { token: valid.token, username: newUsername ?? savedUsername ?? 'git', host });
  } else if (newUsername !== undefined || 'remoteUrl' in sync) {
    // The username is paired with the token, and the admin moving the remote here
    // takes the token along: keep the stored pair in step.
    const current = await readCredentials(dataDir);
    const username = newUsername ?? current?.username ?? 'git';
    if (current && (current.username !== username || current.host !== host)) {
      await writeCredentials(dataDir, { token: current.token, username, host });
    }
  }
  return withDefaults(merged);
}
