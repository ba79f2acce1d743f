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
   * ever sent to the host it was entered for. null: saved with no remote (sent nowhere
   * until the admin names one); absent: a file from before the binding.
   */
  host?: string | null;
  /**
   * The same binding with the port (remote-url.ts remoteAuthority): a server on another port
   * of that host is another server. Absent: a file from before the port counted (`host` alone
   * binds it, until the next save).
   */
  authority?: string | null;
}

/** Where a remote URL leads, as a token is bound to it. */
export interface RemotePlace {
  host: string | null;
  /** undefined: a binding from before the port counted (its host alone binds it). */
  authority: string | null | undefined;
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
      // Absent: a file from before tokens were bound to a host (see tokenFor).
      host: typeof c.host === 'string' ? c.host : 'host' in c ? null : undefined,
      authority: typeof c.authority === 'string' ? c.authority : 'authority' in c ? null : undefined,
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

/**
 * The token, when it may be sent to `remoteHostName`; null otherwise. A token bound to no
 * host (saved before any remote) goes nowhere until the admin names a remote, which binds it:
 * otherwise the first remote to arrive with the vault's settings would get it.
 */
export function tokenFor(credentials: GitCredentials | null, remote: RemotePlace): string | null {
  if (!credentials) return null;
  // A file written before tokens were bound to a host: sent as it always was, until the next save binds it.
  if (credentials.host === undefined) return credentials.token;
  if (!credentials.host) return null;
  if (credentials.authority !== undefined) {
    return credentials.authority !== null && remote.authority != null && credentials.authority === remote.authority ? credentials.token : null;
  }
  return remote.host !== null && credentials.host.toLowerCase() === remote.host.toLowerCase() ? credentials.token : null;
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
export async function storeTokenChange(dataDir: string, change: TokenChange, saved: { remote: RemotePlace; username: string | null }): Promise<void> {
  const here = saved.remote.host !== null ? saved.remote : null;
  if (change.token === null) {
    await clearCredentials(dataDir);
  } else if (typeof change.token === 'string') {
    // A new token goes where the old one was bound (rotation), unless this save names the remote:
    // the remote the settings name now may have come with the vault. A first token takes the remote
    // the panel shows.
    const current = change.remoteNamed ? null : await readCredentials(dataDir);
    const bound = current?.host ? placeOf(current) : here;
    await writeCredentials(dataDir, { token: change.token, username: change.username ?? saved.username ?? 'git', host: bound?.host ?? null, authority: bound ? bound.authority : null });
  } else if (change.username !== undefined || change.remoteNamed) {
    const current = await readCredentials(dataDir);
    const username = change.username ?? current?.username ?? 'git';
    // The token moves only with a remote the admin names in this save. A username alone
    // leaves it where it was (the saved remote may have come with the vault's settings),
    // and clearing the remote unbinds nothing it could then be sent anywhere with.
    const bound = change.remoteNamed && here ? here : current ? placeOf(current) : null;
    if (current && (current.username !== username || current.host !== bound?.host || current.authority !== bound?.authority)) {
      await writeCredentials(dataDir, { token: current.token, username, host: bound?.host ?? null, authority: bound ? bound.authority : null });
    }
  }
}

/** Where stored credentials are bound; a file from before the port counted keeps its host alone. */
function placeOf(c: GitCredentials): RemotePlace | null {
  if (c.host === undefined) return null;
  return { host: c.host ?? null, authority: c.authority };
}
