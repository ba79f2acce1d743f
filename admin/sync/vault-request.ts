// Settings travel with the vault (spec 8, Appendix C), but a vault is not trusted to
// choose where this device sends its notes (CONTRACT §14). Where the vault's copy of
// settings.json would switch backup on, or name another remote or branch, the copy is
// still adopted whole (so it travels on unchanged), while this device keeps backing up
// as it did until its admin allows the change. What this device kept lives in
// SERVICE_DATA/sync-vault-request.json, never in the vault.
import { promises as fs } from 'node:fs';
import { writeJsonAtomic } from '../../shared/atomic-write.ts';
import { dataPath, DATA_FILES, type DataPath } from '../../shared/data-path.ts';
import { refuse } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';
import { readStoredSettings, settingsFile, syncSettingsOf, withDefaults, withSettingsLock, type Settings } from '../../shared/settings.ts';
import { remoteHost } from '../git/remote-url.ts';

/** Where and whether backup goes: the three sync settings a vault may only ask for. */
export interface BackupTarget {
  enabled: boolean;
  remoteUrl: string | null;
  branch: string;
}

/** GET /api/sync/status `vaultRequest`: the host only, never a URL (it could carry a user name). */
export interface VaultRequest {
  enabled: boolean;
  remoteHost: string | null;
  branch: string;
}

interface HeldRecord {
  /** The target this device keeps using while the vault asks for another. */
  kept: BackupTarget;
  /** The asked target the admin ignored; it is not shown again until the vault asks anything else. */
  ignored: BackupTarget | null;
}

export function heldFile(dataDir: string): DataPath {
  return dataPath(dataDir, DATA_FILES.syncVaultRequest);
}

export function backupTargetOf(settings: Settings): BackupTarget {
  const sync = syncSettingsOf(settings);
  return { enabled: sync.enabled, remoteUrl: sync.remoteUrl, branch: sync.branch };
}

const sameTarget = (a: BackupTarget, b: BackupTarget) => a.enabled === b.enabled && a.remoteUrl === b.remoteUrl && a.branch === b.branch;

/** Whether moving from `current` to `asked` needs the admin: backup switched on, another remote, another branch. */
export function needsAllow(current: BackupTarget, asked: BackupTarget): boolean {
  return (asked.enabled && !current.enabled) || (asked.remoteUrl !== null && asked.remoteUrl !== current.remoteUrl) || asked.branch !== current.branch;
}

function asTarget(value: unknown): BackupTarget | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.enabled !== 'boolean' || typeof v.branch !== 'string' || !(v.remoteUrl === null || typeof v.remoteUrl === 'string')) return null;
  return { enabled: v.enabled, remoteUrl: v.remoteUrl, branch: v.branch };
}

/** Backup off: what a damaged record falls back to, so a vault's request never slips through. */
const OFF: BackupTarget = { enabled: false, remoteUrl: null, branch: 'main' };

async function readHeld(dataDir: string): Promise<HeldRecord | null> {
  let raw: string;
  try {
    raw = await fs.readFile(heldFile(dataDir), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const value = JSON.parse(raw) as Record<string, unknown>;
    const kept = asTarget(value.kept);
    if (kept) return { kept, ignored: asTarget(value.ignored) };
  } catch {
    /* reported below */
  }
  log.warnOnce('sync-vault-request', 'sync-vault-request.json is damaged; backup stays off until the admin answers the vault’s request');
  return { kept: OFF, ignored: null };
}

const writeHeld = (dataDir: string, record: HeldRecord) => writeJsonAtomic(heldFile(dataDir), record, { mode: 0o600 });
const removeHeld = (dataDir: string) => fs.rm(heldFile(dataDir), { force: true });

/** The target in effect: what this device kept while the saved settings ask for something else. */
function inEffectTarget(saved: BackupTarget, held: HeldRecord | null): BackupTarget {
  return held && needsAllow(held.kept, saved) ? held.kept : saved;
}

/** The settings as this device applies them: the kept target over the one the vault asked for. */
export function settingsInEffect(settings: Settings, held: HeldRecord | null): Settings {
  const target = inEffectTarget(backupTargetOf(settings), held);
  return { ...settings, sync: { ...settings.sync, ...target } };
}

/** `settingsInEffect` with this device's record read now. */
export async function withHeldTarget(dataDir: string, settings: Settings): Promise<Settings> {
  return settingsInEffect(settings, await readHeld(dataDir));
}

/**
 * Wraps the settings reader every backup decision goes through. settings.json is read
 * before the record, which is written before settings.json: a copy that asks is never
 * seen without what was kept.
 */
export function createSettingsInEffectReader(dataDir: string, readSaved: () => Promise<Settings>): () => Promise<Settings> {
  return async () => {
    const settings = await readSaved();
    return withHeldTarget(dataDir, settings);
  };
}

/**
 * The settings mirror adopts a vault copy of settings.json (called under the settings
 * lock, before the copy is written): when it asks for a backup target this device does
 * not use, what this device uses is kept. Says whether the copy asks.
 */
export async function holdVaultRequest(dataDir: string, incoming: Record<string, unknown>): Promise<boolean> {
  const saved = backupTargetOf(withDefaults(await readStoredSettings(settingsFile(dataDir))));
  const held = await readHeld(dataDir);
  const current = inEffectTarget(saved, held);
  const asked = backupTargetOf(withDefaults(incoming));
  if (!needsAllow(current, asked)) {
    if (held) await removeHeld(dataDir);
    return false;
  }
  const ignored = held?.ignored && sameTarget(held.ignored, asked) ? held.ignored : null;
  if (!held || !sameTarget(held.kept, current) || held.ignored !== ignored) await writeHeld(dataDir, { kept: current, ignored });
  if (!ignored) {
    const where = asked.remoteUrl ? `back up to ${remoteHost(asked.remoteUrl) ?? 'another address'}` : 'switch backup on';
    log.warnOnce(`vault-request:${asked.enabled}:${asked.remoteUrl}:${asked.branch}`, `settings from the vault's .service/ ask to ${where}; backup stays as it was until an admin allows it in Backup & sync`);
  }
  return true;
}

/** GET /api/sync/status `vaultRequest`: what the saved settings ask for and this device does not apply, unless ignored. */
export async function pendingVaultRequest(dataDir: string): Promise<VaultRequest | null> {
  const saved = backupTargetOf(withDefaults(await readStoredSettings(settingsFile(dataDir))));
  const held = await readHeld(dataDir);
  if (!held || !needsAllow(held.kept, saved) || (held.ignored && sameTarget(held.ignored, saved))) return null;
  return { enabled: saved.enabled, remoteHost: remoteHost(saved.remoteUrl), branch: saved.branch };
}

export type VaultRequestAction = 'allow' | 'ignore';

/** POST /api/sync/vault-request: Allow applies the asked target; Ignore keeps the device's and stops asking. */
export async function answerVaultRequest(dataDir: string, action: VaultRequestAction): Promise<void> {
  await withSettingsLock(settingsFile(dataDir), async () => {
    const saved = backupTargetOf(withDefaults(await readStoredSettings(settingsFile(dataDir))));
    const held = await readHeld(dataDir);
    if (!held || !needsAllow(held.kept, saved) || (held.ignored && sameTarget(held.ignored, saved))) {
      throw refuse('no_vault_request', 'The vault asks for nothing that waits for an answer.');
    }
    if (action === 'allow') {
      await removeHeld(dataDir);
      log.info(`backup: the vault's request to back up to ${remoteHost(saved.remoteUrl) ?? 'no remote'} was allowed`);
    } else {
      await writeHeld(dataDir, { kept: held.kept, ignored: saved });
    }
  });
}

const TARGET_KEYS = ['enabled', 'remoteUrl', 'branch'] as const;

/**
 * An admin's save under the settings lock, before the write. Backup target values sent
 * as the panel showed them (a client sending back what it read) decide nothing: the
 * vault's request stays as saved. A value that differs is the admin's choice of the
 * whole target: the fields left out take the values in effect, and what this device
 * keeps becomes that target.
 */
export async function adminSetsTarget(dataDir: string, sentSync: Record<string, unknown>, stored: Record<string, unknown>, merged: Record<string, unknown>): Promise<void> {
  const named = TARGET_KEYS.filter((k) => k in sentSync);
  if (named.length === 0) return;
  const held = await readHeld(dataDir);
  const saved = backupTargetOf(withDefaults(stored));
  if (!held || !needsAllow(held.kept, saved)) return;
  const shown = held.kept;
  const sync = (typeof merged.sync === 'object' && merged.sync !== null ? merged.sync : {}) as Record<string, unknown>;
  merged.sync = sync;
  const storedSync = (typeof stored.sync === 'object' && stored.sync !== null ? stored.sync : {}) as Record<string, unknown>;
  const sentAsShown = (k: (typeof TARGET_KEYS)[number]) => (sentSync[k] ?? (k === 'branch' ? 'main' : k === 'enabled' ? false : null)) === shown[k];
  if (named.every(sentAsShown)) {
    for (const key of named) {
      if (key in storedSync) sync[key] = storedSync[key];
      else delete sync[key];
    }
    return;
  }
  for (const key of TARGET_KEYS) if (!(key in sentSync)) sync[key] = shown[key];
  // Written first: a stop before settings.json is written keeps the admin's target, not the vault's.
  await writeHeld(dataDir, { kept: backupTargetOf(withDefaults(merged)), ignored: null });
}
