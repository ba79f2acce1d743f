// The git access token (spec 2.2, 5.4): only in SERVICE_DATA/git-credentials.json,
// mode 0600. Never in settings.json, the vault, .git/config or an API answer.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { readJson, writeJsonAtomic } from '../../shared/atomic-write.ts';
import { addSecret } from '../../shared/log.ts';

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

export function credentialsFile(dataDir: string): string {
  return path.join(dataDir, 'git-credentials.json');
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
