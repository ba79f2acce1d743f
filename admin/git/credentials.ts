// The git access token (spec 2.2, 5.4): only in SERVICE_DATA/git-credentials.json,
// mode 0600. Never in settings.json, the vault, .git/config or an API answer.
import { promises as fs } from 'node:fs';
import { readJson, writeJsonAtomic } from '../../shared/atomic-write.ts';
import { addSecret } from '../../shared/log.ts';
import { dataPath, DATA_FILES, type DataPath } from '../../shared/data-path.ts';

export interface GitCredentials {
  token: string;
  username: string;
  /**
   * The remote host the token was saved for. Sync settings travel with the vault,
   * so a vault from elsewhere could point backup at another host: the token is only
   * ever sent to the host it was entered for.
   */
  host?: string | null;
}

export function credentialsFile(dataDir: string): DataPath {
  return dataPath(dataDir, DATA_FILES.credentials);
}

export async function readCredentials(dataDir: string): Promise<GitCredentials | null> {
  try {
    const c = await readJson<Partial<GitCredentials> | null>(credentialsFile(dataDir), null);
    if (!c || typeof c.token !== 'string' || c.token === '') return null;
    addSecret(c.token);
    return {
      token: c.token,
      username: typeof c.username === 'string' && c.username ? c.username : 'git',
      host: typeof c.host === 'string' ? c.host : null,
    };
  } catch {
    return null;
  }
}

export async function writeCredentials(dataDir: string, credentials: GitCredentials): Promise<void> {
  addSecret(credentials.token);
  await writeJsonAtomic(credentialsFile(dataDir), credentials, { mode: 0o600 });
}

/** Clear token. */
export async function clearCredentials(dataDir: string): Promise<void> {
  await fs.rm(credentialsFile(dataDir), { force: true });
}

export async function hasToken(dataDir: string): Promise<boolean> {
  return (await readCredentials(dataDir)) !== null;
}

/** The token, when it may be sent to `remoteHostName`; null otherwise. */
export function tokenFor(credentials: GitCredentials | null, remoteHostName: string | null): string | null {
  if (!credentials) return null;
  if (!credentials.host) return credentials.token;
  return remoteHostName !== null && credentials.host.toLowerCase() === remoteHostName.toLowerCase() ? credentials.token : null;
}

/** What a settings save changes about the token (CONTRACT §5: the token is write-only). */
export interface TokenChange {
  /** `undefined`: untouched; `null`: Clear token; a string: the new token. */
  token?: string | null;
  /** A username sent with the save. */
  username?: string;
  /** The save named a remote URL (the admin moving the remote takes the token along). */
  remoteNamed: boolean;
}

/**
 * Keeps git-credentials.json in step with a settings save. The token is bound to the
 * host of the remote the admin saved it with, so a remote arriving with the vault's
 * settings never receives it; the username is paired with the token.
 */
export async function storeTokenChange(dataDir: string, change: TokenChange, saved: { remoteHost: string | null; username: string | null }): Promise<void> {
  const host = saved.remoteHost;
  if (change.token === null) {
    await clearCredentials(dataDir);
  } else if (typeof change.token === 'string') {
    await writeCredentials(dataDir, { token: change.token, username: change.username ?? saved.username ?? 'git', host });
  } else if (change.username !== undefined || change.remoteNamed) {
    const current = await readCredentials(dataDir);
    const username = change.username ?? current?.username ?? 'git';
    if (current && (current.username !== username || current.host !== host)) {
      await writeCredentials(dataDir, { token: current.token, username, host });
    }
  }
}
