// One pass of the settings mirror between SERVICE_DATA and the vault's `.service/`
// (spec 8). Per file, a three-way decision against the hash both sides last agreed
// on ("base", remembered per vault real path):
//  - no base yet (first contact): the vault copy wins when there is one;
//  - one side changed since the base: that side's copy wins;
//  - both changed: a JSON file merges key by key against the copy both last agreed on
//    (merge.ts: a key both changed takes the newer file's value); any other file, or one
//    whose agreed copy this device does not hold, is replaced whole by the newest copy.
// Each file's look and write run under the vault's write lock, so two servers' passes
// never both write `.service/` on the strength of the same look.
// A copy is vetted before it is adopted, so a torn or malformed file never replaces
// a good one; a left-behind or refused file is reported with its reason.
import { DomainError } from '../../shared/errors.ts';
import { log } from '../../shared/log.ts';
import { holdVaultRequest } from '../sync/vault-request.ts';
import { SettingsError, settingsFile, validateStoredSettings, withSettingsLock, type SettingsChecks } from '../../shared/settings.ts';
import type { CrossProcessGuard } from '../vault/vault-lock.ts';
import { mergeJson } from './merge.ts';
import type { BaseCopy } from './state.ts';
import { hashBytes, TravelFileError, type FileState, type TravelFiles } from './files.ts';
import { planFonts, type FontCaps, DEFAULT_FONT_CAPS } from './font-caps.ts';
import { FONTS_DIR, fontVetting, MIRRORED_FILES, SERVICE_DIR, type TravelItemId, type Vetting } from './items.ts';
import type { TravelProblem } from './report-types.ts';

/** Largest single (non-font) file the mirror carries. */
const MAX_FILE_BYTES = 8 * 1024 * 1024;
const LIST_LIMIT = 2000;

export interface MirrorContext {
  dataDir: string;
  vaultReal: string;
  files: TravelFiles;
  checks: SettingsChecks;
  /** rel → hash both sides last agreed on; updated in place. */
  bases: Record<string, string>;
  /** rel → the agreed text of each JSON file a pass may merge; updated in place. */
  copies: Record<string, BaseCopy>;
  /** The vault's write lock (shared with the note writer), held for each file's look and write. */
  vaultLock?: CrossProcessGuard;
  fontCaps?: FontCaps;
}

export interface MirrorOutcome {
  reconciled: number;
  copied: number;
  problems: TravelProblem[];
  /** Files this pass adopted from the vault, or merged with the vault's copy, in the data directory. */
  pulled: string[];
  basesChanged: boolean;
}

type Action = 'push' | 'pull' | 'delete-vault' | 'delete-local';

export const vaultRel = (rel: string) => `${SERVICE_DIR}/${rel}`;

/** The three-way decision (see the header). `folder` files may be deleted; single files are refilled. */
export function decide(local: FileState | null, vault: FileState | null, base: string | undefined, folder: boolean): Action | null {
  if (!local && !vault) return null;
  if (local && vault && local.hash === vault.hash) return null;
  if (base === undefined) return vault ? 'pull' : 'push';
  const localChanged = (local?.hash ?? null) !== base;
  const vaultChanged = (vault?.hash ?? null) !== base;
  if (localChanged && !vaultChanged) return local ? 'push' : folder ? 'delete-vault' : 'pull';
  if (vaultChanged && !localChanged) return vault ? 'pull' : folder ? 'delete-local' : 'push';
  if (!local) return 'pull';
  if (!vault) return 'push';
  return local.mtimeMs > vault.mtimeMs ? 'push' : 'pull';
}

/** Why a copy may not be adopted, or null when it is sound. */
export function vet(bytes: Buffer, vetting: Vetting, checks: SettingsChecks): string | null {
  if (vetting === 'binary') return bytes.length === 0 ? 'is empty' : null;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'is not UTF-8 text';
  }
  if (vetting === 'text') return text.includes('\u0000') ? 'is not text' : null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'is not valid JSON (partly written or damaged)';
  }
  if (typeof value !== 'object' || value === null) return 'is not a JSON object or list';
  if (vetting === 'settings') {
    if (Array.isArray(value)) return 'is not a settings object';
    try {
      validateStoredSettings(value, checks);
    } catch (err) {
      // The file is JSON: its key says where to look, the sentence what is wrong.
      return err instanceof SettingsError ? `holds a bad value at ${err.field}: ${err.message}` : `holds a bad value: ${(err as Error).message}`;
    }
  }
  return null;
}

export async function mirrorPass(ctx: MirrorContext): Promise<MirrorOutcome> {
  const out: MirrorOutcome = { reconciled: 0, copied: 0, problems: [], pulled: [], basesChanged: false };
  /** `bytes`: the agreed content, kept as the base of a later merge for a mergeable file. */
  const setBase = (rel: string, hash: string | null, bytes?: Buffer) => {
    if (hash === null) {
      if (rel in ctx.bases || rel in ctx.copies) {
        delete ctx.bases[rel];
        delete ctx.copies[rel];
        out.basesChanged = true;
      }
      return;
    }
    if (ctx.bases[rel] !== hash) {
      ctx.bases[rel] = hash;
      out.basesChanged = true;
    }
    if (bytes && ctx.copies[rel]?.hash !== hash) {
      ctx.copies[rel] = { hash, text: bytes.toString('utf8') };
      out.basesChanged = true;
    }
  };
  const problem = (item: TravelItemId, rel: string, side: 'vault' | 'device', code: string, reason: string) =>
    out.problems.push({ item, file: side === 'vault' ? vaultRel(rel) : rel, side, code, reason });

  /** Set by a look without the lock that found something to copy or merge. */
  let needsLock = false;

  /**
   * Runs one file's reconcile inside the vault's write lock, once a look without it finds
   * something to do: a file both sides agree on (every pass but a changed one's) takes no
   * lock, so a quiet vault does not see the lock's folder come and go every few seconds. A
   * lock another server holds too long skips the file this pass; one that cannot be made
   * (a read-only vault, where this server writes nothing) leaves the pass to adopt the
   * vault's copies unlocked.
   */
  async function locked(item: TravelItemId, rel: string, task: (look: boolean) => Promise<void>): Promise<void> {
    if (!ctx.vaultLock) return task(false);
    needsLock = false;
    await task(true);
    if (!needsLock) return;
    try {
      await ctx.vaultLock.enter();
    } catch (err) {
      if (err instanceof DomainError) return void problem(item, rel, 'vault', err.code, err.message);
      return task(false);
    }
    try {
      await task(false);
    } finally {
      await ctx.vaultLock.leave();
    }
  }

  /** `look`: without the lock, only settle a file both sides agree on (else say the lock is needed). */
  async function reconcile(item: TravelItemId, rel: string, vetting: Vetting, folder: boolean, mayPush: boolean, look = false): Promise<void> {
    const mergeable = !folder && vetting !== 'binary' && vetting !== 'text';
    let local: FileState | null;
    let vault: FileState | null;
    try {
      local = await ctx.files.state(ctx.dataDir, rel);
    } catch (err) {
      return void problem(item, rel, 'device', (err as TravelFileError).reason ?? 'io', (err as Error).message);
    }
    try {
      vault = await ctx.files.state(ctx.vaultReal, vaultRel(rel));
    } catch (err) {
      return void problem(item, rel, 'vault', (err as TravelFileError).reason ?? 'io', (err as Error).message);
    }
    let action = decide(local, vault, ctx.bases[rel], folder);
    if (action !== null && look) {
      needsLock = true;
      return;
    }
    if (action === null) {
      if (local && vault) {
        // A base agreed before copies were kept gets its copy now, for the next merge.
        const keep = mergeable && ctx.copies[rel]?.hash !== local.hash ? await ctx.files.read(ctx.dataDir, rel).catch(() => undefined) : undefined;
        setBase(rel, local.hash, keep && hashBytes(keep) === local.hash ? keep : undefined);
        out.reconciled++;
      } else setBase(rel, null);
      return;
    }
    try {
      const base = ctx.bases[rel];
      if (mergeable && local && vault && base !== undefined && local.hash !== base && vault.hash !== base) {
        if (await merge(rel, vetting, local, vault)) return;
      }
      if (action === 'pull') {
        const bytes = await ctx.files.read(ctx.vaultReal, vaultRel(rel));
        const why = bytes.length > MAX_FILE_BYTES ? 'is larger than 8 MB' : vet(bytes, vetting, ctx.checks);
        if (why === null) {
          // A save that landed here since the decision is not overwritten; the next pass weighs it.
          if (!(await adopt(rel, vetting, bytes, local?.hash ?? null))) return;
          setBase(rel, hashBytes(bytes), mergeable ? bytes : undefined);
          out.pulled.push(rel);
          out.copied++;
          out.reconciled++;
          return;
        }
        problem(item, rel, 'vault', 'malformed', `${why}; the copy on this device was kept`);
        // A genuine newer edit on this device may replace a damaged vault copy.
        const base = ctx.bases[rel];
        if (!(local && base !== undefined && local.hash !== base)) return;
        action = 'push';
      }
      if (action === 'push') {
        if (!mayPush) return;
        const bytes = await ctx.files.read(ctx.dataDir, rel);
        const why = vetting !== 'binary' && bytes.length > MAX_FILE_BYTES ? 'is larger than 8 MB' : vet(bytes, vetting, ctx.checks);
        if (why !== null) return void problem(item, rel, 'device', 'malformed', `${why}; it was not carried into the vault`);
        // Another server's copy that landed since the decision is not overwritten unseen.
        if (((await ctx.files.state(ctx.vaultReal, vaultRel(rel)))?.hash ?? null) !== (vault?.hash ?? null)) return;
        await ctx.files.write(ctx.vaultReal, vaultRel(rel), bytes, { mode: 0o644, mtimeMs: local?.mtimeMs });
        setBase(rel, hashBytes(bytes), mergeable ? bytes : undefined);
        out.copied++;
        out.reconciled++;
      } else if (action === 'delete-vault') {
        await ctx.files.remove(ctx.vaultReal, vaultRel(rel));
        setBase(rel, null);
        out.copied++;
      } else if (action === 'delete-local') {
        await ctx.files.remove(ctx.dataDir, rel);
        setBase(rel, null);
        out.copied++;
      }
    } catch (err) {
      const side = action === 'pull' || action === 'delete-local' ? 'device' : 'vault';
      problem(item, rel, side, err instanceof TravelFileError ? err.reason : 'io', (err as Error).message);
    }
  }

  /**
   * Both sides changed a JSON file: merges them against the agreed copy and writes the
   * result to both. False when there is nothing sound to merge (no agreed copy, a copy
   * that is not JSON or not valid settings): the caller's whole-file rule applies.
   */
  async function merge(rel: string, vetting: Vetting, local: FileState, vault: FileState): Promise<boolean> {
    const copy = ctx.copies[rel];
    if (!copy || copy.hash !== ctx.bases[rel]) return false;
    const vaultBytes = await ctx.files.read(ctx.vaultReal, vaultRel(rel));
    const localBytes = await ctx.files.read(ctx.dataDir, rel);
    // Changed since the look: the next pass weighs the new copy.
    if (hashBytes(vaultBytes) !== vault.hash || hashBytes(localBytes) !== local.hash) return true;
    if (vaultBytes.length > MAX_FILE_BYTES || vet(vaultBytes, vetting, ctx.checks) !== null || vet(localBytes, vetting, ctx.checks) !== null) return false;
    let sides: unknown[];
    try {
      sides = [copy.text, localBytes.toString('utf8'), vaultBytes.toString('utf8')].map((text) => JSON.parse(text) as unknown);
    } catch {
      return false;
    }
    const newer = local.mtimeMs > vault.mtimeMs ? 'local' : 'vault';
    const { value, conflicts } = mergeJson(sides[0], sides[1], sides[2], newer);
    const sync = (value as Record<string, unknown>).sync as Record<string, unknown> | undefined;
    // spec 2.2: a token never lands in settings.json, even from a doctored vault copy.
    if (vetting === 'settings' && typeof sync === 'object' && sync !== null) delete sync.token;
    const bytes = Buffer.from(JSON.stringify(value, null, 2) + '\n');
    if (vet(bytes, vetting, ctx.checks) !== null) return false;
    if (!(await adopt(rel, vetting, bytes, local.hash))) return true;
    if (((await ctx.files.state(ctx.vaultReal, vaultRel(rel)))?.hash ?? null) !== vault.hash) return true;
    await ctx.files.write(ctx.vaultReal, vaultRel(rel), bytes, { mode: 0o644 });
    setBase(rel, hashBytes(bytes), bytes);
    for (const key of conflicts) {
      log.info(`settings mirror: ${rel}: ${key || 'the whole file'} was changed both here and in the vault; the ${newer === 'local' ? "device's" : "vault's"} newer value was kept`);
    }
    out.pulled.push(rel);
    out.copied += 2;
    out.reconciled++;
    return true;
  }

  /**
   * Writes an adopted vault copy into the data directory (settings under the settings
   * lock, and through the backup rule), unless the local file changed since the
   * decision; says whether it wrote.
   */
  async function adopt(rel: string, vetting: Vetting, bytes: Buffer, decidedOn: string | null): Promise<boolean> {
    const write = async (data: Buffer) => {
      if (((await ctx.files.state(ctx.dataDir, rel))?.hash ?? null) !== decidedOn) return false;
      await ctx.files.write(ctx.dataDir, rel, data, { mode: 0o600 });
      return true;
    };
    if (vetting !== 'settings') return write(bytes);
    return withSettingsLock(settingsFile(ctx.dataDir), async () => {
      if (((await ctx.files.state(ctx.dataDir, rel))?.hash ?? null) !== decidedOn) return false;
      const parsed = JSON.parse(bytes.toString('utf8')) as Record<string, unknown>;
      const sync = parsed.sync as Record<string, unknown> | undefined;
      // spec 2.2: a token never lands in settings.json, even from a doctored vault copy.
      const hasToken = sync !== null && typeof sync === 'object' && 'token' in sync;
      // CONTRACT §14: the copy is adopted whole, but a backup target it asks for waits for the admin.
      await holdVaultRequest(ctx.dataDir, parsed);
      await ctx.files.write(ctx.dataDir, rel, hasToken ? Buffer.from(JSON.stringify(validateStoredSettings(parsed), null, 2) + '\n') : bytes, { mode: 0o600 });
      return true;
    });
  }

  for (const f of MIRRORED_FILES) await locked(f.item, f.rel, (look) => reconcile(f.item, f.rel, f.vetting, false, true, look));

  // Uploaded fonts: the union of both folders, the caps deciding what may be pushed.
  const localFonts = await ctx.files.list(ctx.dataDir, FONTS_DIR, LIST_LIMIT);
  const vaultFonts = (await ctx.files.list(ctx.vaultReal, vaultRel(FONTS_DIR), LIST_LIMIT)).map((r) => r.slice(SERVICE_DIR.length + 1));
  const localStates = new Map<string, FileState>();
  for (const rel of localFonts) {
    const st = await ctx.files.state(ctx.dataDir, rel).catch(() => null);
    if (st) localStates.set(rel, st);
  }
  const inVault = new Set<string>();
  for (const rel of vaultFonts) {
    const st = await ctx.files.state(ctx.vaultReal, vaultRel(rel)).catch(() => null);
    if (st && localStates.get(rel)?.hash === st.hash) inVault.add(rel);
  }
  const plan = planFonts(
    [...localStates].map(([rel, st]) => ({ rel, size: st.size, mtimeMs: st.mtimeMs, inVault: inVault.has(rel) })),
    ctx.fontCaps ?? DEFAULT_FONT_CAPS,
  );
  out.problems.push(...plan.leftBehind);
  for (const rel of [...new Set([...localFonts, ...vaultFonts])].sort()) {
    await locked('fonts', rel, (look) => reconcile('fonts', rel, fontVetting(rel), true, plan.allowed.has(rel), look));
  }
  return out;
}
